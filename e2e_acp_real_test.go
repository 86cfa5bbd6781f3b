package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chipchat/chipchat/internal/acpagents"
	"github.com/chipchat/chipchat/internal/fakemodel"
	"github.com/chipchat/chipchat/message"
	"github.com/chipchat/chipchat/store"
)

// TestEndToEndRealAgentsUI drives the chipchat binary in tmux, as a user
// would, against the four real ACP agents of internal/acpagents (installed
// from npm by .ci/run), each talking to a fake model server on 127.0.0.1.
// It runs only with CHIPCHAT_REAL_AGENTS=1; an agent that is not installed
// is skipped by name. The agent-level suite (agent/acp_real_test.go) checks
// the protocol; this one checks what the screen shows and what the keys do.
//
// Scenarios, in order, in one thread per agent:
//
//	scenario                          claude  codex  gemini  opencode
//	two turns with history            yes     yes    yes     yes
//	usage in the header ("ctx 11% ·   yes     -      -       -     (Claude's usage_update)
//	  $0.14")
//	edit: its diff on screen during   yes     yes    yes     yes
//	  the permission prompt
//	enter allows once (the edit is    yes     yes    yes     yes
//	  made, no new file in the
//	  project: no permanent rule)
//	seq 101 112: its output in the    yes     yes    -       yes   (Gemini CLI sends no output)
//	  folded item and its details
//	agent slash command from `/`      yes     yes    yes     yes   (/context, /init, /about, /init)
//	the agent's own /review typed     -       yes    -       yes   (its review prompt reaches the model)
//	mode switch with alt+m            yes     yes    yes     yes   (modes; opencode: its "mode" option)
//	restart, resume, no replayed      yes     yes    yes     yes
//	  text in the new reply
//	chipchat mcp in the session       yes     -      -       -     (Claude's /context lists its tools)
func TestEndToEndRealAgentsUI(t *testing.T) {
	acpagents.Gate(t)
	bin := chipchatBinary(t)
	acpagents.Each(t, func(t *testing.T, ag acpagents.Agent) { runRealAgentUI(t, bin, ag) })
}

// shellQuote quotes s for sh.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_=/.,:@") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// as is s reporting to t (a subtest).
func (s *tmuxSession) as(t *testing.T) *tmuxSession {
	return &tmuxSession{t: t, socket: s.socket, name: s.name}
}

