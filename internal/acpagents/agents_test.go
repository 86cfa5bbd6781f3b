package acpagents

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	acp "github.com/coder/acp-go-sdk"

	"github.com/chipchat/chipchat/internal/fakemodel"
)

const (
	startTimeout  = 90 * time.Second
	promptTimeout = 120 * time.Second
)

// Report is what one agent run observed; it is logged as JSON (go test -v)
// and is the source of the table in doc.go.
type Report struct {
	Agent             string              `json:"agent"`
	AgentInfo         *acp.Implementation `json:"agentInfo,omitempty"`
	LoadSession       bool                `json:"loadSession"`
	PromptImage       bool                `json:"promptImage"`
	PromptEmbedded    bool                `json:"promptEmbeddedContext"`
	AuthMethods       []string            `json:"authMethods"`
	Modes             []string            `json:"modes"`
	CurrentMode       string              `json:"currentMode"`
	Models            []string            `json:"models"`
	ConfigOptions     []string            `json:"configOptions"`
	Commands          []string            `json:"commands"`
	EditPermission    []string            `json:"editPermissionOptions"`
	EditPermContent   []string            `json:"editPermissionContent"`
	ShellPermission   []string            `json:"shellPermissionOptions"`
	ShellOutputShown  bool                `json:"shellOutputInUpdates"`
	RejectedText      string              `json:"rejectedToolResult"`
	RejectStop        string              `json:"rejectStopReason"`
	CancelledAnswer   string              `json:"permissionAnsweredCancelled"`
	TurnCancel        string              `json:"sessionCancelDuringPermission"`
	Slash             string              `json:"slashCommand"`
	Stop              string              `json:"stop"`
	ModelError        string              `json:"modelHTTP400"`
	CancelStreaming   string              `json:"sessionCancelWhileStreaming"`
	ModelSwitch       string              `json:"modelSwitch"`
	ModeEffect        string              `json:"modeEffect"`
	ModeSwitch        string              `json:"modeSwitch"`
	LoadReplay        string              `json:"loadReplay"`
	AttachSeenByModel string              `json:"attachSeenByModel"`
	AttachRendering   string              `json:"attachAsTheModelSeesIt"`
	NewFiles          []string            `json:"filesWrittenByAllowOnce"`
	Endpoints         []string            `json:"endpoints"`
	FS                []string            `json:"fsCalls"`
}

func optionKinds(opts []acp.PermissionOption) []string {
	var out []string
	for _, o := range opts {
		out = append(out, string(o.Kind)+"="+o.Name)
	}
	return out
}

func gate(t *testing.T) {
	if os.Getenv(EnvGate) != "1" {
		t.Skip("the real-agent suite runs only with " + EnvGate + "=1 (.ci/run installs the agents from npm and sets it); it starts node agents and takes minutes")
	}
}

func TestRealAgents(t *testing.T) {
	gate(t)
	for _, a := range Agents {
		t.Run(a.Name, func(t *testing.T) {
			t.Parallel()
			if !a.Available() {
				t.Skipf("%s is not installed (npm install -g %s; .ci/run does)", a.Binary, a.Package)
			}
			runAgent(t, a)
		})
	}
}

// listFiles lists the regular files under root, relative.
func listFiles(root string) map[string]bool {
	out := map[string]bool{}
	_ = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		out[rel] = true
		return nil
	})
	return out
}

// agentRun is one agent process with a session in a fresh project, talking
// to its fake model.
type agentRun struct {
	a      Agent
	d      Dirs
	files  Files
	srv    *fakemodel.Server
	env    []string
	client *Client
	p      *Proc
	sess   acp.NewSessionResponse
	sid    acp.SessionId
	ctx    context.Context
	// beforeSession is the client's mark before session/new.
	beforeSession int
}

