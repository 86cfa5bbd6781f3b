package acpagents

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	acp "github.com/coder/acp-go-sdk"
)

// expectation is what doc.go says one agent does, asserted by the suite:
// the Scenarios table's cells and the Per agent section, one field a fact.
type expectation struct {
	// initialize
	InfoName    string   // agentInfo.name; agentInfo.version is the table's pin
	AuthMethods []string // ids, the client offering no auth.terminal
	// AuthTerminal is the auth method ids when the client offers
	// auth.terminal (TestRealAgentsClientCapabilities), with their type
	// after a colon when they have one.
	AuthTerminal []string

	// session/new
	Modes       []string // `modes` (nil: none)
	CurrentMode string   // the current mode, of `modes` or of the mode option
	ModeOption  []string // values of the config option "mode" (nil: none)
	// ConfigOptions are the config options as id(category).
	ConfigOptions []string
	// Models is the head of `models` (nil: no `models`); NotModel is a
	// model id that is not among them.
	Models   []string
	NotModel string
	// ModelOption is the values of the config option "model" (nil: none);
	// with ModelOptionHead set, only their tail, the others before it
	// starting with ModelOptionHead.
	ModelOption     []string
	ModelOptionHead string

	// Commands must all be advertised; with OnlyCommands the top-level ones
	// (no space in the name) are exactly these; MinCommands is a lower
	// bound on their number; CommandHints have an input hint.
	Commands     []string
	OnlyCommands bool
	MinCommands  int
	CommandHints []string

	// Permission options as kind=name, in order; a name ending in "…" is a
	// prefix.
	EditOptions  []string
	ShellOptions []string
	// ShellOutput says where the client sees the command's output:
	// "content" (tool call content text), "rawOutput" (only there, not in
	// content) or "" (nowhere).
	ShellOutput string

	// RejectStop is the stop reason after reject_once; RejectResult the
	// first line the model then gets as the failed tool result ("" when the
	// agent does not call the model again); RejectToolText is text the
	// client sees in the tool call updates ("" to skip).
	RejectStop     acp.StopReason
	RejectResult   string
	RejectToolText string
	// CancelledStop and CancelledResult, likewise, for a permission request
	// answered "cancelled".
	CancelledStop   acp.StopReason
	CancelledResult string

	// SlashModelRequests is how many model requests offering tools the
	// slash command makes (0: it answers locally); SlashReply the start of
	// its reply.
	SlashModelRequests int
	SlashReply         string

	// Attach is what the model sees of an embedded text resource, in order
	// ("{path}" is the file's absolute path).
	Attach []string

	// The model's HTTP 400: the JSON-RPC error code, message and data
	// fields. "{body}" stands for the provider's JSON error body, which
	// carries FailMessage.
	ErrCode    int
	ErrMessage string
	ErrData    map[string]string

	// The mode switch: the update kinds the agent sends after
	// session/set_config_option of the mode and after session/set_mode
	// (nil: none). ModeChunk is the agent_message_chunk text set_mode
	// answers with, if any.
	ModeOptionUpdates []string
	SetModeUpdates    []string
	ModeChunk         string

	// The model switch: by "option" (config option "model") or "set_model"
	// (unstable session/set_model), to ModelTarget; the model server then
	// sees RequestModel.
	ModelSwitch  string
	ModelTarget  string
	RequestModel string

	// LoadReplay is "before" (the history is replayed before the response
	// of session/load) or "racing" (the response does not wait for the
	// replay, which starts with the hidden <session_context> user message:
	// it comes before, after or on both sides of the response).
	LoadReplay string
	// StopHow is how the client's Stop ends the agent: "stdin closed" or
	// "SIGTERM".
	StopHow string
	// Endpoints are the model server endpoints (method and path, each
	// used, no other).
	Endpoints []string
	// FS is the client methods the agent calls when the client offers no
	// capability; FSOffered those when the client offers fs (the edit
	// scenario). ShellContent is the content kinds of the shell's tool call
	// updates then.
	FS           []string
	FSOffered    []string
	ShellContent []string
}

