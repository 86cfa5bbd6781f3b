package acpagents

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"

	"github.com/chipchat/chipchat/internal/fakemodel"
)

// Agent is what the harness knows about one real ACP agent.
type Agent struct {
	Name     string   // short name: claude, codex, gemini, opencode
	Package  string   // the npm package(s) that .ci/run installs, pinned
	Binary   string   // looked up on PATH; missing means the agent is skipped
	Argv     []string // the ACP command line
	Provider fakemodel.Provider
	// Setup writes the agent's config files into d and returns the
	// environment variables that point it at the fake model at url.
	Setup func(d Dirs, url string) ([]string, error)
	// Edit is the tool calls (one per model turn) with which the model
	// replaces old by new in the file at path (absolute); Shell runs a shell
	// command.
	Edit  func(path, old, new string) []fakemodel.ToolCall
	Shell func(command string) []fakemodel.ToolCall
	// Slash is a harmless agent command the suite sends as "/name".
	Slash string
	// Review is a phrase of the model request the agent's own /review
	// makes (its review prompt; "" when the agent has no /review): the
	// sign that the command reached the agent as its command.
	Review string
	// EditMode is a mode in which the edit scenario runs without any
	// permission request: applied when EditModeApplies, else refused (a
	// planning mode).
	EditMode        string
	EditModeApplies bool
	// StopOnError ends a scripted tool sequence when a step was refused.
	StopOnError bool
	// Model is the model id the agent is configured with.
	Model string
	// BeforeLoad, if set, works around a quirk before the restart that
	// precedes session/load (see doc.go).
	BeforeLoad func(d Dirs) error
}

// Available reports whether the agent's binary is on PATH.
func (a Agent) Available() bool {
	_, err := exec.LookPath(a.Binary)
	return err == nil
}

func call(name string, input map[string]any) fakemodel.ToolCall {
	b, err := json.Marshal(input)
	if err != nil {
		panic(err)
	}
	return fakemodel.ToolCall{Name: name, Input: b}
}

func calls(c ...fakemodel.ToolCall) []fakemodel.ToolCall { return c }

