//go:build unix

package agent

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chipchat/chipchat/internal/acpagents"
	"github.com/chipchat/chipchat/internal/fakemodel"
	"github.com/chipchat/chipchat/message"
)

// TestACPRealAgents drives chipchat's ACP backend (not a test client)
// against the four real agents of internal/acpagents, each talking to a
// fake model server on 127.0.0.1. It runs only with CHIPCHAT_REAL_AGENTS=1
// (.ci/run installs the agents from npm and sets it); an agent that is not
// installed is skipped by name.
//
// Scenarios, in order, in one thread (one session) per agent:
//
//	scenario            claude  codex  gemini  opencode
//	two turns, history  yes     yes    yes     yes
//	edit: diff in the   yes     yes    yes     yes
//	  permission, allow
//	  once, no new file
//	esc rejects         yes     yes    yes     yes   (codex then stops the turn: a notice, no error)
//	bash output shown   yes     yes    no      yes   (Gemini never sends a command's output;
//	  in the body                                        every prompt shows the command line)
//	seq 101 112: all    yes     yes    -       yes   (twelve lines in one item's body, in order,
//	  lines in the body                                  not the permission's text)
//	mode switch         yes     yes    yes     yes   (set_mode, or the "mode" config option)
//	agent slash command yes     yes    yes     yes   (/context, /init, /about, /init)
//	attached file name  yes     yes    yes     yes
//	restart and resume  yes     yes    yes     yes   (no replayed text in the new reply)
//	  by                resume  resume load    resume (load: its replay dropped; resume: none sent)
//	usage_update        yes     no     no      no    (context used, size and cost)
//	close on delete     yes     yes    no-op   yes   (session/close offered but by Gemini CLI;
//	                                                   the thread's next turn gets a new session)
//	same-minute restart no      no     yes     no    (resumed, or the history handed over)
func TestACPRealAgents(t *testing.T) {
	acpagents.Each(t, runRealACP)
}

type realACP struct {
	t       *testing.T
	ag      acpagents.Agent
	d       acpagents.Dirs
	files   acpagents.Files
	srv     *fakemodel.Server
	command string
	a       *ACP
	sid     string

	// what the turns reported of the session
	modes    Modes
	options  []ConfigOption
	commands []Command
	// permission answers each Permission; perms records them.
	permission func(Permission) PermissionAnswer
	perms      []Permission
}