// startAgent starts a with the client capabilities caps and opens a
// session; everything is stopped and cleaned up with t.
func startAgent(t *testing.T, a Agent, caps acp.ClientCapabilities) *agentRun {
	t.Helper()
	root := t.TempDir()
	if os.Getenv("ACPAGENTS_KEEP") != "" {
		// For debugging: keep the agent's home and project.
		root, _ = os.MkdirTemp("", "acpagents-"+a.Name+"-")
		t.Logf("keeping %s", root)
	}
	d, err := NewDirs(root)
	if err != nil {
		t.Fatal(err)
	}
	r := &agentRun{a: a, d: d, files: DefaultFiles(d.Project), client: NewClient(d.Project)}
	if caps.Terminal {
		r.client.EnableTerminals(d.Project)
	}
	if err := WriteFile(r.files.Notes, r.files.OldLine+"\n"); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(filepath.Join(d.Project, "README.md"), "# test project\n"); err != nil {
		t.Fatal(err)
	}
	r.srv = fakemodel.New(a.Provider, Responder(a, r.files))
	t.Cleanup(r.srv.Close)
	extra, err := a.Setup(d, r.srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	r.env = d.Env(extra)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
	t.Cleanup(cancel)
	r.ctx = ctx
	sctx, scancel := context.WithTimeout(ctx, startTimeout)
	defer scancel()
	r.p, err = Start(sctx, a.Argv, d.Project, r.env, r.client, caps)
	if err != nil {
		t.Fatal(err)
	}
	p := r.p
	t.Cleanup(func() {
		p.Stop()
		if t.Failed() {
			t.Logf("%s stderr tail:\n%s", a.Name, lastLines(p.Stderr(), 40))
			t.Logf("model requests:\n%s", r.srv.Summary())
		}
	})
	if r.p.Init.ProtocolVersion != acp.ProtocolVersionNumber {
		t.Errorf("protocol version %d, want %d", r.p.Init.ProtocolVersion, acp.ProtocolVersionNumber)
	}
	r.beforeSession = r.client.Mark()
	r.sess, err = r.p.Conn.NewSession(sctx, acp.NewSessionRequest{Cwd: d.Project, McpServers: []acp.McpServer{}})
	if err != nil {
		t.Fatalf("session/new: %v\nstderr: %s", err, lastLines(r.p.Stderr(), 30))
	}
	r.sid = r.sess.SessionId
	return r
}

// prompt sends blocks to the session and fails t if the prompt fails.
func (r *agentRun) prompt(t *testing.T, blocks ...acp.ContentBlock) (acp.PromptResponse, []Event) {
	t.Helper()
	pctx, pcancel := context.WithTimeout(r.ctx, promptTimeout)
	defer pcancel()
	resp, evs, err := r.p.Prompt(pctx, r.sid, blocks...)
	dump(t, evs)
	if err != nil {
		t.Fatalf("%v\nevents: %s\nmodel requests:\n%s", err, Kinds(evs), r.srv.Summary())
	}
	return resp, evs
}

func runAgent(t *testing.T, a Agent) {
	r := startAgent(t, a, acp.ClientCapabilities{})
	d, files, srv, env, client, p, sess, sid, ctx, mark := r.d, r.files, r.srv, r.env, r.client, r.p, r.sess, r.sid, r.ctx, r.beforeSession
	prompt := r.prompt
	rep := &Report{Agent: a.Name}
	defer func() {
		seen := map[string]bool{}
		for _, r := range srv.Requests() {
			k := r.Method + " " + strings.SplitN(r.Path, "?", 2)[0]
			if !seen[k] {
				seen[k] = true
				rep.Endpoints = append(rep.Endpoints, k)
			}
		}
		rep.FS = clientCalls(client.Events(0))
		if exs := srv.Exchanges(); os.Getenv("ACPAGENTS_DUMP") != "" && len(exs) > 0 {
			var v struct {
				Tools json.RawMessage `json:"tools"`
			}
			_ = json.Unmarshal(exs[len(exs)-1].Raw, &v)
			t.Logf("tools of the last model request: %s", v.Tools)
		}
		b, _ := json.MarshalIndent(rep, "", "  ")
		t.Logf("report:\n%s", b)
	}()
	rep.AgentInfo = p.Init.AgentInfo
	rep.LoadSession = p.Init.AgentCapabilities.LoadSession
	rep.PromptImage = p.Init.AgentCapabilities.PromptCapabilities.Image
	rep.PromptEmbedded = p.Init.AgentCapabilities.PromptCapabilities.EmbeddedContext
	rep.AuthMethods = authMethods(p.Init.AuthMethods)
	if sess.Modes != nil {
		rep.CurrentMode = string(sess.Modes.CurrentModeId)
		for _, m := range sess.Modes.AvailableModes {
			rep.Modes = append(rep.Modes, string(m.Id))
		}
	}
	if sess.Models != nil {
		for _, m := range sess.Models.AvailableModels {
			rep.Models = append(rep.Models, string(m.ModelId))
		}
	}
	for _, o := range sess.ConfigOptions {
		b, _ := json.Marshal(o)
		var v struct {
			ID, Category, Type string
			CurrentValue       any
		}
		_ = json.Unmarshal(b, &v)
		rep.ConfigOptions = append(rep.ConfigOptions, v.ID+"("+v.Type+","+v.Category+")")
	}

	t.Logf("session %s", sid)
	t.Run("prompt", func(t *testing.T) {
		resp, evs := prompt(t, acp.TextBlock("Please answer "+MarkPing1))
		if got := TurnText(evs); !strings.Contains(got, ReplyPing1) {
			t.Fatalf("streamed text %q lacks %q; events %s", got, ReplyPing1, Kinds(evs))
		}
		if resp.StopReason != acp.StopReasonEndTurn {
			t.Errorf("stop reason %q", resp.StopReason)
		}
	})
	t.Run("history", func(t *testing.T) {
		_, evs := prompt(t, acp.TextBlock("And now "+MarkPing2))
		if got := TurnText(evs); !strings.Contains(got, ReplyPing2) {
			t.Fatalf("streamed text %q lacks %q", got, ReplyPing2)
		}
		ex := lastWith(srv, MarkPing2)
		if ex == nil || !strings.Contains(string(ex.Raw), MarkPing1) || !strings.Contains(string(ex.Raw), ReplyPing1) {
			t.Fatalf("the second turn's model request lacks the first turn's history")
		}
	})
	t.Run("commands", func(t *testing.T) {
		// available_commands_update may come at any time after session/new.
		wctx, wcancel := context.WithTimeout(ctx, 15*time.Second)
		_, _ = client.WaitFor(wctx, mark, func(e Event) bool { return e.Kind == "available_commands_update" })
		wcancel()
		for _, e := range client.Events(mark) {
			if e.Update != nil && e.Update.Update.AvailableCommandsUpdate != nil {
				rep.Commands = nil
				for _, c := range e.Update.Update.AvailableCommandsUpdate.AvailableCommands {
					rep.Commands = append(rep.Commands, c.Name)
				}
			}
		}
		if len(rep.Commands) == 0 {
			t.Logf("%s sent no available_commands_update", a.Name)
		}
	})

	t.Run("edit-allow-once", func(t *testing.T) {
		before := listFiles(d.Root)
		client.SetDecide(PickKind(acp.PermissionOptionKindAllowOnce))
		_, evs := prompt(t, acp.TextBlock("Edit notes.txt: "+MarkEditAllow))
		perm := firstPermission(evs)
		if perm == nil {
			t.Fatalf("no permission request for the edit; events %s\ntools: %s", Kinds(evs), ToolText(evs))
		}
		rep.EditPermission = optionKinds(perm.Permission.Options)
		rep.EditPermContent = ToolContentKinds(perm.Permission.ToolCall.Content)
		if !contains(rep.EditPermContent, "diff") {
			t.Errorf("the edit's permission request carries no diff (content %v)", rep.EditPermContent)
		}
		if !hasKind(perm.Permission.Options, acp.PermissionOptionKindAllowOnce) {
			t.Errorf("no allow_once option: %v", rep.EditPermission)
		}
		got, _ := os.ReadFile(files.Notes)
		if !strings.Contains(string(got), files.AllowLine) {
			t.Errorf("notes.txt after the allowed edit: %q", got)
		}
		if !strings.Contains(ToolText(evs), files.AllowLine) {
			t.Errorf("the edit's new text is nowhere in the tool call updates")
		}
		if txt := TurnText(evs); !strings.Contains(txt, MarkEditAllow+ReplyDone) {
			t.Errorf("after the tool result the reply %q lacks %q", txt, MarkEditAllow+ReplyDone)
		}
		for f := range listFiles(d.Root) {
			if !before[f] && !strings.HasPrefix(f, "home/.npm/") {
				rep.NewFiles = append(rep.NewFiles, f)
				if strings.HasPrefix(f, "proj/") {
					// e.g. a permanent allow rule in .claude/settings.local.json
					t.Errorf("allow_once left a new file in the project: %s", f)
				}
			}
		}
		sort.Strings(rep.NewFiles)
	})
	t.Run("edit-reject", func(t *testing.T) {
		if err := WriteFile(files.Notes, files.OldLine+"\n"); err != nil {
			t.Fatal(err)
		}
		client.SetDecide(PickKind(acp.PermissionOptionKindRejectOnce, acp.PermissionOptionKindRejectAlways))
		resp, evs := prompt(t, acp.TextBlock("Edit notes.txt again: "+MarkEditReject))
		rep.RejectStop = string(resp.StopReason)
		if firstPermission(evs) == nil {
			t.Fatalf("no permission request for the edit; events %s", Kinds(evs))
		}
		got, _ := os.ReadFile(files.Notes)
		if strings.Contains(string(got), files.RejectLine) {
			t.Errorf("the rejected edit was written: %q", got)
		}
		rep.RejectedText = "(the model was not called again: the agent ended the turn)"
		if ex := lastWith(srv, MarkEditReject); ex != nil && lastResultFailed(ex) {
			rs := ex.LastToolResults()
			rep.RejectedText = firstLine(rs[len(rs)-1].Output)
		}
	})
	t.Run("shell", func(t *testing.T) {
		client.SetDecide(PickKind(acp.PermissionOptionKindAllowOnce, acp.PermissionOptionKindAllowAlways))
		_, evs := prompt(t, acp.TextBlock("Run a command: "+MarkShell))
		if perm := firstPermission(evs); perm != nil {
			rep.ShellPermission = optionKinds(perm.Permission.Options)
		}
		rep.ShellOutputShown = strings.Contains(ToolText(evs), files.CommandOut)
		ex := lastWith(srv, MarkShell)
		if ex == nil || len(ex.LastToolResults()) == 0 || !strings.Contains(ex.LastToolResults()[0].Output, files.CommandOut) {
			var got []fakemodel.ToolResult
			var tools []string
			if ex != nil {
				got, tools = ex.LastToolResults(), ex.Tools
			}
			t.Fatalf("the model did not get the command's output %q: results %+v; tools offered %v; events %s", files.CommandOut, got, tools, Kinds(evs))
		}
	})
	// permissionTurn resets notes.txt and runs a turn whose edit asks for
	// permission, answered by decide.
	permissionTurn := func(t *testing.T, text string, decide func(acp.RequestPermissionRequest) acp.RequestPermissionResponse) (acp.PromptResponse, error) {
		t.Helper()
		if err := WriteFile(files.Notes, files.OldLine+"\n"); err != nil {
			t.Fatal(err)
		}
		client.SetDecide(decide)
		defer client.SetDecide(PickKind(acp.PermissionOptionKindAllowOnce))
		pctx, pcancel := context.WithTimeout(ctx, promptTimeout)
		defer pcancel()
		resp, evs, err := p.Prompt(pctx, sid, acp.TextBlock(text+MarkEditReject))
		dump(t, evs)
		if firstPermission(evs) == nil {
			t.Fatalf("no permission request; events %s (err %v)", Kinds(evs), err)
		}
		if got, _ := os.ReadFile(files.Notes); strings.Contains(string(got), files.RejectLine) {
			t.Errorf("the edit that was not allowed was written")
		}
		return resp, err
	}
	outcome := func(resp acp.PromptResponse, err error) string {
		if err != nil {
			return "prompt error: " + firstLine(err.Error())
		}
		return "stop reason " + string(resp.StopReason)
	}
	t.Run("permission-cancelled", func(t *testing.T) {
		// What esc answering "cancelled" to a permission request does.
		rep.CancelledAnswer = outcome(permissionTurn(t, "Edit notes.txt once more: ", PickKind()))
	})
	t.Run("session-cancel", func(t *testing.T) {
		// ctrl+c: session/cancel while a permission request is open, then
		// the request answered cancelled, as the spec says.
		resp, err := permissionTurn(t, "Edit notes.txt yet again: ", func(r acp.RequestPermissionRequest) acp.RequestPermissionResponse {
			_ = p.Conn.Cancel(context.Background(), acp.CancelNotification{SessionId: sid})
			return acp.RequestPermissionResponse{Outcome: acp.NewRequestPermissionOutcomeCancelled()}
		})
		rep.TurnCancel = outcome(resp, err)
		if err != nil || resp.StopReason != acp.StopReasonCancelled {
			t.Errorf("after session/cancel: %s (the spec says stop reason cancelled)", rep.TurnCancel)
		}
	})
	t.Run("slash-command", func(t *testing.T) {
		if a.Slash == "" {
			t.Skipf("no harmless slash command chosen for %s", a.Name)
		}
		if !contains(rep.Commands, a.Slash) {
			t.Fatalf("%s does not advertise /%s (commands %v)", a.Name, a.Slash, rep.Commands)
		}
		before := len(srv.Exchanges())
		resp, evs := prompt(t, acp.TextBlock("/"+a.Slash))
		rep.Slash = fmt.Sprintf("/%s: stop %s, %d model requests, reply %q", a.Slash, resp.StopReason, len(srv.Exchanges())-before, firstLine(TurnText(evs)))
	})
	t.Run("attach", func(t *testing.T) {
		attach := filepath.Join(d.Project, "attach.txt")
		body := "ATTACH-CONTENT-7\n"
		if err := WriteFile(attach, body); err != nil {
			t.Fatal(err)
		}
		var block acp.ContentBlock
		if p.Init.AgentCapabilities.PromptCapabilities.EmbeddedContext {
			block = acp.ResourceBlock(acp.EmbeddedResourceResource{TextResourceContents: &acp.TextResourceContents{
				Uri: "file://" + attach, Text: body, MimeType: acp.Ptr("text/plain"),
			}})
		} else {
			block = acp.ResourceLinkBlock("attach.txt", "file://"+attach)
		}
		prompt(t, acp.TextBlock("Read the attached file: "+MarkAttach), block)
		ex := lastWith(srv, MarkAttach)
		if ex == nil {
			t.Fatal("no model request for the attachment")
		}
		raw := string(ex.Raw)
		rep.AttachSeenByModel = "name=" + boolStr(strings.Contains(raw, "attach.txt")) + " content=" + boolStr(strings.Contains(raw, "ATTACH-CONTENT-7"))
		if !strings.Contains(raw, "attach.txt") {
			t.Errorf("the model never saw the file name attach.txt")
		}
		if u := ex.LastUserText(); strings.Contains(u, "attach.txt") {
			i := strings.Index(u, MarkAttach)
			if i < 0 {
				i = 0
			}
			rep.AttachRendering = firstLine(strings.ReplaceAll(u[i:], "\n", "⏎"))
		}
	})
	t.Run("mode-switch", func(t *testing.T) {
		mctx, mcancel := context.WithTimeout(ctx, 30*time.Second)
		defer mcancel()
		mk := client.Mark()
		if opt := modeOption(sess.ConfigOptions); opt != nil {
			// The mode as a config option (Claude, Codex, opencode).
			var target acp.SessionConfigValueId
			for _, o := range selectValues(opt) {
				if o != opt.CurrentValue {
					target = o
					break
				}
			}
			set := func(v acp.SessionConfigValueId) error {
				_, err := p.Conn.SetSessionConfigOption(mctx, acp.SetSessionConfigOptionRequest{ValueId: &acp.SetSessionConfigOptionValueId{
					SessionId: sid, ConfigId: opt.Id, Value: v,
				}})
				return err
			}
			if err := set(target); err != nil {
				t.Fatalf("session/set_config_option %s=%s: %v", opt.Id, target, err)
			}
			dump(t, client.Events(mk))
			rep.ModeSwitch = "set_config_option " + string(opt.Id) + "=" + string(target) + " ok; updates: " + Kinds(client.Events(mk))
			if err := set(opt.CurrentValue); err != nil {
				t.Errorf("session/set_config_option back to %s: %v", opt.CurrentValue, err)
			}
			mk = client.Mark()
		}
		if sess.Modes == nil || len(sess.Modes.AvailableModes) < 2 {
			if rep.ModeSwitch == "" {
				t.Skipf("%s advertises no modes", a.Name)
			}
			return
		}
		var target acp.SessionModeId
		for _, m := range sess.Modes.AvailableModes {
			if m.Id != sess.Modes.CurrentModeId {
				target = m.Id
				break
			}
		}
		if _, err := p.Conn.SetSessionMode(mctx, acp.SetSessionModeRequest{SessionId: sid, ModeId: target}); err != nil {
			t.Fatalf("session/set_mode %s: %v", target, err)
		}
		dump(t, client.Events(mk))
		if rep.ModeSwitch != "" {
			rep.ModeSwitch += "; "
		}
		rep.ModeSwitch += "set_mode " + string(target) + " ok; updates: " + Kinds(client.Events(mk))
		if _, err := p.Conn.SetSessionMode(mctx, acp.SetSessionModeRequest{SessionId: sid, ModeId: sess.Modes.CurrentModeId}); err != nil {
			t.Errorf("session/set_mode back to %s: %v", sess.Modes.CurrentModeId, err)
		}
	})
	t.Run("mode-effect", func(t *testing.T) {
		// The mode reaches the agent: in it the edit needs no permission.
		if a.EditMode == "" {
			t.Skipf("no mode chosen for %s", a.Name)
		}
		mctx, mcancel := context.WithTimeout(ctx, 30*time.Second)
		defer mcancel()
		setMode := func(id string) error {
			if sess.Modes != nil {
				_, err := p.Conn.SetSessionMode(mctx, acp.SetSessionModeRequest{SessionId: sid, ModeId: acp.SessionModeId(id)})
				return err
			}
			opt := modeOption(sess.ConfigOptions)
			if opt == nil {
				t.Fatalf("%s has neither modes nor a mode option", a.Name)
			}
			_, err := p.Conn.SetSessionConfigOption(mctx, acp.SetSessionConfigOptionRequest{ValueId: &acp.SetSessionConfigOptionValueId{
				SessionId: sid, ConfigId: opt.Id, Value: acp.SessionConfigValueId(id),
			}})
			return err
		}
		current := rep.CurrentMode
		if current == "" {
			current = string(modeOption(sess.ConfigOptions).CurrentValue)
		}
		if err := setMode(a.EditMode); err != nil {
			t.Fatalf("mode %s: %v", a.EditMode, err)
		}
		defer func() {
			if err := setMode(current); err != nil {
				t.Errorf("mode back to %s: %v", current, err)
			}
		}()
		if err := WriteFile(files.Notes, files.OldLine+"\n"); err != nil {
			t.Fatal(err)
		}
		client.SetDecide(PickKind(acp.PermissionOptionKindRejectOnce))
		defer client.SetDecide(PickKind(acp.PermissionOptionKindAllowOnce))
		_, evs := prompt(t, acp.TextBlock("Edit notes.txt in this mode: "+MarkEditAllow))
		asked := firstPermission(evs) != nil
		got, _ := os.ReadFile(files.Notes)
		applied := strings.Contains(string(got), files.AllowLine)
		rep.ModeEffect = fmt.Sprintf("in %s: permission asked %v, edit applied %v", a.EditMode, asked, applied)
		if asked || applied != a.EditModeApplies {
			t.Errorf("%s (want: no permission request, applied %v)", rep.ModeEffect, a.EditModeApplies)
		}
	})
	t.Run("model-switch", func(t *testing.T) {
		// The model picked in the session reaches the model server.
		mctx, mcancel := context.WithTimeout(ctx, 30*time.Second)
		defer mcancel()
		before := ""
		if ex := lastWith(srv, ""); ex != nil {
			before = ex.Model
		}
		var restore func()
		if opt := categoryOption(sess.ConfigOptions, "model"); opt != nil && len(selectValues(opt)) > 1 {
			// Another model, one of the fake provider's when the agent lists
			// others too (opencode lists its own hosted models).
			var target acp.SessionConfigValueId
			for _, v := range selectValues(opt) {
				if v != opt.CurrentValue && v != "default" && (target == "" || strings.HasPrefix(string(v), "fake/")) {
					target = v
				}
			}
			set := func(v acp.SessionConfigValueId) error {
				_, err := p.Conn.SetSessionConfigOption(mctx, acp.SetSessionConfigOptionRequest{ValueId: &acp.SetSessionConfigOptionValueId{
					SessionId: sid, ConfigId: opt.Id, Value: v,
				}})
				return err
			}
			for _, v := range selectValues(opt) {
				rep.Models = append(rep.Models, string(v))
			}
			if err := set(target); err != nil {
				t.Fatalf("session/set_config_option %s=%s: %v", opt.Id, target, err)
			}
			rep.ModelSwitch = "set_config_option " + string(opt.Id) + "=" + string(target)
			restore = func() { _ = set(opt.CurrentValue) }
		} else if sess.Models != nil && len(sess.Models.AvailableModels) > 1 {
			var target acp.UnstableModelId
			for _, m := range sess.Models.AvailableModels {
				if m.ModelId != sess.Models.CurrentModelId && m.ModelId != "auto" {
					target = acp.UnstableModelId(m.ModelId)
					break
				}
			}
			set := func(id acp.UnstableModelId) error {
				_, err := p.Conn.UnstableSetSessionModel(mctx, acp.UnstableSetSessionModelRequest{SessionId: sid, ModelId: id})
				return err
			}
			if err := set(target); err != nil {
				t.Fatalf("session/set_model %s: %v", target, err)
			}
			rep.ModelSwitch = "session/set_model " + string(target)
			restore = func() { _ = set(acp.UnstableModelId(sess.Models.CurrentModelId)) }
		} else {
			t.Skipf("%s offers one model only", a.Name)
		}
		defer restore()
		prompt(t, acp.TextBlock("Which model? "+MarkModel))
		ex := lastWith(srv, MarkModel)
		if ex == nil {
			t.Fatal("no model request after the switch")
		}
		rep.ModelSwitch += fmt.Sprintf(": request model %q, was %q", ex.Model, before)
		if ex.Model == before {
			t.Errorf("the model in the request did not change: %s", rep.ModelSwitch)
		}
	})
	t.Run("cancel-streaming", func(t *testing.T) {
		// ctrl+c while the model is still streaming.
		pctx, pcancel := context.WithTimeout(ctx, promptTimeout)
		defer pcancel()
		mk := client.Mark()
		type result struct {
			resp acp.PromptResponse
			err  error
		}
		done := make(chan result, 1)
		go func() {
			resp, _, err := p.Prompt(pctx, sid, acp.TextBlock("Take your time: "+MarkHang))
			done <- result{resp, err}
		}()
		if _, err := client.WaitFor(pctx, mk, func(e Event) bool { return e.Kind == "agent_message_chunk" }); err != nil {
			t.Fatalf("no text streamed before the stall: %v", err)
		}
		t0 := time.Now()
		if err := p.Conn.Cancel(pctx, acp.CancelNotification{SessionId: sid}); err != nil {
			t.Fatal(err)
		}
		var r result
		select {
		case r = <-done:
		case <-pctx.Done():
			t.Fatalf("the prompt did not end after session/cancel")
		}
		took := time.Since(t0).Round(100 * time.Millisecond)
		if r.err != nil {
			rep.CancelStreaming = fmt.Sprintf("prompt error after %v: %s", took, firstLine(r.err.Error()))
			t.Errorf("session/cancel while streaming made the prompt fail: %v", r.err)
		} else {
			rep.CancelStreaming = fmt.Sprintf("stop reason %s after %v", r.resp.StopReason, took)
			if r.resp.StopReason != acp.StopReasonCancelled {
				t.Errorf("stop reason %q after session/cancel, the spec says cancelled", r.resp.StopReason)
			}
		}
	})
	t.Run("model-error", func(t *testing.T) {
		// The model answers HTTP 400: how the agent reports it.
		pctx, pcancel := context.WithTimeout(ctx, promptTimeout)
		defer pcancel()
		resp, evs, err := p.Prompt(pctx, sid, acp.TextBlock("This fails: "+MarkFail))
		dump(t, evs)
		var re *acp.RequestError
		if !errors.As(err, &re) {
			t.Fatalf("the prompt did not fail with a JSON-RPC error: err %v, stop %q, reply %q", err, resp.StopReason, TurnText(evs))
		}
		data, _ := json.Marshal(re.Data)
		rep.ModelError = fmt.Sprintf("error code %d, message %q, data %s", re.Code, firstLine(re.Message), firstLine(string(data)))
		if !strings.Contains(re.Message+string(data), FailMessage) {
			t.Errorf("the model's error message is not in the JSON-RPC error: %s", rep.ModelError)
		}
	})
	t.Run("load", func(t *testing.T) {
		if !p.Init.AgentCapabilities.LoadSession {
			t.Skipf("%s does not advertise loadSession", a.Name)
		}
		t0 := time.Now()
		p.Stop()
		rep.Stop = fmt.Sprintf("%s after %v", p.StopHow, time.Since(t0).Round(100*time.Millisecond))
		if a.BeforeLoad != nil {
			if err := a.BeforeLoad(d); err != nil {
				t.Fatal(err)
			}
		}
		client2 := NewClient(d.Project)
		sctx, scancel := context.WithTimeout(ctx, startTimeout)
		defer scancel()
		p2, err := Start(sctx, a.Argv, d.Project, env, client2, acp.ClientCapabilities{})
		if err != nil {
			t.Fatal(err)
		}
		defer p2.Stop()
		t.Logf("restarted in %v", time.Since(t0))
		if _, err := p2.Conn.LoadSession(sctx, acp.LoadSessionRequest{SessionId: sid, Cwd: d.Project, McpServers: []acp.McpServer{}}); err != nil {
			t.Fatalf("session/load: %v\nstderr: %s", err, lastLines(p2.Stderr(), 30))
		}
		afterLoad := client2.Mark()
		t.Logf("loaded in %v", time.Since(t0))
		pctx, pcancel := context.WithTimeout(ctx, promptTimeout)
		defer pcancel()
		_, evs, err := p2.Prompt(pctx, sid, acp.TextBlock("After the restart "+MarkPing3))
		if err != nil {
			t.Fatal(err)
		}
		all := client2.Events(0)
		dump(t, all)
		nb, na := replayCount(all[:afterLoad]), replayCount(all[afterLoad:])
		switch {
		case nb > 0 && na == 0:
			rep.LoadReplay = "before the load response"
		case na > 0 && nb == 0:
			rep.LoadReplay = "after the load response (it lands in the next turn)"
		case na > 0:
			rep.LoadReplay = "both before and after the load response"
		default:
			rep.LoadReplay = "no replay"
		}
		rep.LoadReplay += fmt.Sprintf(" (%d replayed updates before, %d after; kinds before: %s)", nb, na, Kinds(all[:afterLoad]))
		if strings.Contains(TurnText(evs), ReplyPing1) {
			t.Logf("the replay reached the new turn's updates")
		}
		if !strings.Contains(TurnText(evs), ReplyPing3) {
			t.Errorf("the turn after load streamed %q", TurnText(evs))
		}
		ex := lastWith(srv, MarkPing3)
		if ex == nil || !strings.Contains(string(ex.Raw), ReplyPing1) {
			t.Errorf("the model request after load lacks the earlier history")
		}
	})
}

// dump logs the events as JSON when ACPAGENTS_DUMP is set (debugging).
func dump(t *testing.T, evs []Event) {
	t.Helper()
	if os.Getenv("ACPAGENTS_DUMP") == "" {
		return
	}
	for _, e := range evs {
		t.Logf("%d %s %s", e.Seq, e.Kind, e.JSON)
	}
}

// replayCount counts the updates that replay the earlier conversation: user
// message chunks (no agent echoes the user in a live turn) and agent text
// from an earlier turn.
func replayCount(evs []Event) int {
	n := 0
	for _, e := range evs {
		if e.Update == nil {
			continue
		}
		u := e.Update.Update
		switch {
		case u.UserMessageChunk != nil:
			n++
		case u.AgentMessageChunk != nil && u.AgentMessageChunk.Content.Text != nil:
			txt := u.AgentMessageChunk.Content.Text.Text
			if strings.Contains(txt, "PONG-ONE") || strings.Contains(txt, "PONG-TWO") || strings.Contains(txt, ReplyDone) {
				n++
			}
		case u.ToolCall != nil:
			n++
		}
	}
	return n
}

// modeOption is the select config option of category "mode", if any.
func modeOption(opts []acp.SessionConfigOption) *acp.SessionConfigOptionSelect {
	return categoryOption(opts, "mode")
}

// categoryOption is the select config option of a category, if any.
func categoryOption(opts []acp.SessionConfigOption, category acp.SessionConfigOptionCategory) *acp.SessionConfigOptionSelect {
	for _, o := range opts {
		if o.Select != nil && o.Select.Category != nil && *o.Select.Category == category {
			return o.Select
		}
	}
	return nil
}

// selectValues lists a select option's values, grouped or not.
func selectValues(o *acp.SessionConfigOptionSelect) []acp.SessionConfigValueId {
	var out []acp.SessionConfigValueId
	if u := o.Options.Ungrouped; u != nil {
		for _, x := range *u {
			out = append(out, x.Value)
		}
	}
	if g := o.Options.Grouped; g != nil {
		for _, grp := range *g {
			for _, x := range grp.Options {
				out = append(out, x.Value)
			}
		}
	}
	return out
}

// clientCalls lists the distinct client methods (fs/…, terminal/…) the
// agent called, in order.
func clientCalls(evs []Event) []string {
	var out []string
	seen := map[string]bool{}
	for _, e := range evs {
		if (strings.HasPrefix(e.Kind, "fs/") || strings.HasPrefix(e.Kind, "terminal/")) && !seen[e.Kind] {
			seen[e.Kind] = true
			out = append(out, e.Kind)
		}
	}
	return out
}

func authMethods(ms []acp.AuthMethod) []string {
	var out []string
	for _, m := range ms {
		b, _ := json.Marshal(m)
		out = append(out, string(b))
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i] + " …"
	}
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}

func boolStr(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func hasKind(opts []acp.PermissionOption, k acp.PermissionOptionKind) bool {
	for _, o := range opts {
		if o.Kind == k {
			return true
		}
	}
	return false
}

func firstPermission(evs []Event) *Event {
	for i := range evs {
		if evs[i].Permission != nil {
			return &evs[i]
		}
	}
	return nil
}

// lastWith is the newest model request of the main conversation (one that
// offers tools; titles and summaries offer none) whose last user text has
// mark.
func lastWith(s *fakemodel.Server, mark string) *fakemodel.Exchange {
	exs := s.Exchanges()
	for i := len(exs) - 1; i >= 0; i-- {
		if len(exs[i].Tools) > 0 && strings.Contains(exs[i].LastUserText(), mark) {
			return exs[i]
		}
	}
	return nil
}