// Agents is the table of the four agents, in the order the suite runs them.
var Agents = []Agent{
	{
		Name:     "opencode",
		Package:  "opencode-ai@1.18.33",
		Binary:   "opencode",
		Slash:    "init",
		Review:   "You are a code reviewer. Your job is to review code changes",
		EditMode: "plan", // edits are refused while planning
		Argv:     []string{"opencode", "acp"},
		Provider: fakemodel.OpenAIChat,
		Model:    "fake/fake-model",
		Setup: func(d Dirs, url string) ([]string, error) {
			if err := WriteFile(d.Config+"/opencode/opencode.json", opencodeConfig(url)); err != nil {
				return nil, err
			}
			return []string{
				"OPENCODE_DISABLE_MODELS_FETCH=1",
				"OPENCODE_DISABLE_AUTOUPDATE=1",
				"OPENCODE_DISABLE_DEFAULT_PLUGINS=1",
				"OPENCODE_DISABLE_LSP_DOWNLOAD=1",
				"OPENCODE_DISABLE_CLAUDE_CODE=1",
				// opencode installs its plugin package from the npm registry
				// at every start; one cache for all runs saves the download.
				"npm_config_cache=" + filepath.Join(os.TempDir(), "chipchat-acpagents-npm-cache"),
			}, nil
		},
		Edit: func(path, old, new string) []fakemodel.ToolCall {
			// opencode, like Claude Code, edits only files it has read.
			return calls(
				call("read", map[string]any{"filePath": path}),
				call("edit", map[string]any{"filePath": path, "oldString": old, "newString": new}),
			)
		},
		StopOnError: true,
		Shell: func(command string) []fakemodel.ToolCall {
			return calls(call("bash", map[string]any{"command": command, "description": "Print a marker"}))
		},
	},
	{
		Name:     "gemini",
		Package:  "@google/gemini-cli@0.61.0",
		Binary:   "gemini",
		Slash:    "about",
		EditMode: "autoEdit", EditModeApplies: true,
		Argv:     []string{"gemini", "--acp"},
		Provider: fakemodel.Gemini,
		Model:    "gemini-2.5-flash",
		Setup: func(d Dirs, url string) ([]string, error) {
			settings := `{
  "security": {"auth": {"selectedType": "gemini-api-key"}, "folderTrust": {"enabled": false}},
  "general": {"disableAutoUpdate": true, "disableUpdateNag": true},
  "privacy": {"usageStatisticsEnabled": false},
  "telemetry": {"enabled": false},
  "model": {"name": "gemini-2.5-flash"}
}`
			if err := WriteFile(d.Home+"/.gemini/settings.json", settings); err != nil {
				return nil, err
			}
			return []string{
				"GEMINI_API_KEY=fake-key",
				"GOOGLE_GEMINI_BASE_URL=" + url,
				"GEMINI_CLI_TRUST_WORKSPACE=true",
				"GEMINI_MODEL=gemini-2.5-flash",
			}, nil
		},
		BeforeLoad: geminiAgeSessions,
		Edit: func(path, old, new string) []fakemodel.ToolCall {
			return calls(call("replace", map[string]any{"file_path": path, "old_string": old, "new_string": new, "instruction": "replace the line"}))
		},
		Shell: func(command string) []fakemodel.ToolCall {
			return calls(call("run_shell_command", map[string]any{"command": command, "description": "run " + command}))
		},
	},
	{
		Name:     "claude",
		Package:  "@agentclientprotocol/claude-agent-acp@0.101.0",
		Binary:   "claude-agent-acp",
		Slash:    "context",
		EditMode: "acceptEdits", EditModeApplies: true,
		Argv:     []string{"claude-agent-acp"},
		Provider: fakemodel.Anthropic,
		Model:    "claude-sonnet-4-5",
		Setup: func(d Dirs, url string) ([]string, error) {
			// Onboarding done, so nothing waits for a first-run dialog.
			if err := WriteFile(d.Home+"/.claude.json", `{"hasCompletedOnboarding": true, "bypassPermissionsModeAccepted": true}`); err != nil {
				return nil, err
			}
			return []string{
				"ANTHROPIC_BASE_URL=" + url,
				"ANTHROPIC_API_KEY=sk-ant-fake",
				"ANTHROPIC_MODEL=claude-sonnet-4-5",
				"ANTHROPIC_SMALL_FAST_MODEL=claude-haiku-4-5",
				"IS_SANDBOX=1", // Claude Code refuses to run as root otherwise
				"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
				"DISABLE_TELEMETRY=1",
				"DISABLE_AUTOUPDATER=1",
				"DISABLE_ERROR_REPORTING=1",
			}, nil
		},
		StopOnError: true,
		Edit: func(path, old, new string) []fakemodel.ToolCall {
			// Claude Code refuses to edit a file it has not read.
			return calls(
				call("Read", map[string]any{"file_path": path}),
				call("Edit", map[string]any{"file_path": path, "old_string": old, "new_string": new}),
			)
		},
		Shell: func(command string) []fakemodel.ToolCall {
			return calls(call("Bash", map[string]any{"command": command, "description": "Print a marker"}))
		},
	},
	{
		Name:     "codex",
		Package:  "@zed-industries/codex-acp@0.16.0 @openai/codex@0.171.0",
		Binary:   "codex-acp",
		Slash:    "init",
		Review:   "You are acting as a reviewer for a proposed code change",
		EditMode: "auto", EditModeApplies: true,
		Argv:     []string{"codex-acp"},
		Provider: fakemodel.OpenAIResponses,
		Model:    "gpt-5.3-codex",
		Setup: func(d Dirs, url string) ([]string, error) {
			if err := WriteFile(d.Home+"/.codex/config.toml", codexConfig(url)); err != nil {
				return nil, err
			}
			return []string{
				"CODEX_HOME=" + d.Home + "/.codex",
				"FAKE_OPENAI_API_KEY=sk-fake",
				"OPENAI_API_KEY=sk-fake",
				"RUST_LOG=warn",
			}, nil
		},
		Edit: func(path, old, new string) []fakemodel.ToolCall {
			patch := "*** Begin Patch\n*** Update File: " + path + "\n@@\n-" + old + "\n+" + new + "\n*** End Patch\n"
			return calls(fakemodel.ToolCall{Name: "apply_patch", Input: fakemodel.CustomInput(patch)})
		},
		Shell: func(command string) []fakemodel.ToolCall {
			// Outside the read-only sandbox, so Codex asks first.
			return calls(call("exec_command", map[string]any{
				"cmd": command, "sandbox_permissions": "require_escalated",
				"justification": "Run this command outside the sandbox?", "yield_time_ms": 5000,
			}))
		},
	},
}