func runRealACP(t *testing.T, ag acpagents.Agent) {
	d, err := acpagents.NewDirs(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	r := &realACP{t: t, ag: ag, d: d, files: acpagents.DefaultFiles(d.Project)}
	if err := acpagents.WriteFile(r.files.Notes, r.files.OldLine+"\n"); err != nil {
		t.Fatal(err)
	}
	if err := acpagents.WriteFile(filepath.Join(d.Project, "README.md"), "# test project\n"); err != nil {
		t.Fatal(err)
	}
	r.srv = fakemodel.New(ag.Provider, acpagents.Responder(ag, r.files))
	t.Cleanup(r.srv.Close)
	extra, err := ag.Setup(d, r.srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	// Nothing of the caller's environment but what Dirs.Env keeps.
	r.command = "exec env -i"
	for _, kv := range d.Env(extra) {
		r.command += " " + acpShellQuote(kv)
	}
	for _, arg := range ag.Argv {
		r.command += " " + acpShellQuote(arg)
	}
	r.start()
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("model requests:\n%s", r.srv.Summary())
		}
	})
	r.permission = pickKind(message.AllowOnce)

	t.Run("two-turns", func(t *testing.T) {
		evs := r.turn(t, "", "Please answer "+acpagents.MarkPing1)
		first := evs
		if got := acpText(evs); !strings.Contains(got, acpagents.ReplyPing1) {
			t.Fatalf("reply %q lacks %q", got, acpagents.ReplyPing1)
		}
		if ss := acpOf[SessionStarted](evs); len(ss) != 1 || ss[0].ID == "" {
			t.Fatalf("SessionStarted = %v", ss)
		} else {
			r.sid = ss[0].ID
		}
		if ag.Name == "claude" {
			// Claude's usage_update: the context used and its size, and
			// the session's cost.
			ok := false
			for _, u := range acpOf[Usage](evs) {
				ok = ok || (u.ContextSize > 0 && u.ContextUsed > 0 && u.Currency != "")
			}
			if !ok {
				t.Errorf("no usage with the context and the cost: %+v", acpOf[Usage](evs))
			}
		}
		evs = r.turn(t, "", "And now "+acpagents.MarkPing2)
		if got := acpText(evs); !strings.Contains(got, acpagents.ReplyPing2) || strings.Contains(got, acpagents.ReplyPing1) {
			t.Fatalf("second reply %q", got)
		}
		if !r.anyWith(acpagents.MarkPing2, acpagents.ReplyPing1) {
			t.Errorf("the second turn's model request lacks the first turn's history")
		}
		if ag.Name == "claude" {
			// Claude names its session (session_info_update) a few seconds
			// in, from a model request of its own: in a turn's events, or
			// in the session's state between turns.
			st := append(acpOf[SessionTitle](first), acpOf[SessionTitle](evs)...)
			for deadline := time.Now().Add(60 * time.Second); len(st) == 0 && time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
				st = acpOf[SessionTitle](r.a.SessionState("main"))
			}
			if len(st) == 0 || st[0].Title == "" {
				t.Errorf("no session title from Claude: %+v", st)
			} else {
				t.Logf("Claude's session title: %q", st[0].Title)
			}
		}
	})
	t.Run("edit-allow-once", func(t *testing.T) {
		before := realFiles(d.Project)
		r.perms = nil
		evs := r.turn(t, "", "Edit notes.txt: "+acpagents.MarkEditAllow)
		p := r.editPermission()
		if p == nil {
			t.Fatalf("no permission asked for the edit; events %s", realKinds(evs))
		}
		var diff *message.ToolContent
		for i, c := range p.Tool.Content {
			if c.Type == message.ContentDiff {
				diff = &p.Tool.Content[i]
			}
		}
		if diff == nil || !strings.Contains(diff.NewText, r.files.AllowLine) {
			t.Errorf("the permission's tool has no diff with the new line: %+v", p.Tool)
		} else if diff.Line == message.LineUnknown {
			// Claude's snippet is placed by the file (acp_hunks.go), the
			// others' by their hunks or whole files: every diff has its
			// file's line numbers.
			t.Errorf("the edit's diff is not placed in its file (no line numbers): %+v", *diff)
		}
		if b, _ := os.ReadFile(r.files.Notes); !strings.Contains(string(b), r.files.AllowLine) {
			t.Errorf("notes.txt after the allowed edit: %q", b)
		}
		for f := range realFiles(d.Project) {
			if !before[f] {
				t.Errorf("allowing once left a new file in the project: %s", f)
			}
		}
	})
	t.Run("esc-rejects", func(t *testing.T) {
		if err := acpagents.WriteFile(r.files.Notes, r.files.OldLine+"\n"); err != nil {
			t.Fatal(err)
		}
		r.perms = nil
		r.permission = func(Permission) PermissionAnswer { return PermissionAnswer{Outcome: "rejected"} }
		defer func() { r.permission = pickKind(message.AllowOnce) }()
		r.turn(t, "", "Edit notes.txt again: "+acpagents.MarkEditReject)
		if r.editPermission() == nil {
			t.Fatal("no permission asked for the edit")
		}
		if b, _ := os.ReadFile(r.files.Notes); strings.Contains(string(b), r.files.RejectLine) {
			t.Errorf("the rejected edit was made: %q", b)
		}
	})
	t.Run("bash-output", func(t *testing.T) {
		r.perms = nil
		evs := r.turn(t, "", "Run the command: "+acpagents.MarkShell)
		if _, err := os.Stat(filepath.Join(d.Project, "shell-out.txt")); err != nil {
			t.Fatalf("the command did not run: %v", err)
		}
		// The prompt shows the command line it approves (issue 22).
		shown := false
		for _, p := range r.perms {
			b, _ := json.Marshal(p.Tool)
			shown = shown || strings.Contains(string(b), "chipchat-%s") && strings.Contains(string(b), "shell-out.txt")
		}
		if !shown {
			t.Errorf("no permission prompt shows the command; prompts %+v", r.perms)
		}
		if ag.Name == "gemini" {
			return // Gemini CLI never sends a command's output to the client
		}
		if !strings.Contains(realToolText(evs), r.files.CommandOut) {
			t.Errorf("the command's output %q is in no tool item; events %s", r.files.CommandOut, realKinds(evs))
		}
		// It is the item's body (its content), not only its raw output;
		// the body is never the permission request's text.
		inBody := false
		for _, tool := range acpFoldTools(evs) {
			for _, c := range tool.Content {
				if c.Type != message.ContentText {
					continue
				}
				inBody = inBody || strings.Contains(c.Text, r.files.CommandOut)
				for _, p := range r.perms {
					for _, pc := range p.Tool.Content {
						if pc.Type == message.ContentText && p.Tool.CallID == tool.CallID && strings.TrimSpace(pc.Text) != "" &&
							strings.TrimSpace(pc.Text) == strings.TrimSpace(c.Text) {
							t.Errorf("%s's body is its permission's text %q", tool.CallID, pc.Text)
						}
					}
				}
			}
		}
		if !inBody {
			t.Errorf("the command's output %q is in no tool item's body: %+v", r.files.CommandOut, acpFoldTools(evs))
		}
	})
	// Issue 22: after allowing Codex's `seq 101 112`, the item's body was
	// the permission's text (the proposed argv), and the output arrived
	// only in the last update's rawOutput. Every line of the output is in
	// one tool item's body, in order. Gemini CLI never sends a command's
	// output to the client: no subtest (CI allows no skip).
	seqOutput := func(t *testing.T) {
		r.perms = nil
		evs := r.turn(t, "", "Run the numbers: "+acpagents.MarkSeq)
		want := strings.Join(r.files.SeqOut, "\n")
		var bodies []string
		found := ""
		for id, tool := range acpFoldTools(evs) {
			var body []string
			for _, c := range tool.Content {
				if c.Type == message.ContentText {
					body = append(body, c.Text)
				}
			}
			text := strings.Join(body, "\n")
			bodies = append(bodies, id+": "+text)
			if strings.Contains(strings.ReplaceAll(text, "\r\n", "\n"), want) {
				found = id
			}
			for _, p := range r.perms {
				if p.Tool.CallID != id {
					continue
				}
				for _, pc := range p.Tool.Content {
					if pc.Type == message.ContentText && strings.TrimSpace(pc.Text) != "" && strings.Contains(text, strings.TrimSpace(pc.Text)) {
						t.Errorf("%s's body holds its permission's text %q", id, pc.Text)
					}
				}
			}
		}
		if found == "" {
			t.Fatalf("no tool item's body has the %d lines of %q in order; bodies %q; events %s", len(r.files.SeqOut), r.files.SeqCommand, bodies, realKinds(evs))
		}
		t.Logf("%s: the output of %q in item %s's body; %d permission prompts", ag.Name, r.files.SeqCommand, found, len(r.perms))
	}
	if ag.Name != "gemini" {
		t.Run("seq-output", seqOutput)
	}
	t.Run("mode-switch", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		switched := false
		if len(r.modes.Available) > 1 {
			for _, m := range r.modes.Available {
				if m.ID != r.modes.Current {
					if err := r.a.SetMode(ctx, "main", m.ID); err != nil {
						t.Fatalf("SetMode %s: %v", m.ID, err)
					}
					if err := r.a.SetMode(ctx, "main", r.modes.Current); err != nil {
						t.Errorf("SetMode back to %s: %v", r.modes.Current, err)
					}
					switched = true
					break
				}
			}
		}
		for _, o := range r.options {
			if o.Category != "mode" || switched {
				continue
			}
			for _, v := range o.Values {
				if v.ID != o.Current {
					if err := r.a.SetConfigOption(ctx, "main", o.ID, v.ID); err != nil {
						t.Fatalf("SetConfigOption %s=%s: %v", o.ID, v.ID, err)
					}
					if err := r.a.SetConfigOption(ctx, "main", o.ID, o.Current); err != nil {
						t.Errorf("SetConfigOption back: %v", err)
					}
					switched = true
					break
				}
			}
		}
		if !switched {
			t.Fatalf("no mode to switch to: modes %+v, options %+v", r.modes, r.options)
		}
	})
	t.Run("slash-command", func(t *testing.T) {
		if len(r.commands) == 0 {
			// Codex sends its commands late; one more turn brings them.
			r.turn(t, "", "Please answer "+acpagents.MarkPing1)
		}
		found := false
		for _, c := range r.commands {
			found = found || c.Name == ag.Slash
		}
		if !found {
			t.Fatalf("/%s not among the agent's commands %+v", ag.Slash, r.commands)
		}
		r.turn(t, "", "/"+ag.Slash)
	})
	t.Run("attached-file-name", func(t *testing.T) {
		// The bytes live under a content-hash name, as in chipchat's store.
		blob := filepath.Join(t.TempDir(), "26", "268e8f0c9a")
		body := "ATTACH-CONTENT-7\n"
		if err := acpagents.WriteFile(blob, body); err != nil {
			t.Fatal(err)
		}
		r.turn(t, "", "Read the attached file: "+acpagents.MarkAttach,
			Attachment{ContextID: "ctx_f", AttachmentID: "sha256-268e8f", Name: "attach.txt", MimeType: "text/plain", Path: blob, Size: int64(len(body))})
		// The turn's model request (not a side request, such as Claude's
		// title, that quotes the prompt alone) has the name and the content.
		seen, n := false, 0
		for _, ex := range r.srv.Exchanges() {
			raw := string(ex.Raw)
			if !strings.Contains(ex.LastUserText(), acpagents.MarkAttach) {
				continue
			}
			n++
			seen = seen || (strings.Contains(raw, "attach.txt") && strings.Contains(raw, "ATTACH-CONTENT-7"))
			if strings.Contains(raw, "268e8f0c9a") {
				t.Errorf("the model saw the content-hash name")
			}
		}
		if !seen {
			t.Errorf("none of the %d model requests with the prompt has the file's name and content", n)
		}
	})
	t.Run("restart-resume", func(t *testing.T) {
		if r.sid == "" {
			t.Fatal("the first turn reported no session id: nothing to resume")
		}
		r.a.Close()
		if ag.BeforeLoad != nil {
			if err := ag.BeforeLoad(d); err != nil {
				t.Fatal(err)
			}
		}
		r.start()
		var mu sync.Mutex
		dropped := 0
		r.a.dropped = func(string) {
			mu.Lock()
			dropped++
			mu.Unlock()
		}
		evs := r.turn(t, r.sid, "After the restart "+acpagents.MarkPing3)
		got := acpText(evs)
		r.a.mu.Lock()
		caps := r.a.proc.caps
		r.a.mu.Unlock()
		mu.Lock()
		n := dropped
		mu.Unlock()
		// session/resume where the agent offers it (the adapters of Claude
		// and Codex, opencode): nothing replayed to drop. session/load
		// otherwise (Gemini CLI), its replay dropped.
		wantResume := ag.Name != "gemini"
		switch resumed := caps.SessionCapabilities.Resume != nil; {
		case resumed != wantResume:
			t.Errorf("the agent offers session/resume: %v, want %v", resumed, wantResume)
		case resumed && n != 0:
			t.Errorf("%d updates dropped after session/resume: the agent replayed", n)
		case !resumed && n == 0:
			t.Errorf("session/load: no replayed update was dropped")
		}
		t.Logf("resume offered: %v, updates dropped: %d, close offered: %v", caps.SessionCapabilities.Resume != nil, n, caps.SessionCapabilities.Close != nil)
		if !strings.Contains(got, acpagents.ReplyPing3) {
			t.Fatalf("reply after the restart %q", got)
		}
		for _, old := range []string{acpagents.ReplyPing1, acpagents.ReplyPing2, acpagents.ReplyDone} {
			if strings.Contains(got, old) {
				t.Errorf("replayed text %q in the new reply %q", old, got)
			}
		}
		if n := len(acpOf[ToolCall](evs)); n != 0 {
			t.Errorf("%d replayed tool calls in the new reply", n)
		}
		if ss := acpOf[SessionStarted](evs); len(ss) != 0 {
			t.Errorf("a new session (%v) instead of the loaded one", ss)
		}
		if !r.anyWith(acpagents.MarkPing3, acpagents.ReplyPing1) {
			t.Errorf("the model request after the restart lacks the earlier history")
		}
	})
	t.Run("close-on-delete", func(t *testing.T) {
		// The thread is deleted: its session is closed (session/close,
		// where the agent offers it) and forgotten; the agent goes on.
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		r.a.mu.Lock()
		p := r.a.proc
		r.a.mu.Unlock()
		// Claude's and Codex's adapters and opencode offer session/close;
		// the session resumed above is open in this process, so the close
		// is sent (CloseSession sends nothing for a session not open).
		offered := p.caps.SessionCapabilities.Close != nil
		if want := ag.Name != "gemini"; offered != want {
			t.Errorf("the agent offers session/close: %v, want %v", offered, want)
		}
		if offered && !p.isLive(r.sid) {
			t.Fatalf("session %s is not open in the agent: there is nothing to close", r.sid)
		}
		if err := r.a.CloseSession(ctx, "main"); err != nil {
			t.Fatalf("session/close: %v", err)
		}
		if offered && p.isLive(r.sid) {
			t.Errorf("session %s is still open after session/close", r.sid)
		}
		evs := r.turn(t, "", "In a new thread "+acpagents.MarkPing1)
		if ss := acpOf[SessionStarted](evs); len(ss) != 1 || ss[0].ID == r.sid {
			t.Errorf("after the close, SessionStarted = %v (closed %s)", ss, r.sid)
		}
		if !strings.Contains(acpText(evs), acpagents.ReplyPing1) {
			t.Errorf("reply after the close %q", acpText(evs))
		}
		r.sid = acpOf[SessionStarted](evs)[0].ID
	})
	if ag.Name != "gemini" {
		return // the same-minute restart is Gemini CLI's (its session names, internal/acpagents)
	}
	t.Run("restart-same-minute", func(t *testing.T) {
		// Restarted at once (no ageing of Gemini's session files): the
		// agent resumes its session, or refuses to and chipchat hands the
		// thread's history over; either way the model sees the first turn.
		if r.sid == "" {
			t.Fatal("the first turn reported no session id: nothing to resume")
		}
		r.a.Close()
		r.start()
		h := &Handover{History: func() (string, int, int) {
			return "<thread_history>\nuser: Please answer " + acpagents.MarkPing1 + "\nassistant: " + acpagents.ReplyPing1 + "\n</thread_history>", 2, 0
		}}
		ctx, cancel := context.WithTimeout(context.Background(), 150*time.Second)
		defer cancel()
		var evs []Event
		err := r.a.Run(ctx, Turn{ThreadID: "main", Prompt: "Once more " + acpagents.MarkPing3, Dir: r.d.Project, SessionID: r.sid, Handover: h}, func(e Event) {
			evs = append(evs, e)
			if p, ok := e.(Permission); ok {
				p.Reply <- PermissionAnswer{Outcome: "rejected"}
			}
		})
		if err != nil {
			t.Fatalf("turn: %v (events %s)", err, realKinds(evs))
		}
		if !strings.Contains(acpText(evs), acpagents.ReplyPing3) {
			t.Fatalf("reply %q", acpText(evs))
		}
		handed := false
		for _, n := range acpOf[Notice](evs) {
			handed = handed || strings.Contains(n.Text, "could not resume")
		}
		t.Logf("resumed: %v, history handed over: %v", len(acpOf[SessionStarted](evs)) == 0, handed)
		if !r.anyWith("Once more "+acpagents.MarkPing3, acpagents.ReplyPing1) {
			t.Errorf("the model request after a same-minute restart lacks the first turn's text")
		}
	})
}