// waitWithin polls the screen until every want is on it, for at most d.
func (s *tmuxSession) waitWithin(d time.Duration, want ...string) string {
	s.t.Helper()
	deadline := time.Now().Add(d)
	for {
		scr := s.screen()
		ok := true
		for _, w := range want {
			ok = ok && strings.Contains(scr, w)
		}
		if ok {
			return scr
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("the screen never showed %q:\n%s", want, scr)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// waitIdle polls until the header shows no running turn.
func (s *tmuxSession) waitIdle(d time.Duration) string {
	s.t.Helper()
	deadline := time.Now().Add(d)
	for {
		scr := s.screen()
		head, _, _ := strings.Cut(scr, "\n")
		if !strings.Contains(head, "replying") && !strings.Contains(head, "starting") && !strings.Contains(head, "sending") && !strings.Contains(head, "stopping") {
			return scr
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("the turn never ended:\n%s", scr)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// projectFiles lists the regular files under root, relative.
func projectFiles(root string) map[string]bool {
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

var (
	headerMode  = regexp.MustCompile(`· mode ([^·\n]+)`)
	headerUsage = regexp.MustCompile(`ctx (<1|\d+)% · \$\d+\.\d\d`)
	modeRow     = regexp.MustCompile(`(?i)\bmode\b`) // a mode's row ("mode Plan", "Session Mode: plan"), not a model's
	// the prompt's highlighted option, an allow once: its kind shown
	// ("> 2. Allow  (allow once)") or said by its name ("> 1. Allow once")
	highlighted = regexp.MustCompile(`(?mi)^\s*> \d\. .*allow once`)
)

func runRealAgentUI(t *testing.T, bin string, ag acpagents.Agent) {
	d, err := acpagents.NewDirs(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	files := acpagents.DefaultFiles(d.Project)
	if err := acpagents.WriteFile(files.Notes, files.OldLine+"\n"); err != nil {
		t.Fatal(err)
	}
	if err := acpagents.WriteFile(filepath.Join(d.Project, "README.md"), "# test project\n"); err != nil {
		t.Fatal(err)
	}
	srv := fakemodel.New(ag.Provider, acpagents.Responder(ag, files))
	t.Cleanup(srv.Close)
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("model requests:\n%s", srv.Summary())
		}
	})
	extra, err := ag.Setup(d, srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	agentCmd := "exec env -i"
	for _, kv := range d.Env(extra) {
		agentCmd += " " + shellQuote(kv)
	}
	for _, arg := range ag.Argv {
		agentCmd += " " + shellQuote(arg)
	}
	ui := filepath.Join(d.Root, "ui") // chipchat's own home, apart from the agent's
	data := filepath.Join(ui, "data")
	second := filepath.Join(d.Root, "second-run")
	run := func() string {
		return shellQuote(bin) + " --data-dir " + shellQuote(data) + " --agent " + shellQuote("acp:"+agentCmd)
	}
	command := "cd " + shellQuote(d.Project) + " && export HOME=" + shellQuote(ui) + " XDG_CONFIG_HOME=" + shellQuote(ui+"/config") +
		" XDG_RUNTIME_DIR=" + shellQuote(ui+"/run") + " XDG_STATE_HOME=" + shellQuote(ui+"/state") + " TERM=xterm-256color; mkdir -p \"$XDG_RUNTIME_DIR\"; " +
		run() + "; echo EXITED1=$?; while [ ! -e " + shellQuote(second) + " ]; do sleep 0.1; done; " + run() + "; echo EXITED2=$?; sleep 600"
	s := startTmuxSize(t, command, 140, 50)
	const turn = 3 * time.Minute
	s.waitWithin(time.Minute, "agent acp:", "enter send")

	// Two turns with history.
	s.text("Please answer " + acpagents.MarkPing1)
	s.keys("Enter")
	s.waitWithin(turn, acpagents.ReplyPing1)
	s.waitIdle(turn)
	s.text("And now " + acpagents.MarkPing2)
	s.keys("Enter")
	s.waitWithin(turn, acpagents.ReplyPing2)
	s.waitIdle(turn)
	if ag.Name == "claude" {
		// Claude's usage_update (context used and size, the session's
		// cost) is drawn in the header: "ctx 42% · $0.12".
		deadline, head := time.Now().Add(30*time.Second), ""
		for ; !headerUsage.MatchString(head); time.Sleep(100 * time.Millisecond) {
			if head, _, _ = strings.Cut(s.screen(), "\n"); time.Now().After(deadline) {
				t.Fatalf("the header never showed Claude's usage (ctx N%% · $cost): %q", head)
			}
		}
		t.Logf("Claude's usage in the header: %q", headerUsage.FindString(head))
	}

	top := s
	t.Run("edit-diff-allow-once", func(t *testing.T) {
		s := top.as(t)
		before := projectFiles(d.Project)
		s.text("Edit notes.txt: " + acpagents.MarkEditAllow)
		s.keys("Enter")
		scr := s.waitWithin(turn, "The agent asks", "the agent waits")
		if !strings.Contains(scr, files.AllowLine) || !strings.Contains(scr, files.OldLine) {
			t.Errorf("the edit's diff is not on screen during the prompt:\n%s", scr)
		}
		if !highlighted.MatchString(scr) {
			t.Errorf("the highlighted option is not the allow-once one:\n%s", scr)
		}
		s.keys("Enter")
		deadline := time.Now().Add(turn)
		for {
			b, _ := os.ReadFile(files.Notes)
			if strings.Contains(string(b), files.AllowLine) {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("notes.txt never got the allowed edit: %q\n%s", b, s.screen())
			}
			time.Sleep(100 * time.Millisecond)
		}
		s.waitIdle(turn)
		for f := range projectFiles(d.Project) {
			if !before[f] {
				t.Errorf("allowing once left a new file in the project (a permanent rule?): %s", f)
			}
		}
	})

	// Issue 22: a command's output is the body of its item on screen, in
	// the folded item and in its details (enter), not the permission's
	// text. Gemini CLI sends no output: no subtest (CI allows no skip).
	seqOnScreen := func(t *testing.T) {
		s := top.as(t)
		s.waitIdle(turn)
		s.text("Run the numbers: " + acpagents.MarkSeq)
		s.keys("Enter")
		done := acpagents.MarkSeq + acpagents.ReplyDone
		asked := false
		// Codex and opencode ask first; Claude Code runs seq unasked.
		for deadline := time.Now().Add(turn); ; time.Sleep(100 * time.Millisecond) {
			scr := s.screen()
			// "the agent waits": the prompt's keys work (its guard is over).
			if strings.Contains(scr, "The agent asks") && strings.Contains(scr, "the agent waits") {
				if !strings.Contains(scr, files.SeqCommand) {
					t.Errorf("the prompt does not show the command %q:\n%s", files.SeqCommand, scr)
				}
				asked = true
				s.keys("Enter")
				break
			}
			if strings.Contains(scr, done) || time.Now().After(deadline) {
				break
			}
		}
		s.waitWithin(turn, done)
		scr := s.waitIdle(turn)
		rows := strings.Split(scr, "\n")
		head := -1
		for i, r := range rows {
			if strings.Contains(r, "$ "+files.SeqCommand) && strings.Contains(r, "done") {
				head = i
			}
		}
		if head < 0 {
			t.Fatalf("no settled item for %q on screen:\n%s", files.SeqCommand, scr)
		}
		// Folded: the item's first rows of output follow its header (after
		// the permission's answer and the command line), then "+N lines".
		next, more := 0, false
		for _, r := range rows[head+1 : min(head+12, len(rows))] {
			r = strings.TrimSpace(r)
			if next < len(files.SeqOut) && r == files.SeqOut[next] {
				next++
			}
			more = more || strings.HasPrefix(r, "+") && strings.HasSuffix(r, " lines")
		}
		if next < 4 || !more {
			t.Errorf("the folded item shows %d of the output's first lines in order (want 4 or more, then \"+N lines\"):\n%s", next, scr)
		}
		for _, p := range []string{"Proposed Amendment", "outside the sandbox"} {
			if strings.Contains(scr, p) {
				t.Errorf("the permission's text %q is on screen after the answer:\n%s", p, scr)
			}
		}
		// The details: every line of the output, in order. Tab selects a
		// message above the item; down goes on item by item.
		s.keys("Tab")
		s.waitWithin(10*time.Second, "enter details")
		selected := func(scr string) string {
			var out []string
			for _, l := range strings.Split(scr, "\n") {
				if strings.HasPrefix(l, "┃") {
					out = append(out, l)
				}
			}
			return strings.Join(out, "\n")
		}
		for i := 0; !strings.Contains(selected(s.screen()), "$ "+files.SeqCommand); i++ {
			if i == 30 {
				t.Fatalf("the item of %q is never selected:\n%s", files.SeqCommand, s.screen())
			}
			was := selected(s.screen())
			s.keys("Down")
			s.waitUntil("the selection to move", func(scr string) bool { return selected(scr) != was })
		}
		s.keys("Enter")
		var box []string
		seen := map[string]bool{}
		collect := func(scr string) {
			in := false
			for _, l := range strings.Split(scr, "\n") {
				switch {
				case strings.HasPrefix(l, "╭─ Details"):
					in = true
				case strings.HasPrefix(l, "╰"):
					in = false
				case in:
					r := strings.TrimSpace(strings.Trim(strings.TrimSpace(l), "│"))
					if !seen[r] || r == "" {
						box = append(box, r)
						seen[r] = true
					}
				}
			}
		}
		scr = s.waitWithin(10*time.Second, "╭─ Details")
		collect(scr)
		if !seen[files.SeqOut[len(files.SeqOut)-1]] {
			// a long item scrolls: its next page
			was := scr
			s.keys("PgDn")
			collect(s.waitUntil("the details to scroll", func(scr string) bool { return scr != was }))
		}
		next = 0
		for _, r := range box {
			if next < len(files.SeqOut) && r == files.SeqOut[next] {
				next++
			}
			for _, p := range []string{"Proposed Amendment", "outside the sandbox"} {
				if strings.Contains(r, p) {
					t.Errorf("the details show the permission's text %q", r)
				}
			}
		}
		if next != len(files.SeqOut) {
			t.Errorf("the details show %d of the %d output lines in order:\n%s", next, len(files.SeqOut), strings.Join(box, "\n"))
		}
		t.Logf("%s: asked %v; the folded item shows %q's first lines, the details all %d", ag.Name, asked, files.SeqCommand, len(files.SeqOut))
		s.keys("Escape")
		s.waitUntil("the details to close", func(scr string) bool { return !strings.Contains(scr, "╭─ Details") })
		s.keys("Tab")
		s.waitWithin(10*time.Second, "enter send")
	}
	if ag.Name != "gemini" {
		t.Run("seq-output-on-screen", seqOnScreen)
	}

	t.Run("slash-command-picked", func(t *testing.T) {
		s := top.as(t)
		s.waitIdle(turn)
		s.text("/" + ag.Slash[:2])
		scr := s.waitWithin(30*time.Second, "─ / command "+ag.Slash[:2]) // the picker's title and query
		if !strings.Contains(scr, "/"+ag.Slash) {
			// Codex tells its commands late: one more turn brings them.
			t.Logf("/%s is not listed yet:\n%s", ag.Slash, scr)
			s.keys("C-c")
			s.text("Please answer " + acpagents.MarkPing1)
			s.keys("Enter")
			s.waitIdle(turn)
			s.text("/" + ag.Slash[:2])
			s.waitWithin(30*time.Second, "─ / command "+ag.Slash[:2], "/"+ag.Slash)
		}
		s.text(ag.Slash[2:])
		s.keys("Enter") // picks: "/<name> " in the draft
		s.waitWithin(10*time.Second, "the agent's command: enter sends it")
		n := len(srv.Exchanges())
		s.keys("Enter")
		s.waitWithin(turn, "Write a message") // sent: the draft is empty
		s.waitIdle(turn)
		scr = s.screen()
		if strings.Contains(scr, "alt+r retries") {
			t.Fatalf("the agent's command failed:\n%s", scr)
		}
		st, err := store.OpenReadOnly(data)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		user, reply := lastTurn(t, st, d.Project)
		if strings.TrimSpace(user) != "/"+ag.Slash {
			t.Errorf("the prompt sent was %q, not /%s", user, ag.Slash)
		}
		if ag.Slash == "context" && !strings.Contains(reply, "mcp__chipchat__") {
			// Claude's /context lists the MCP tools the session has.
			t.Errorf("chipchat mcp's tools are not among the session's:\n%s", reply)
		}
		t.Logf("/%s: %d more model requests", ag.Slash, len(srv.Exchanges())-n)
	})

	// Codex and opencode have their own /review (issue 22 item 5): typed,
	// it is the agent's (chipchat's is /chipchat:review then) and its
	// review prompt reaches the model server. Claude and Gemini have none
	// (no subtest: CI allows no skip).
	reviewTyped := func(t *testing.T) {
		s := top.as(t)
		s.waitIdle(turn)
		s.text("/review")
		scr := s.waitWithin(30*time.Second, "─ / command review")
		if !strings.Contains(scr, "/chipchat:review") {
			t.Errorf("chipchat's /review is not /chipchat:review beside the agent's:\n%s", scr)
		}
		s.keys("Enter") // picks the agent's: "/review " in the draft
		s.waitWithin(10*time.Second, "the agent's command: enter sends it")
		n := len(srv.Exchanges())
		s.keys("Enter")
		s.waitWithin(turn, "Write a message")
		s.waitIdle(turn)
		if scr := s.screen(); strings.Contains(scr, "Agent edit") || strings.Contains(scr, "alt+r retries") {
			t.Fatalf("/review was not the agent's, or failed:\n%s", scr)
		}
		reviewed := false
		for _, x := range srv.Exchanges()[n:] {
			texts := append([]string{x.System}, x.UserTexts()...)
			for _, m := range x.Messages {
				texts = append(texts, m.Text)
			}
			for _, tx := range texts {
				reviewed = reviewed || strings.Contains(tx, ag.Review)
			}
		}
		if !reviewed {
			t.Errorf("no model request after /review carries %s's review prompt %q", ag.Name, ag.Review)
		}
		st, err := store.OpenReadOnly(data)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		if user, _ := lastTurn(t, st, d.Project); strings.TrimSpace(user) != "/review" {
			t.Errorf("the prompt sent was %q, not /review", user)
		}
	}
	if ag.Review != "" {
		t.Run("review-typed", reviewTyped)
	}

	t.Run("mode-switch-alt-m", func(t *testing.T) {
		s := top.as(t)
		s.waitIdle(turn)
		head, _, _ := strings.Cut(s.screen(), "\n")
		m := headerMode.FindStringSubmatch(head)
		if m == nil {
			t.Fatalf("the header shows no mode: %q", head)
		}
		was := strings.TrimSpace(m[1])
		s.keys("M-m")
		scr := s.waitWithin(10*time.Second, "mode · model")
		// Go down to the first mode that is not the current one.
		var rows []string // the picker's rows, in order
		in := false
		for _, l := range strings.Split(scr, "\n") {
			switch {
			case strings.Contains(l, "╭─ mode · model"):
				in = true
			case strings.Contains(l, "╰"):
				in = false
			case in && strings.HasPrefix(strings.TrimSpace(l), "│"):
				rows = append(rows, l)
			}
		}
		down := -1
		for i, r := range rows {
			if modeRow.MatchString(r) && !strings.Contains(r, "●") {
				down = i
				break
			}
		}
		if down < 0 {
			t.Fatalf("no other mode in the picker:\n%s", scr)
		}
		for i := 0; i < down; i++ {
			s.keys("Down")
		}
		s.keys("Enter")
		deadline := time.Now().Add(30 * time.Second)
		for {
			scr := s.screen()
			if strings.Contains(scr, "could not switch") {
				t.Fatalf("the switch failed:\n%s", scr)
			}
			head, _, _ := strings.Cut(scr, "\n")
			if m := headerMode.FindStringSubmatch(head); m != nil && strings.TrimSpace(m[1]) != was {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("the header still shows mode %q:\n%s", was, scr)
			}
			time.Sleep(100 * time.Millisecond)
		}
	})

	t.Run("restart-resume", func(t *testing.T) {
		s := top.as(t)
		s.waitIdle(turn)
		s.keys("C-q")
		s.waitWithin(30*time.Second, "EXITED1=0")
		if ag.BeforeLoad != nil {
			if err := ag.BeforeLoad(d); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.WriteFile(second, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		s.waitWithin(time.Minute, "agent acp:", "Write a message")
		s.text("After the restart " + acpagents.MarkPing3)
		s.keys("Enter")
		s.waitWithin(turn, acpagents.ReplyPing3)
		s.waitIdle(turn)
		st, err := store.OpenReadOnly(data)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		_, reply := lastTurn(t, st, d.Project)
		if !strings.Contains(reply, acpagents.ReplyPing3) {
			t.Fatalf("the new reply %q lacks %q", reply, acpagents.ReplyPing3)
		}
		for _, old := range []string{acpagents.ReplyPing1, acpagents.ReplyPing2, acpagents.ReplyDone} {
			if strings.Contains(reply, old) {
				t.Errorf("replayed text %q in the new reply %q", old, reply)
			}
		}
	})
	s.keys("C-q")
	s.waitWithin(30*time.Second, "EXITED2=0")
}

// lastTurn is the text of the newest user message and of the newest reply
// of the newest thread.
func lastTurn(t *testing.T, st *store.Store, project string) (user, reply string) {
	t.Helper()
	p, err := st.Project(store.ProjectKey(project))
	if err != nil {
		t.Fatal(err)
	}
	ts, err := st.Threads(p.ID)
	if err != nil || len(ts) == 0 {
		t.Fatalf("threads %v %v", ts, err)
	}
	msgs, err := st.Messages(ts[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	for i := len(msgs) - 1; i >= 0 && (user == "" || reply == ""); i-- {
		switch {
		case msgs[i].Role == message.RoleAssistant && reply == "" && user == "":
			reply = message.ReplyText(msgs[i].Items)
		case msgs[i].Role == message.RoleUser && user == "":
			user = msgs[i].Text
		}
	}
	return user, reply
}