// geminiAgeSessions renames Gemini CLI's session files so that their names
// carry a start minute in the past. Gemini names a session's file after the
// minute it started and the session id's first 8 characters; a process that
// loads the session in that same minute creates a fresh recording under the
// very same name, which empties the session before it is read back ("No
// previous sessions found for this project").
func geminiAgeSessions(d Dirs) error {
	files, err := filepath.Glob(filepath.Join(d.Home, ".gemini", "tmp", "*", "chats", "session-*.jsonl"))
	if err != nil {
		return err
	}
	re := regexp.MustCompile(`^session-\d{4}-\d\d-\d\dT\d\d-\d\d-`)
	for _, f := range files {
		base := filepath.Base(f)
		if loc := re.FindStringIndex(base); loc != nil {
			aged := "session-2000-01-01T00-00-" + base[loc[1]:]
			if err := os.Rename(f, filepath.Join(filepath.Dir(f), aged)); err != nil {
				return err
			}
		}
	}
	return nil
}

// codexConfig is Codex's config.toml: a model provider at the fake server
// speaking the Responses API, with its key from the environment.
func codexConfig(url string) string {
	return `model = "gpt-5.3-codex"
model_provider = "fake"
approval_policy = "on-request"
sandbox_mode = "read-only"
check_for_update_on_startup = false

[model_providers.fake]
name = "Fake"
base_url = "` + url + `/v1"
env_key = "FAKE_OPENAI_API_KEY"
wire_api = "responses"
request_max_retries = 0
stream_max_retries = 0

[analytics]
enabled = false

[feedback]
enabled = false
`
}

// opencodeConfig is opencode.json: a custom OpenAI-compatible provider at
// the fake server; in the build mode (agent) every edit and command asks
// first, the plan mode keeps its own rules (edits denied).
func opencodeConfig(url string) string {
	return `{
  "$schema": "https://opencode.ai/config.json",
  "model": "fake/fake-model",
  "small_model": "fake/fake-model",
  "autoupdate": false,
  "share": "disabled",
  "agent": {"build": {"permission": {"edit": "ask", "bash": "ask", "webfetch": "deny"}}},
  "provider": {
    "fake": {
      "npm": "@ai-sdk/openai-compatible",
      "name": "Fake",
      "options": {"baseURL": "` + url + `/v1", "apiKey": "sk-fake"},
      "models": {
        "fake-model": {"name": "Fake Model", "tool_call": true, "limit": {"context": 200000, "output": 8192}},
        "fake-model-2": {"name": "Fake Model 2", "tool_call": true, "limit": {"context": 200000, "output": 8192}}
      }
    }
  }
}
`
}

// Find returns the agent called name.
func Find(name string) (Agent, error) {
	for _, a := range Agents {
		if a.Name == name {
			return a, nil
		}
	}
	return Agent{}, fmt.Errorf("acpagents: no agent %q", name)
}
