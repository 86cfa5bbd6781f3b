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
	"github.com/chipchat/chipchat/internal/testenv"
)

const (
	startTimeout  = 90 * time.Second
	promptTimeout = 120 * time.Second
	// cancelledPrompt is the turn session/cancel ends (session-cancel).
	cancelledPrompt = "Edit notes.txt yet again: "
)

// Report is what one agent run observed; it is logged as JSON (go test -v)
// for reading. What doc.go states of it is asserted against the agent's
// expectation (expect_test.go).
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

// gate ends a real-agent test unless EnvGate is 1: a skip, or a failure
// in CI (.ci/run installs the agents and sets it).
func gate(t *testing.T) {
	t.Helper()
	if os.Getenv(EnvGate) != "1" {
		testenv.Missing(t, "the real-agent suite runs only with "+EnvGate+"=1 (.ci/run installs the agents from npm and sets it); it starts node agents and takes minutes")
	}
}

// needAgent ends the test (see testenv.Missing) unless a is installed.
func needAgent(t *testing.T, a Agent) {
	t.Helper()
	if !a.Available() {
		testenv.Missing(t, a.Binary+" is not installed (npm install -g "+a.Package+"; .ci/run does)")
	}
}

func TestRealAgents(t *testing.T) {
	gate(t)
	for _, a := range Agents {
		t.Run(a.Name, func(t *testing.T) {
			t.Parallel()
			needAgent(t, a)
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
	e := expect(t, a)
	r := startAgent(t, a, acp.ClientCapabilities{})
	d, files, srv, env, client, p, sess, sid, ctx, mark := r.d, r.files, r.srv, r.env, r.client, r.p, r.sess, r.sid, r.ctx, r.beforeSession
	prompt := r.prompt
	rep := &Report{Agent: a.Name}
	defer func() {
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
	rep.ConfigOptions = configOptionIDs(sess.ConfigOptions)
	modeOpt, modelOpt := modeOption(sess.ConfigOptions), categoryOption(sess.ConfigOptions, "model")

	t.Logf("session %s", sid)
	t.Run("initialize", func(t *testing.T) {
		// All four: protocol version 1 (checked by startAgent),
		// loadSession, image and embedded context prompts.
		if info := p.Init.AgentInfo; info == nil || info.Name != e.InfoName || info.Version != pinVersion(a) {
			t.Errorf("agentInfo %+v, want name %q version %q (the pin)", info, e.InfoName, pinVersion(a))
		}
		caps := p.Init.AgentCapabilities
		if !caps.LoadSession || !caps.PromptCapabilities.Image || !caps.PromptCapabilities.EmbeddedContext {
			t.Errorf("capabilities loadSession %v, image %v, embeddedContext %v; want all", caps.LoadSession, caps.PromptCapabilities.Image, caps.PromptCapabilities.EmbeddedContext)
		}
		checkList(t, "auth methods (no auth.terminal)", authIDs(p.Init.AuthMethods), e.AuthMethods)
	})
	t.Run("session", func(t *testing.T) {
		checkList(t, "modes", rep.Modes, e.Modes)
		if e.Modes != nil && rep.CurrentMode != e.CurrentMode {
			t.Errorf("current mode %q, want %q", rep.CurrentMode, e.CurrentMode)
		}
		if !sameSet(rep.ConfigOptions, e.ConfigOptions) {
			t.Errorf("config options %q, want %q", rep.ConfigOptions, e.ConfigOptions)
		}
		switch {
		case e.ModeOption == nil && modeOpt != nil:
			t.Errorf("a mode config option %s, want none", modeOpt.Id)
		case e.ModeOption != nil && modeOpt == nil:
			t.Errorf("no mode config option, want one with %q", e.ModeOption)
		case modeOpt != nil:
			checkList(t, "values of the config option mode", valueStrings(selectValues(modeOpt)), e.ModeOption)
			if string(modeOpt.CurrentValue) != e.CurrentMode {
				t.Errorf("the mode option's current value %q, want %q", modeOpt.CurrentValue, e.CurrentMode)
			}
		}
		switch {
		case e.ModelOption == nil && modelOpt != nil:
			t.Errorf("a model config option %s, want none", modelOpt.Id)
		case e.ModelOption != nil && modelOpt == nil:
			t.Errorf("no model config option, want one with %q", e.ModelOption)
		case modelOpt != nil:
			checkModelOption(t, e, valueStrings(selectValues(modelOpt)))
		}
		if e.Models == nil {
			if sess.Models != nil {
				t.Errorf("`models` %q, want none", rep.Models)
			}
			return
		}
		if len(rep.Models) < len(e.Models) {
			t.Fatalf("`models` %q, want it to start with %q", rep.Models, e.Models)
		}
		checkList(t, "head of `models`", rep.Models[:len(e.Models)], e.Models)
		if contains(rep.Models, e.NotModel) {
			t.Errorf("`models` %q lists %s", rep.Models, e.NotModel)
		}
	})
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
		// available_commands_update may come at any time after session/new
		// (Codex's during the first turns): wait for one with the commands.
		wctx, wcancel := context.WithTimeout(ctx, promptTimeout)
		ev, err := client.WaitFor(wctx, mark, func(ev Event) bool { return hasCommands(e, ev) })
		wcancel()
		for _, ev := range client.Events(mark) {
			if ev.Update != nil && ev.Update.Update.AvailableCommandsUpdate != nil {
				rep.Commands = nil
				for _, c := range ev.Update.Update.AvailableCommandsUpdate.AvailableCommands {
					rep.Commands = append(rep.Commands, c.Name)
				}
			}
		}
		if err != nil {
			t.Fatalf("no available_commands_update with %q (last one: %q)", e.Commands, rep.Commands)
		}
		checkCommands(t, e, ev.Update.Update.AvailableCommandsUpdate.AvailableCommands)
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
		checkList(t, "the edit's permission options", rep.EditPermission, e.EditOptions)
		if !contains(rep.EditPermContent, "diff") {
			t.Errorf("the edit's permission request carries no diff (content %v)", rep.EditPermContent)
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
				// e.g. a permanent allow rule in .claude/settings.local.json
				if strings.HasPrefix(f, "proj/") || strings.Contains(filepath.Base(f), "settings") {
					t.Errorf("allow_once left a new project or settings file: %s", f)
				}
			}
		}
		sort.Strings(rep.NewFiles)
	})
	// modelGot is the first line of the failed tool result the model got in
	// the newest turn with mark, "" if the agent did not call it again.
	modelGot := func(mark string) string {
		if ex := lastWith(srv, mark); ex != nil && lastResultFailed(ex) {
			rs := ex.LastToolResults()
			return firstLine(rs[len(rs)-1].Output)
		}
		return ""
	}
	checkModelGot := func(t *testing.T, got, want string) {
		t.Helper()
		switch {
		case want == "" && got != "":
			t.Errorf("the model was called again with the failed tool result %q; want the turn to end", got)
		case want != "" && !strings.HasPrefix(got, want):
			t.Errorf("the model got the tool result %q, want %q", got, want)
		}
	}
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
		rep.RejectedText = modelGot(MarkEditReject)
		if resp.StopReason != e.RejectStop {
			t.Errorf("stop reason %q after reject_once, want %q", resp.StopReason, e.RejectStop)
		}
		checkModelGot(t, rep.RejectedText, e.RejectResult)
		if e.RejectToolText != "" && !strings.Contains(ToolText(evs), e.RejectToolText) {
			t.Errorf("the tool call updates lack %q:\n%s", e.RejectToolText, ToolText(evs))
		}
	})
	t.Run("shell", func(t *testing.T) {
		client.SetDecide(PickKind(acp.PermissionOptionKindAllowOnce, acp.PermissionOptionKindAllowAlways))
		_, evs := prompt(t, acp.TextBlock("Run a command: "+MarkShell))
		perm := firstPermission(evs)
		if perm == nil {
			t.Errorf("no permission request for the command; events %s", Kinds(evs))
		} else {
			rep.ShellPermission = optionKinds(perm.Permission.Options)
			checkList(t, "the command's permission options", rep.ShellPermission, e.ShellOptions)
		}
		content, raw := shellOutputPlaces(evs, files.CommandOut)
		rep.ShellOutputShown = content || raw
		switch e.ShellOutput {
		case "content":
			if !content {
				t.Errorf("the command's output %q is not in the tool call content", files.CommandOut)
			}
		case "rawOutput":
			if content || !raw {
				t.Errorf("the command's output %q: in content %v, in rawOutput %v; want only in rawOutput", files.CommandOut, content, raw)
			}
		default:
			if strings.Contains(ToolText(evs), files.CommandOut) {
				t.Errorf("the command's output %q reached the client, the doc says it never does", files.CommandOut)
			}
		}
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
		resp, err := permissionTurn(t, "Edit notes.txt once more: ", PickKind())
		rep.CancelledAnswer = outcome(resp, err)
		if err != nil || resp.StopReason != e.CancelledStop {
			t.Errorf("permission answered cancelled: %s, want stop reason %s", rep.CancelledAnswer, e.CancelledStop)
		}
		checkModelGot(t, modelGot(MarkEditReject), e.CancelledResult)
	})
	t.Run("session-cancel", func(t *testing.T) {
		// ctrl+c: session/cancel while a permission request is open, then
		// the request answered cancelled, as the spec says.
		resp, err := permissionTurn(t, cancelledPrompt, func(r acp.RequestPermissionRequest) acp.RequestPermissionResponse {
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
			t.Fatalf("no slash command for %s in the Agents table (doc.go names one per agent)", a.Name)
		}
		if !contains(rep.Commands, a.Slash) {
			t.Fatalf("%s does not advertise /%s (commands %v)", a.Name, a.Slash, rep.Commands)
		}
		before := len(srv.Exchanges())
		resp, evs := prompt(t, acp.TextBlock("/"+a.Slash))
		// The cancelled turn's model request may still arrive after it
		// ended (an agent cancels its HTTP stream and may have sent the
		// next request already): it is that turn's, not this command's.
		n := 0
		var asked []string
		for _, ex := range srv.Exchanges()[before:] {
			if len(ex.Tools) > 0 && !strings.Contains(ex.LastUserText(), cancelledPrompt) {
				n++
				asked = append(asked, firstLine(ex.LastUserText()))
			}
		}
		reply := TurnText(evs)
		rep.Slash = fmt.Sprintf("/%s: stop %s, %d model requests with tools, reply %q", a.Slash, resp.StopReason, n, firstLine(reply))
		if resp.StopReason != acp.StopReasonEndTurn || n != e.SlashModelRequests || !strings.HasPrefix(reply, e.SlashReply) {
			t.Errorf("%s (the requests' last user texts %q); want stop end_turn, %d model requests, a reply starting %q", rep.Slash, asked, e.SlashModelRequests, e.SlashReply)
		}
	})
	t.Run("attach", func(t *testing.T) {
		attach := filepath.Join(d.Project, "attach.txt")
		body := "ATTACH-CONTENT-7\n"
		if err := WriteFile(attach, body); err != nil {
			t.Fatal(err)
		}
		// All four advertise embeddedContext (asserted in initialize).
		block := acp.ResourceBlock(acp.EmbeddedResourceResource{TextResourceContents: &acp.TextResourceContents{
			Uri: "file://" + attach, Text: body, MimeType: acp.Ptr("text/plain"),
		}})
		prompt(t, acp.TextBlock("Read the attached file: "+MarkAttach), block)
		ex := lastWith(srv, MarkAttach)
		if ex == nil {
			t.Fatal("no model request for the attachment")
		}
		raw := string(ex.Raw)
		rep.AttachSeenByModel = "name=" + boolStr(strings.Contains(raw, "attach.txt")) + " content=" + boolStr(strings.Contains(raw, "ATTACH-CONTENT-7"))
		u := ex.LastUserText()
		if i := strings.Index(u, MarkAttach); i >= 0 {
			rep.AttachRendering = firstLine(strings.ReplaceAll(u[i:], "\n", "⏎"))
		}
		var want []string
		for _, s := range e.Attach {
			want = append(want, fill(s, attach))
		}
		if !inOrder(u, append([]string{MarkAttach}, want...)) {
			t.Errorf("the model's last user text %q, want after %s, in order: %q", u, MarkAttach, want)
		}
	})
	// switchAndBack switches with set to target and back to back, and
	// checks the updates the first switch sent: want, in order (nil: none).
	// It waits for the last wanted kind (with text chunk, if set) after
	// each switch; the response to the switch back is the sync point for
	// "none".
	switchAndBack := func(t *testing.T, what string, set func(string) error, target, back string, want []string, chunk string) string {
		t.Helper()
		mctx, mcancel := context.WithTimeout(ctx, promptTimeout)
		defer mcancel()
		waitWanted := func(from int, id string) {
			if len(want) == 0 {
				return
			}
			last := want[len(want)-1]
			txt := strings.ReplaceAll(chunk, target, id)
			if _, err := client.WaitFor(mctx, from, func(ev Event) bool {
				return ev.Kind == last && (last != "agent_message_chunk" || strings.Contains(TurnText([]Event{ev}), txt))
			}); err != nil {
				t.Errorf("%s %s: no %s (updates %s)", what, id, last, Kinds(client.Events(from)))
			}
		}
		mk := client.Mark()
		if err := set(target); err != nil {
			t.Fatalf("%s %s: %v", what, target, err)
		}
		waitWanted(mk, target)
		mkBack := client.Mark()
		if err := set(back); err != nil {
			t.Errorf("%s back to %s: %v", what, back, err)
		}
		waitWanted(mkBack, back)
		var first []Event
		for _, ev := range client.Events(mk) {
			if ev.Seq < mkBack || len(want) == 0 {
				first = append(first, ev)
			}
		}
		dump(t, first)
		got := modeUpdateKinds(first)
		if len(want) == 0 && len(got) > 0 || len(want) > 0 && strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("%s %s sent %q, want %q", what, target, got, want)
		}
		if chunk != "" && !strings.Contains(TurnText(first), chunk) {
			t.Errorf("%s %s: text %q, want %q", what, target, TurnText(first), chunk)
		}
		return what + " " + target + " ok; updates: " + Kinds(first)
	}
	t.Run("mode-switch", func(t *testing.T) {
		// doc.go: option+set_mode (Claude, Codex), set_mode (Gemini), the
		// config option only (opencode); asserted in "session".
		var how []string
		if e.ModeOption != nil {
			if modeOpt == nil {
				t.Fatalf("no mode config option")
			}
			set := func(v string) error {
				_, err := p.Conn.SetSessionConfigOption(ctx, acp.SetSessionConfigOptionRequest{ValueId: &acp.SetSessionConfigOptionValueId{
					SessionId: sid, ConfigId: modeOpt.Id, Value: acp.SessionConfigValueId(v),
				}})
				return err
			}
			how = append(how, switchAndBack(t, "set_config_option "+string(modeOpt.Id), set, otherThan(e.ModeOption, e.CurrentMode), e.CurrentMode, e.ModeOptionUpdates, ""))
		}
		if e.Modes != nil {
			if sess.Modes == nil {
				t.Fatalf("no `modes`")
			}
			set := func(v string) error {
				_, err := p.Conn.SetSessionMode(ctx, acp.SetSessionModeRequest{SessionId: sid, ModeId: acp.SessionModeId(v)})
				return err
			}
			how = append(how, switchAndBack(t, "set_mode", set, otherThan(e.Modes, e.CurrentMode), e.CurrentMode, e.SetModeUpdates, e.ModeChunk))
		}
		rep.ModeSwitch = strings.Join(how, "; ")
		if len(how) == 0 {
			t.Errorf("the expectation for %s has neither modes nor a mode option", a.Name)
		}
	})
	t.Run("mode-effect", func(t *testing.T) {
		// The mode reaches the agent: in it the edit needs no permission.
		if a.EditMode == "" {
			t.Fatalf("no EditMode for %s in the Agents table (doc.go names one per agent)", a.Name)
		}
		mctx, mcancel := context.WithTimeout(ctx, promptTimeout)
		defer mcancel()
		setMode := func(id string) error {
			if e.Modes != nil {
				_, err := p.Conn.SetSessionMode(mctx, acp.SetSessionModeRequest{SessionId: sid, ModeId: acp.SessionModeId(id)})
				return err
			}
			if modeOpt == nil {
				t.Fatalf("%s has neither modes nor a mode option", a.Name)
			}
			_, err := p.Conn.SetSessionConfigOption(mctx, acp.SetSessionConfigOptionRequest{ValueId: &acp.SetSessionConfigOptionValueId{
				SessionId: sid, ConfigId: modeOpt.Id, Value: acp.SessionConfigValueId(id),
			}})
			return err
		}
		if err := setMode(a.EditMode); err != nil {
			t.Fatalf("mode %s: %v", a.EditMode, err)
		}
		defer func() {
			if err := setMode(e.CurrentMode); err != nil {
				t.Errorf("mode back to %s: %v", e.CurrentMode, err)
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
		mctx, mcancel := context.WithTimeout(ctx, promptTimeout)
		defer mcancel()
		before := ""
		if ex := lastWith(srv, ""); ex != nil {
			before = ex.Model
		}
		switch e.ModelSwitch {
		case "option":
			if modelOpt == nil {
				t.Fatalf("no model config option")
			}
			values := valueStrings(selectValues(modelOpt))
			rep.Models = append(rep.Models, values...)
			if !contains(values, e.ModelTarget) {
				t.Fatalf("the model option does not offer %s: %q", e.ModelTarget, values)
			}
			set := func(v acp.SessionConfigValueId) error {
				_, err := p.Conn.SetSessionConfigOption(mctx, acp.SetSessionConfigOptionRequest{ValueId: &acp.SetSessionConfigOptionValueId{
					SessionId: sid, ConfigId: modelOpt.Id, Value: v,
				}})
				return err
			}
			if err := set(acp.SessionConfigValueId(e.ModelTarget)); err != nil {
				t.Fatalf("session/set_config_option %s=%s: %v", modelOpt.Id, e.ModelTarget, err)
			}
			rep.ModelSwitch = "set_config_option " + string(modelOpt.Id) + "=" + e.ModelTarget
			defer func() { _ = set(modelOpt.CurrentValue) }()
		case "set_model":
			if sess.Models == nil || !contains(rep.Models, e.ModelTarget) {
				t.Fatalf("`models` %q lacks %s", rep.Models, e.ModelTarget)
			}
			set := func(id acp.UnstableModelId) error {
				_, err := p.Conn.UnstableSetSessionModel(mctx, acp.UnstableSetSessionModelRequest{SessionId: sid, ModelId: id})
				return err
			}
			if err := set(acp.UnstableModelId(e.ModelTarget)); err != nil {
				t.Fatalf("session/set_model %s: %v", e.ModelTarget, err)
			}
			rep.ModelSwitch = "session/set_model " + e.ModelTarget
			defer func() { _ = set(acp.UnstableModelId(sess.Models.CurrentModelId)) }()
		default:
			t.Fatalf("the expectation for %s names no model switch", a.Name)
		}
		prompt(t, acp.TextBlock("Which model? "+MarkModel))
		ex := lastWith(srv, MarkModel)
		if ex == nil {
			t.Fatal("no model request after the switch")
		}
		rep.ModelSwitch += fmt.Sprintf(": request model %q, was %q", ex.Model, before)
		if ex.Model != e.RequestModel || ex.Model == before {
			t.Errorf("%s; want request model %q", rep.ModelSwitch, e.RequestModel)
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
		// Wait for the start of the stalling text: Gemini CLI streams text
		// in pieces of its own and holds the last one back until the stream
		// goes on, which it does not. WaitFor goes over the events in order,
		// each once past last.
		var streamed strings.Builder
		last := -1
		if _, err := client.WaitFor(pctx, mk, func(ev Event) bool {
			if ev.Seq > last {
				last = ev.Seq
				streamed.WriteString(TurnText([]Event{ev}))
			}
			return streamed.Len() > 0 && strings.HasPrefix(ReplyHang, streamed.String())
		}); err != nil {
			t.Fatalf("the stalling text %q did not stream: %v (text %q)", ReplyHang, err, TurnText(client.Events(mk)))
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
		if re.Code != e.ErrCode {
			t.Errorf("error code %d, want %d (%s)", re.Code, e.ErrCode, rep.ModelError)
		}
		if err := checkErrorField("message", re.Message, e.ErrMessage); err != nil {
			t.Error(err)
		}
		var fields map[string]any
		_ = json.Unmarshal(data, &fields)
		for k, want := range e.ErrData {
			got, _ := fields[k].(string)
			if err := checkErrorField("data."+k, got, want); err != nil {
				t.Error(err)
			}
		}
	})
	t.Run("load", func(t *testing.T) {
		if !p.Init.AgentCapabilities.LoadSession {
			t.Fatalf("%s does not advertise loadSession (doc.go: all four do)", a.Name)
		}
		t0 := time.Now()
		if e.StopHow == "stdin closed" {
			// It exits by itself; a busy machine must not make that SIGTERM.
			p.StdinGrace = promptTimeout
		}
		p.Stop()
		rep.Stop = fmt.Sprintf("%s after %v", p.StopHow, time.Since(t0).Round(100*time.Millisecond))
		if p.StopHow != e.StopHow {
			t.Errorf("stopped by %s, want %s", rep.Stop, e.StopHow)
		}
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
		rep.LoadReplay = fmt.Sprintf("%d replayed updates before the load response, %d after; kinds before: %s", nb, na, Kinds(all[:afterLoad]))
		switch e.LoadReplay {
		case "before":
			if nb == 0 || na > 0 {
				t.Errorf("%s; want all before", rep.LoadReplay)
			}
		case "racing":
			// Gemini CLI answers without waiting for its replay: it starts
			// with the hidden <session_context> user message and has the
			// whole history by the end of the next turn.
			first := ""
			for _, ev := range all {
				if ev.Update != nil && ev.Update.Update.UserMessageChunk != nil {
					first = userText([]Event{ev})
					break
				}
			}
			if !strings.HasPrefix(first, "<session_context>") || !strings.Contains(TurnText(all), ReplyPing2) {
				t.Errorf("%s (first user text %q); want a replay that starts with <session_context> and has the history", rep.LoadReplay, firstLine(first))
			}
		default:
			t.Errorf("the expectation for %s has LoadReplay %q", a.Name, e.LoadReplay)
		}
		if !strings.Contains(TurnText(evs), ReplyPing3) {
			t.Errorf("the turn after load streamed %q", TurnText(evs))
		}
		ex := lastWith(srv, MarkPing3)
		if ex == nil || !strings.Contains(string(ex.Raw), ReplyPing1) {
			t.Errorf("the model request after load lacks the earlier history")
		}
	})
	t.Run("endpoints", func(t *testing.T) {
		seen := map[string]bool{}
		for _, r := range srv.Requests() {
			if k := endpoint(r.Method, r.Path); !seen[k] {
				seen[k] = true
				rep.Endpoints = append(rep.Endpoints, k)
			}
		}
		if !sameSet(rep.Endpoints, e.Endpoints) {
			t.Errorf("model endpoints %q, want %q", rep.Endpoints, e.Endpoints)
		}
	})
	t.Run("client-calls", func(t *testing.T) {
		// The client offered no fs capability; opencode writes through it
		// all the same.
		rep.FS = clientCalls(client.Events(0))
		checkList(t, "client methods called without the capability", rep.FS, e.FS)
	})
	if exs := srv.Exchanges(); os.Getenv("ACPAGENTS_DUMP") != "" && len(exs) > 0 {
		var v struct {
			Tools json.RawMessage `json:"tools"`
		}
		_ = json.Unmarshal(exs[len(exs)-1].Raw, &v)
		t.Logf("tools of the last model request: %s", v.Tools)
	}
}

// otherThan is the first of list that is not cur.
func otherThan(list []string, cur string) string {
	for _, x := range list {
		if x != cur {
			return x
		}
	}
	return cur
}

// userText is the text of the user message chunks among evs.
func userText(evs []Event) string {
	var b strings.Builder
	for _, ev := range evs {
		if ev.Update != nil && ev.Update.Update.UserMessageChunk != nil {
			if t := ev.Update.Update.UserMessageChunk.Content.Text; t != nil {
				b.WriteString(t.Text)
			}
		}
	}
	return b.String()
}

// shellOutputPlaces reports whether out is in the text content of the tool
// calls among evs, and whether it is in their rawOutput.
func shellOutputPlaces(evs []Event, out string) (content, raw bool) {
	check := func(c []acp.ToolCallContent, r any) {
		for _, x := range c {
			if x.Content != nil && x.Content.Content.Text != nil && strings.Contains(x.Content.Content.Text.Text, out) {
				content = true
			}
		}
		if r != nil {
			b, _ := json.Marshal(r)
			if strings.Contains(string(b), out) {
				raw = true
			}
		}
	}
	for _, ev := range evs {
		switch {
		case ev.Update != nil && ev.Update.Update.ToolCall != nil:
			check(ev.Update.Update.ToolCall.Content, ev.Update.Update.ToolCall.RawOutput)
		case ev.Update != nil && ev.Update.Update.ToolCallUpdate != nil:
			check(ev.Update.Update.ToolCallUpdate.Content, ev.Update.Update.ToolCallUpdate.RawOutput)
		}
	}
	return content, raw
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
