// Package acpagents drives the real ACP agents (Claude Code through
// claude-agent-acp, Codex through codex-acp, Gemini CLI, opencode),
// installed from npm, against the fake model servers of internal/fakemodel
// on 127.0.0.1. Its suite runs only with CHIPCHAT_REAL_AGENTS=1 (.ci/run
// installs the agents and sets it); without it, it skips saying why, and an
// agent that is not installed is skipped by name. Both go through
// internal/testenv: with CI set they fail instead.
//
// It owns the per-agent knowledge (the Agents table in agents.go: command
// line, config files and environment in an isolated home, provider format,
// the tool calls the fake model makes), a recording ACP client (harness.go)
// and the record below. It must not import chipchat's own packages (agent,
// ui, …): it checks the agents, not chipchat. Run it with
//
//	CHIPCHAT_REAL_AGENTS=1 go test -v -run TestRealAgents ./internal/acpagents/
//
// What this doc states of each agent is asserted: the table expected in
// expect_test.go holds it per agent, field by field, and a change of an
// agent's behaviour fails the suite (then update both). Each agent's run
// also logs a JSON report of what it saw; set ACPAGENTS_DUMP=1 to log every
// update and ACPAGENTS_KEEP=1 to keep the agent's home. The whole suite
// (three tests, the agents in parallel) takes about 25 s on an idle 2-core
// machine and up to 3 minutes on a busy one. TestRealAgentClaudeAsRoot…
// needs root (CI runs as root): as another user it skips, in CI it fails.
//
// # Scenarios
//
// One agent process per agent runs them in order, one session (the agents
// run in parallel). Every cell is asserted: "yes" that it works, other
// cells what the agent does.
//
//	scenario               claude          codex              gemini             opencode
//	prompt: streamed text  yes             yes                yes                yes
//	history (2nd turn)     yes             yes                yes                yes
//	commands update        yes             yes (late)         yes                yes
//	edit, allow_once       yes (diff)      yes (diff)         yes (diff)         yes (diff)
//	edit, reject_once      yes, continues  yes, turn ends     yes, continues     yes, turn ends
//	shell + output         yes             yes                yes                yes
//	answer "cancelled"     end_turn        stop cancelled     end_turn           end_turn
//	cancel at a permission cancelled       cancelled          cancelled          cancelled
//	cancel while streaming yes (cancelled) yes (cancelled)    yes (cancelled)    yes (cancelled)
//	slash command          /context        /init              /about             /init
//	attachment name        yes             yes                yes                yes
//	model answers HTTP 400 yes (error)     yes (error)        yes (error)        yes (error)
//	mode switch            option+set_mode option+set_mode    set_mode           config option
//	mode reaches the agent acceptEdits:    auto: edit         autoEdit: edit     plan: edit
//	(no permission asked)  edit applied    applied            applied            refused
//	model switch reaches   yes (option)    yes (option)       yes (set_model)    yes (option)
//	the model server
//	session/load           yes             yes                yes (workaround,   yes
//	                                                          races its replay)
//	client fs + terminals  yes (unused)    yes (unused)       yes (fs used)      yes (fs write)
//
// # Per agent
//
// Claude Code: @agentclientprotocol/claude-agent-acp 0.101.0 (Claude Code
// is the bundled native claude-agent-sdk-linux-x64; runs on node 20 though
// it asks for 22).
//   - Command `claude-agent-acp`. Env ANTHROPIC_BASE_URL, ANTHROPIC_API_KEY,
//     ANTHROPIC_MODEL, IS_SANDBOX=1 (as root without it, this version still
//     works but withholds the bypassPermissions mode (modes default,
//     acceptEdits, plan, auto): set_mode answers -32602 "Mode
//     bypassPermissions is not available in this session"),
//     CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1, DISABLE_TELEMETRY=1,
//     DISABLE_AUTOUPDATER=1; ~/.claude.json {"hasCompletedOnboarding":true}.
//   - Anthropic Messages SSE: POST /v1/messages?beta=true and
//     /v1/messages/count_tokens.
//   - A tool call starts as tool_call with rawInput {} and a generic title
//     ("Edit", "Read File"), then tool_call_updates bring the real title
//     ("Edit notes.txt"), rawInput, locations and the diff, then the
//     permission request: titles must be updated in place. Edit needs a
//     Read of the file first (the script reads, then edits).
//   - Permission options: allow_once "Yes" (first), allow_always "Yes, allow
//     all edits during this session", reject_once "No"; for the Bash
//     command only allow_once and reject_once. Read-only commands (echo,
//     printf) run without asking. allow_once writes no settings file.
//   - Reject: the model gets "User refused permission to run tool"
//     (is_error) and the turn goes on; answered "cancelled", the model gets
//     "Tool permission request failed: Error: Tool use aborted" and the
//     turn goes on too. Bash output is in content text.
//   - Modes default, acceptEdits, plan, auto, bypassPermissions, both as
//     `modes` and as config option "mode"; the model only as config option
//     "model" (no `models`). set_config_option answers current_mode_update,
//     set_mode answers config_option_update.
//   - Also sends usage_update (unstable, with cost), session_info_update
//     (title), messageId on chunks; ~40 commands (skills included), sent
//     right after session/new; /context answers locally.
//   - session/load replays the whole history before its response.
//   - Exits when stdin closes. Stderr carries [session/create] timings.
//
// Codex: @zed-industries/codex-acp 0.16.0 (a self-contained binary) and
// @openai/codex 0.171.0.
//   - Command `codex-acp`. CODEX_HOME/config.toml: model "gpt-5.3-codex" (a
//     slug it knows: an unknown one puts "Model metadata for … not found" in
//     every reply and drops apply_patch), model_provider "fake" with
//     base_url <url>/v1, wire_api "responses", env_key; approval_policy
//     "on-request" with sandbox_mode "read-only" is the "read-only" preset
//     (other combinations offer no mode at all).
//   - Needs bubblewrap (bwrap) on PATH, and a CODEX_HOME outside TMPDIR: it
//     refuses to put its sandbox helper there, and every apply_patch then
//     fails ("execvp codex-linux-sandbox"). The harness gives each agent its
//     own TMPDIR.
//   - OpenAI Responses SSE: POST /v1/responses only. Tools exec_command
//     (cmd, sandbox_permissions "require_escalated", justification),
//     apply_patch as a custom (freeform) tool, write_stdin, update_plan, ….
//   - Edit: tool_call (in_progress, diff content, rawInput with the unified
//     diff), then the permission request: allow_once "Yes", reject_once "No,
//     provide feedback" (optionId "abort"); no allow_always.
//   - Shell: the permission request comes first (content text: the
//     justification and the proposed rule): allow_once "Yes, proceed",
//     allow_always "Yes, and don't ask again for commands that start with
//     …", reject_once "No, and tell Codex what to do differently"; then
//     tool_call and tool_call_update whose output is only in rawOutput
//     (stdout, formatted_output), not in content.
//   - Reject ("abort") ends the turn with stop reason cancelled, the model
//     is not called again; answering "cancelled" does the same. A client
//     must not report this as an error.
//   - available_commands_update comes late (during the first turns): review,
//     review-branch, review-commit (all three with input hints), init,
//     compact, logout.
//   - Modes read-only, auto, full-access as `modes` and config option
//     "mode"; config options model and reasoning_effort (category
//     thought_level). set_mode answers config_option_update (after its
//     response); set_config_option sends no update.
//   - session/load replays everything before its response.
//   - Does not exit when stdin closes; needs SIGTERM.
//
// Gemini CLI: @google/gemini-cli 0.61.0.
//   - Command `gemini --acp` (--experimental-acp still works). Env
//     GEMINI_API_KEY, GOOGLE_GEMINI_BASE_URL, GEMINI_CLI_TRUST_WORKSPACE=true;
//     ~/.gemini/settings.json security.auth.selectedType "gemini-api-key",
//     telemetry and usage statistics off, auto-update off.
//   - Gemini SSE: POST /v1beta/models/<model>:streamGenerateContent?alt=sse
//     only. Tools replace, write_file, run_shell_command, read_file, ….
//     Commands with $(…) are refused by the agent itself.
//   - No tool_call before the permission request: the request introduces the
//     call (status pending, diff with oldText/newText, locations); then one
//     tool_call_update completed. For a command, the request's content is
//     "[current working directory …] (…)" and the title is the command; the
//     command's output is never sent to the client.
//   - Permission options: allow_always "Allow for this session" FIRST, then
//     allow_once "Allow", reject_once "Reject".
//   - Reject or "cancelled": the model gets {"error":"Tool \"replace\" was
//     canceled by the user."} and the turn goes on (end_turn).
//   - Modes default, autoEdit, yolo, plan (`modes`); models in `models`
//     (auto, gemini-2.5-pro, …; switched by the unstable session/set_model);
//     no config options. set_mode answers no current_mode_update but an
//     agent_message_chunk "[MODE_UPDATE] autoEdit" outside any turn.
//   - Commands memory, extensions, init, restore, about, help, and
//     subcommands named with a space ("memory show"); /about answers locally.
//   - session/load answers without waiting for its replay (streamHistory is
//     not awaited), which starts with the hidden <session_context> user
//     message: the replay comes before the response, after it (then it
//     lands among the next prompt's updates) or on both sides; runs on one
//     machine saw all three. The replay has user chunks "[Function
//     Response: replace]" and completed tool_calls with relative paths.
//   - Quirk: a session's file is named after the minute it started; a
//     process that loads it within that same minute starts a new recording
//     under the same name and empties it ("No previous sessions found for
//     this project"). The suite renames the files first (geminiAgeSessions).
//   - Exits when stdin closes. Stderr: "Ripgrep is not available".
//
// opencode: opencode-ai 1.18.33 (a native binary).
//   - Command `opencode acp`. $XDG_CONFIG_HOME/opencode/opencode.json: a
//     provider with npm "@ai-sdk/openai-compatible", options.baseURL
//     <url>/v1, models with tool_call; agent.build.permission edit and bash
//     "ask" (allowed without asking by default; set per agent, so that the
//     plan mode keeps denying edits). Env OPENCODE_DISABLE_* (models
//     fetch, autoupdate, default plugins, LSP download, Claude Code files).
//     At every start it still installs @opencode-ai/plugin from the npm
//     registry (the suite shares one npm_config_cache across runs).
//   - OpenAI Chat Completions SSE (stream_options.include_usage): POST
//     /v1/chat/completions only.
//   - tool_call starts pending with rawInput {} and the tool's name as title
//     ("edit", "bash"), then updates. Edit: diff in the permission request.
//     Bash: the permission request has rawInput.command and no content; the
//     output streams as content text in tool_call_updates.
//   - It writes files through fs/write_text_file although the client
//     advertised no fs capability (a client answering "method not found"
//     breaks every edit).
//   - Permission options: allow_once "Allow once" (first), allow_always
//     "Always allow", reject_once "Reject". Reject ends the turn (end_turn,
//     the model is not called again; the tool call fails with "The user
//     rejected permission to use this specific tool call."); answered
//     "cancelled", likewise.
//   - Mode (build, plan) and model only as config options, no `modes`;
//     set_config_option sends no update. Commands customize-opencode, init,
//     review. Auth method "opencode-login" (run `opencode auth login`).
//   - session/load replays everything before its response.
//   - Exits when stdin closes.
//
// # With the client's file system and terminals
//
// TestRealAgentsClientCapabilities offers fs.readTextFile, fs.writeTextFile,
// terminal and auth.terminal (as Zed does) and runs the edit and the shell
// scenario:
//   - Gemini CLI reads and writes the edited file through fs/read_text_file
//     and fs/write_text_file; opencode writes through fs/write_text_file
//     (with or without the capability); Claude Code and Codex use neither.
//   - No agent runs its commands in a client terminal (terminal/create is
//     never called); the output reaches the client only as tool call content
//     text (Claude, opencode), as rawOutput (Codex) or not at all (Gemini).
//   - With auth.terminal, Claude Code lists terminal sign-in methods
//     ("claude-ai-login", "console-login": type "terminal", args ["--cli",
//     "auth", "login", …]); without it, none. Codex lists "chatgpt" and two
//     env_var methods (CODEX_API_KEY, OPENAI_API_KEY, with vars); Gemini
//     lists oauth-personal, gemini-api-key, vertex-ai, gateway; opencode
//     lists "opencode-login" (run `opencode auth login`).
//
// # When the model fails
//
// The model answering HTTP 400 fails the prompt with a JSON-RPC error, the
// model's message in a different place for each agent:
//   - Claude: -32603, message "Internal error: API Error: 400 <message>".
//   - Codex: -32603, message "Internal error", the provider's JSON error body
//     in data.message (data.codex_error_info "other").
//   - Gemini: code 400 (the HTTP status as the JSON-RPC code), message the
//     provider's JSON error body.
//   - opencode: -32603, message "Internal error: <message>", data.errorName
//     "APIError".
//
// A client should show message and, when it is only "Internal error",
// data.message.
//
// # Models
//
// The model switch reaches the model server for all four (the request's
// model changes):
//   - Claude: config option "model", values default, opus, fable, sonnet,
//     haiku and the configured id; "opus" makes requests for
//     claude-opus-5-5.
//   - Codex: config option "model", values gpt-5.5, gpt-5.4, gpt-5.4-mini,
//     gpt-5.3-codex, gpt-5.2 (from its built-in catalogue, whatever the
//     provider serves).
//   - Gemini: `models` with session/set_model (unstable): auto,
//     gemini-3.1-pro-preview-customtools, …; the configured model
//     (gemini-2.5-flash) is not among them.
//   - opencode: config option "model" with provider/model values: its own
//     hosted "opencode/…" models (free ones, served from the network) come
//     first, then the configured provider's.
//
// All four: agentInfo with the pinned version (names
// "@agentclientprotocol/claude-agent-acp", "codex-acp", "gemini-cli",
// "OpenCode"), protocolVersion 1, loadSession, promptCapabilities image and
// embeddedContext; an embedded text resource with a file:// URI reaches the
// model with its file name and content (Claude and Codex as
// "[@attach.txt](file://…)" plus <context ref="file://…"> with the text,
// opencode as "[/abs/path/attach.txt]" then the text, Gemini as
// "@file://…" plus "--- Content from referenced context ---"); session/cancel
// during an open permission request, answered "cancelled", ends the prompt
// with stop reason cancelled.
package acpagents
