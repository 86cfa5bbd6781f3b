// Package acpagents drives the real ACP agents (Gemini CLI, Claude Code
// through claude-agent-acp, Codex through codex-acp, opencode), installed
// from npm, against the fake model servers of internal/fakemodel on
// 127.0.0.1. Its tests run only with CHIPCHAT_REAL_AGENTS=1 (.ci/run
// installs the agents and sets it); without it they skip, saying why.
//
// It owns the per-agent knowledge (command line, config files and
// environment in an isolated home, provider format, the tool calls the
// model makes) and the record of what each agent does. It must not import
// chipchat's packages (agent, ui, …): it checks the agents, not chipchat.
package acpagents