func (r *realACP) start() {
	a, err := NewACP(r.command, ACPOptions{Dir: r.d.Project})
	if err != nil {
		r.t.Fatal(err)
	}
	r.t.Cleanup(func() { a.Close() })
	r.a = a
}

// turn runs one turn of the thread "main" and fails t on an error.
func (r *realACP) turn(t *testing.T, sessionID, prompt string, atts ...Attachment) []Event {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 150*time.Second)
	defer cancel()
	// A turn must end with its context; if it does not, say where it hangs.
	watchdog := time.AfterFunc(170*time.Second, func() {
		buf := make([]byte, 1<<20)
		t.Errorf("turn %q still running 20s after its deadline:\n%s", prompt, buf[:runtime.Stack(buf, true)])
	})
	defer watchdog.Stop()
	var evs []Event
	err := r.a.Run(ctx, Turn{ThreadID: "main", Prompt: prompt, Dir: r.d.Project, SessionID: sessionID, Attachments: atts}, func(e Event) {
		evs = append(evs, e)
		switch e := e.(type) {
		case Permission:
			r.perms = append(r.perms, e)
			e.Reply <- r.permission(e)
		case SignIn:
			e.Reply <- Answer{}
		case Modes:
			if e.Available != nil {
				r.modes = e
			} else {
				r.modes.Current = e.Current
			}
		case ConfigOptions:
			r.options = e.Options
		case Commands:
			r.commands = e.Commands
		}
	})
	if err != nil {
		var ae *Error
		tail := ""
		if errors.As(err, &ae) {
			tail = ae.StderrTail
		}
		t.Fatalf("turn %q: %v\nstderr: %s\nevents: %s", prompt, err, tail, realKinds(evs))
	}
	return evs
}