// expected is doc.go's record, per agent.
var expected = map[string]expectation{
	"claude": {
		InfoName:      "@agentclientprotocol/claude-agent-acp",
		AuthTerminal:  []string{"claude-ai-login:terminal", "console-login:terminal"},
		Modes:         []string{"default", "acceptEdits", "plan", "auto", "bypassPermissions"},
		CurrentMode:   "default",
		ModeOption:    []string{"default", "acceptEdits", "plan", "auto", "bypassPermissions"},
		ConfigOptions: []string{"mode(mode)", "model(model)"},
		ModelOption:   []string{"default", "opus", "fable", "sonnet", "haiku", "claude-sonnet-4-5"},
		Commands:      []string{"context", "compact", "init"},
		MinCommands:   30,
		EditOptions:   []string{"allow_once=Yes", "allow_always=Yes, allow all edits during this session", "reject_once=No"},
		ShellOptions:  []string{"allow_once=Yes", "reject_once=No"},
		ShellOutput:   "content",
		RejectStop:    acp.StopReasonEndTurn,
		RejectResult:  "User refused permission to run tool",
		CancelledStop: acp.StopReasonEndTurn, CancelledResult: "Tool permission request failed: Error: Tool use aborted",
		SlashModelRequests: 0, SlashReply: "## Context Usage",
		Attach:            []string{"[@attach.txt](file://{path})", `<context ref="file://{path}">`, "ATTACH-CONTENT-7"},
		ErrCode:           -32603,
		ErrMessage:        "Internal error: API Error: 400 " + FailMessage,
		ModeOptionUpdates: []string{"current_mode_update"},
		SetModeUpdates:    []string{"config_option_update"},
		ModelSwitch:       "option", ModelTarget: "opus", RequestModel: "claude-opus-5-5",
		LoadReplay:   "before",
		StopHow:      "stdin closed",
		Endpoints:    []string{"POST /v1/messages", "POST /v1/messages/count_tokens"},
		ShellContent: []string{"content"},
	},
	"codex": {
		InfoName:      "codex-acp",
		AuthMethods:   []string{"chatgpt", "codex-api-key:env_var", "openai-api-key:env_var"},
		AuthTerminal:  []string{"chatgpt", "codex-api-key:env_var", "openai-api-key:env_var"},
		Modes:         []string{"read-only", "auto", "full-access"},
		CurrentMode:   "read-only",
		ModeOption:    []string{"read-only", "auto", "full-access"},
		ConfigOptions: []string{"mode(mode)", "model(model)", "reasoning_effort(thought_level)"},
		ModelOption:   []string{"gpt-5.5", "gpt-5.4", "gpt-5.4-mini", "gpt-5.3-codex", "gpt-5.2"},
		Commands:      []string{"review", "review-branch", "review-commit", "init", "compact", "logout"},
		OnlyCommands:  true,
		CommandHints:  []string{"review", "review-branch", "review-commit"},
		EditOptions:   []string{"allow_once=Yes", "reject_once=No, provide feedback"},
		ShellOptions: []string{"allow_once=Yes, proceed", "allow_always=Yes, and don't ask again for commands that start with …",
			"reject_once=No, and tell Codex what to do differently"},
		ShellOutput:        "rawOutput",
		RejectStop:         acp.StopReasonCancelled,
		CancelledStop:      acp.StopReasonCancelled,
		SlashModelRequests: 1, SlashReply: ReplyAux,
		Attach:     []string{"[@attach.txt](file://{path})", `<context ref="file://{path}">`, "ATTACH-CONTENT-7"},
		ErrCode:    -32603,
		ErrMessage: "Internal error",
		ErrData:    map[string]string{"message": "{body}", "codex_error_info": "other"},
		// set_mode answers config_option_update (after its response),
		// set_config_option nothing.
		SetModeUpdates: []string{"config_option_update"},
		ModelSwitch:    "option", ModelTarget: "gpt-5.5", RequestModel: "gpt-5.5",
		LoadReplay: "before",
		StopHow:    "SIGTERM",
		Endpoints:  []string{"POST /v1/responses"},
	},
	"gemini": {
		InfoName:      "gemini-cli",
		AuthMethods:   []string{"oauth-personal", "gemini-api-key", "vertex-ai", "gateway"},
		AuthTerminal:  []string{"oauth-personal", "gemini-api-key", "vertex-ai", "gateway"},
		Modes:         []string{"default", "autoEdit", "yolo", "plan"},
		CurrentMode:   "default",
		Models:        []string{"auto", "gemini-3.1-pro-preview-customtools"},
		NotModel:      "gemini-2.5-flash",
		Commands:      []string{"memory", "extensions", "init", "restore", "about", "help", "memory show"},
		OnlyCommands:  true,
		EditOptions:   []string{"allow_always=Allow for this session", "allow_once=Allow", "reject_once=Reject"},
		ShellOptions:  []string{"allow_always=Allow for this session", "allow_once=Allow", "reject_once=Reject"},
		ShellOutput:   "",
		RejectStop:    acp.StopReasonEndTurn,
		RejectResult:  `{"error":"Tool \"replace\" was canceled by the user."}`,
		CancelledStop: acp.StopReasonEndTurn, CancelledResult: `{"error":"Tool \"replace\" was canceled by the user."}`,
		SlashModelRequests: 0, SlashReply: "Gemini CLI Info:",
		Attach:         []string{"@file://{path}", "--- Content from referenced context ---", "ATTACH-CONTENT-7"},
		ErrCode:        400,
		ErrMessage:     "{body}",
		SetModeUpdates: []string{"agent_message_chunk"},
		ModeChunk:      "[MODE_UPDATE] autoEdit",
		ModelSwitch:    "set_model", ModelTarget: "gemini-3.1-pro-preview-customtools", RequestModel: "gemini-3.1-pro-preview-customtools",
		LoadReplay: "racing",
		StopHow:    "stdin closed",
		Endpoints:  []string{"POST /v1beta/models/gemini-2.5-flash:streamGenerateContent", "POST /v1beta/models/gemini-3.1-pro-preview-customtools:streamGenerateContent"},
		FSOffered:  []string{"fs/read_text_file", "fs/write_text_file"},
	},
	"opencode": {
		InfoName:           "OpenCode",
		AuthMethods:        []string{"opencode-login"},
		AuthTerminal:       []string{"opencode-login"},
		CurrentMode:        "build",
		ModeOption:         []string{"build", "plan"},
		ConfigOptions:      []string{"model(model)", "mode(mode)"},
		ModelOption:        []string{"fake/fake-model", "fake/fake-model-2"},
		ModelOptionHead:    "opencode/",
		Commands:           []string{"customize-opencode", "init", "review"},
		OnlyCommands:       true,
		EditOptions:        []string{"allow_once=Allow once", "allow_always=Always allow", "reject_once=Reject"},
		ShellOptions:       []string{"allow_once=Allow once", "allow_always=Always allow", "reject_once=Reject"},
		ShellOutput:        "content",
		RejectStop:         acp.StopReasonEndTurn,
		RejectToolText:     "The user rejected permission to use this specific tool call.",
		CancelledStop:      acp.StopReasonEndTurn,
		SlashModelRequests: 1, SlashReply: ReplyAux,
		Attach:      []string{"[{path}]", "ATTACH-CONTENT-7"},
		ErrCode:     -32603,
		ErrMessage:  "Internal error: " + FailMessage,
		ErrData:     map[string]string{"errorName": "APIError"},
		ModelSwitch: "option", ModelTarget: "fake/fake-model-2", RequestModel: "fake-model-2",
		LoadReplay:   "before",
		StopHow:      "stdin closed",
		Endpoints:    []string{"POST /v1/chat/completions"},
		FS:           []string{"fs/write_text_file"},
		FSOffered:    []string{"fs/write_text_file"},
		ShellContent: []string{"content"},
	},
}

// expect is a's expectation; an agent without one fails the test.
func expect(t *testing.T, a Agent) expectation {
	t.Helper()
	e, ok := expected[a.Name]
	if !ok {
		t.Fatalf("no expectation for %s: add it to expected (expect_test.go) from doc.go", a.Name)
	}
	return e
}

// pinVersion is the version of a's first pinned package
// ("@scope/name@1.2.3" gives 1.2.3).
func pinVersion(a Agent) string {
	first := strings.Fields(a.Package)[0]
	return first[strings.LastIndex(first, "@")+1:]
}

// checkList fails t unless got equals want; a wanted item ending in "…"
// matches any item with that prefix.
func checkList(t *testing.T, what string, got, want []string) {
	t.Helper()
	ok := len(got) == len(want)
	for i := 0; ok && i < len(want); i++ {
		ok = matchItem(got[i], want[i])
	}
	if !ok {
		t.Errorf("%s: got %q, want %q", what, got, want)
	}
}

func matchItem(got, want string) bool {
	if p, cut := strings.CutSuffix(want, "…"); cut {
		return strings.HasPrefix(got, p)
	}
	return got == want
}

// authIDs lists auth methods as id, or id:type when they have a type.
func authIDs(ms []acp.AuthMethod) []string {
	var out []string
	for _, m := range ms {
		b, _ := json.Marshal(m)
		var v struct{ ID, Type string }
		_ = json.Unmarshal(b, &v)
		if v.Type != "" {
			v.ID += ":" + v.Type
		}
		out = append(out, v.ID)
	}
	return out
}

// configOptionIDs lists config options as id(category).
func configOptionIDs(opts []acp.SessionConfigOption) []string {
	var out []string
	for _, o := range opts {
		b, _ := json.Marshal(o)
		var v struct{ ID, Category string }
		_ = json.Unmarshal(b, &v)
		out = append(out, v.ID+"("+v.Category+")")
	}
	return out
}