// editPermission is the last permission asked for an edit of notes.txt.
func (r *realACP) editPermission() *Permission {
	for i := len(r.perms) - 1; i >= 0; i-- {
		p := r.perms[i]
		b, _ := json.Marshal(p.Tool)
		if strings.Contains(string(b), "notes.txt") && (p.Tool.Kind == "edit" || strings.Contains(string(b), `"diff"`)) {
			return &r.perms[i]
		}
	}
	return nil
}

// anyWith reports whether one of the model requests whose last user text
// has mark also carries want. (Agents make side requests that quote the
// prompt alone, such as Claude's title request, in any order.)
func (r *realACP) anyWith(mark, want string) bool {
	for _, ex := range r.srv.Exchanges() {
		if strings.Contains(ex.LastUserText(), mark) && strings.Contains(string(ex.Raw), want) {
			return true
		}
	}
	return false
}

func pickKind(kinds ...string) func(Permission) PermissionAnswer {
	return func(p Permission) PermissionAnswer {
		for _, k := range kinds {
			for _, o := range p.Request.Options {
				if o.Kind == k {
					return PermissionAnswer{OptionID: o.ID, Outcome: "selected"}
				}
			}
		}
		return PermissionAnswer{Outcome: "rejected"}
	}
}

// realToolText is everything the tool items of evs say.
func realToolText(evs []Event) string {
	var b strings.Builder
	for _, e := range evs {
		switch e := e.(type) {
		case ToolCall:
			j, _ := json.Marshal(e.Tool)
			b.Write(j)
		case ToolUpdate:
			j, _ := json.Marshal(e)
			b.Write(j)
		}
	}
	return b.String()
}