func valueStrings(vs []acp.SessionConfigValueId) []string {
	var out []string
	for _, v := range vs {
		out = append(out, string(v))
	}
	return out
}

// checkModelOption checks the values of the "model" config option.
func checkModelOption(t *testing.T, e expectation, values []string) {
	t.Helper()
	if e.ModelOptionHead == "" {
		checkList(t, "values of the config option model", values, e.ModelOption)
		return
	}
	n := len(values) - len(e.ModelOption)
	if n < 1 {
		t.Errorf("values of the config option model: %q, want some %s… then %q", values, e.ModelOptionHead, e.ModelOption)
		return
	}
	for _, v := range values[:n] {
		if !strings.HasPrefix(v, e.ModelOptionHead) {
			t.Errorf("values of the config option model: %q before %q, want all %s…", v, e.ModelOption, e.ModelOptionHead)
		}
	}
	checkList(t, "last values of the config option model", values[n:], e.ModelOption)
}

// checkCommands checks an available_commands_update's commands.
func checkCommands(t *testing.T, e expectation, cmds []acp.AvailableCommand) {
	t.Helper()
	names := map[string]acp.AvailableCommand{}
	var top []string
	for _, c := range cmds {
		names[c.Name] = c
		if !strings.Contains(c.Name, " ") {
			top = append(top, c.Name)
		}
	}
	var missing []string
	for _, n := range e.Commands {
		if _, ok := names[n]; !ok {
			missing = append(missing, n)
		}
	}
	if len(missing) > 0 {
		t.Errorf("commands lack %q (got %q)", missing, top)
	}
	if e.OnlyCommands {
		var want []string
		for _, n := range e.Commands {
			if !strings.Contains(n, " ") {
				want = append(want, n)
			}
		}
		if !sameSet(top, want) {
			t.Errorf("top-level commands %q, want exactly %q", top, want)
		}
	}
	if len(top) < e.MinCommands {
		t.Errorf("%d commands, want at least %d", len(top), e.MinCommands)
	}
	for _, n := range e.CommandHints {
		if c, ok := names[n]; ok && c.Input == nil {
			t.Errorf("command %s has no input hint", n)
		}
	}
}

// hasCommands reports whether an available_commands_update lists all of
// e's required commands (the wait for the commands ends on it).
func hasCommands(e expectation, ev Event) bool {
	if ev.Update == nil || ev.Update.Update.AvailableCommandsUpdate == nil {
		return false
	}
	have := map[string]bool{}
	for _, c := range ev.Update.Update.AvailableCommandsUpdate.AvailableCommands {
		have[c.Name] = true
	}
	for _, n := range e.Commands {
		if !have[n] {
			return false
		}
	}
	return true
}

func sameSet(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	m := map[string]int{}
	for _, x := range a {
		m[x]++
	}
	for _, x := range b {
		m[x]--
		if m[x] < 0 {
			return false
		}
	}
	return true
}

// fill replaces {path} in s.
func fill(s, path string) string { return strings.ReplaceAll(s, "{path}", path) }

// inOrder reports whether the parts occur in s in that order.
func inOrder(s string, parts []string) bool {
	for _, p := range parts {
		i := strings.Index(s, p)
		if i < 0 {
			return false
		}
		s = s[i+len(p):]
	}
	return true
}

// checkErrorField checks a JSON-RPC error's message or data field against
// its expectation ("{body}": the provider's JSON error body, with
// FailMessage in error.message).
func checkErrorField(what, got, want string) error {
	if want != "{body}" {
		if got != want {
			return fmt.Errorf("%s %q, want %q", what, got, want)
		}
		return nil
	}
	var body struct {
		Error struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal([]byte(got), &body); err != nil || body.Error.Message != FailMessage {
		return fmt.Errorf("%s %q, want the provider's JSON error body with message %q", what, got, FailMessage)
	}
	return nil
}

// modeUpdateKinds lists the update kinds among evs that a mode switch may
// send (mode, config option and text updates), in order.
func modeUpdateKinds(evs []Event) []string {
	var out []string
	for _, e := range evs {
		switch e.Kind {
		case "current_mode_update", "config_option_update", "agent_message_chunk":
			out = append(out, e.Kind)
		}
	}
	return out
}

// endpoint is a model request as "METHOD /path" (no query).
var queryRE = regexp.MustCompile(`\?.*$`)

func endpoint(method, path string) string { return method + " " + queryRE.ReplaceAllString(path, "") }