func realKinds(evs []Event) string {
	var out []string
	for _, e := range evs {
		k := typeName(e)
		if n := len(out); n > 0 && out[n-1] == k {
			continue
		}
		out = append(out, k)
	}
	return strings.Join(out, " ")
}

func typeName(e Event) string {
	switch e := e.(type) {
	case TextDelta:
		return "text"
	case ThoughtDelta:
		return "thought"
	case ToolCall:
		return "tool"
	case ToolUpdate:
		return "update"
	case Plan:
		return "plan"
	case Permission:
		return "permission"
	case Notice:
		return "notice(" + e.Text + ")"
	}
	return "other"
}

// realFiles lists the regular files under root, relative.
func realFiles(root string) map[string]bool {
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

// TestACPRealAgentSignIn: Codex without a key or a login asks to sign in;
// its "Login with ChatGPT" waits for a browser, which the notice says, and
// cancelling the turn (esc) stops it.
func TestACPRealAgentSignIn(t *testing.T) {
	ag, err := acpagents.Find("codex")
	if err != nil {
		t.Fatal(err)
	}
	acpagents.Need(t, ag)
	d, err := acpagents.NewDirs(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	// The default OpenAI provider and no key: Codex needs a sign-in.
	if err := os.MkdirAll(d.Home+"/.codex", 0o755); err != nil {
		t.Fatal(err)
	}
	command := "exec env -i"
	for _, kv := range d.Env([]string{"CODEX_HOME=" + d.Home + "/.codex"}) {
		command += " " + acpShellQuote(kv)
	}
	command += " codex-acp"
	a, err := NewACP(command, ACPOptions{Dir: d.Project})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	turnCtx, stop := context.WithCancel(ctx)
	var q Question
	var notice string
	start := time.Now()
	err = a.Run(turnCtx, Turn{ThreadID: "x", Prompt: "hi", Dir: d.Project}, func(e Event) {
		switch e := e.(type) {
		case SignIn:
			q = e.Question
			e.Reply <- Answer{OptionID: "chatgpt"}
		case Notice:
			notice = e.Text
			if strings.Contains(e.Text, "esc") {
				stop() // the user presses esc while it waits
			}
		}
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Run = %v, want context.Canceled after esc", err)
	}
	if d := time.Since(start); d > 30*time.Second {
		t.Errorf("stopping took %v", d)
	}
	kinds := map[string]string{}
	for _, o := range q.Options {
		kinds[o.ID] = o.Kind
		if o.Kind == AuthEnvVar && len(o.EnvVars) == 0 {
			t.Errorf("env-var method %s names no variable", o.ID)
		}
	}
	if kinds["chatgpt"] != AuthAgent || kinds["openai-api-key"] != AuthEnvVar {
		t.Errorf("methods = %+v", q.Options)
	}
	if !strings.Contains(q.Detail, "OPENAI_API_KEY") {
		t.Errorf("detail %q does not say which variable to set", q.Detail)
	}
	if !strings.Contains(notice, "browser") {
		t.Errorf("notice %q", notice)
	}
}
