package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/chipchat/chipchat/message"
	"github.com/chipchat/chipchat/store"
)

// The rewind (issue 26 item 4): e on the second of three user messages
// opens the fork "<title> (from message 2)" with that message in the
// composer; the edited text sent there is stored in the fork after turn 1,
// and the original keeps its three turns.
func TestEndToEndRewindFromTheSecondMessage(t *testing.T) {
	root := t.TempDir()
	proj, home, data := filepath.Join(root, "proj"), filepath.Join(root, "home"), filepath.Join(root, "data")
	writeFile(t, filepath.Join(proj, "README"), "x\n")
	a := startChipchat(t, proj, home, data, "")
	for _, w := range []string{"alpha", "bravo", "charlie"} {
		turn(a.tmuxSession, w)
	}
	focusMessage(t, a.tmuxSession, "alpha", "bravo")
	a.keys("e")
	a.waitFor("(from message 2)", "edit the message and send it")
	a.text(" edited")
	a.keys("Enter")
	a.waitFor("bravo edited")
	a.waitUntil("the fork's turn to end", func(scr string) bool {
		return !strings.Contains(scr, "esc cancel turn") && strings.Contains(scr, "enter send")
	})

	st, err := store.OpenReadOnly(data)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	p, err := st.Project(store.ProjectKey(proj))
	if err != nil {
		t.Fatal(err)
	}
	ts, err := st.Threads(p.ID)
	if err != nil || len(ts) != 2 {
		t.Fatalf("threads %+v %v", ts, err)
	}
	users := map[string][]string{}
	for _, th := range ts {
		ms, err := st.Messages(th.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range ms {
			if m.Role == message.RoleUser {
				users[th.Title] = append(users[th.Title], m.Text)
			}
		}
		if strings.HasSuffix(th.Title, " (from message 2)") && (len(ms) != 4 || ms[3].Status != message.StatusDone) {
			t.Errorf("the fork holds %d messages, the last %s", len(ms), ms[len(ms)-1].Status)
		}
	}
	var fork, orig []string
	for title, us := range users {
		if strings.HasSuffix(title, " (from message 2)") {
			fork = us
		} else {
			orig = us
		}
	}
	if strings.Join(fork, "|") != "alpha|bravo edited" || strings.Join(orig, "|") != "alpha|bravo|charlie" {
		t.Fatalf("the fork's messages %q, the original's %q (titles %+v)", fork, orig, ts)
	}
}

// The rewind after a restart: chipchat quits and starts again on the
// thread; e on message 2 with a draft in the composer puts the draft in
// the stash; esc leaves the edit (the fork deleted, the draft back); a
// second rewind, edited and sent, forks the thread with turn 1 and the
// edited message, and the draft it stashed is in the stash.
func TestEndToEndRewindAfterARestart(t *testing.T) {
	root := t.TempDir()
	proj, home, data := filepath.Join(root, "proj"), filepath.Join(root, "home"), filepath.Join(root, "data")
	writeFile(t, filepath.Join(proj, "README"), "x\n")
	a := startChipchat(t, proj, home, data, "")
	for _, w := range []string{"alpha", "bravo"} {
		turn(a.tmuxSession, w)
	}
	a.keys("C-q")
	a.waitFor("EXITED=0")
	a.run("respawn-pane", "-k", "-t", a.name, a.command)
	a.waitFor("enter send", "bravo")

	rewind := func() {
		focusMessage(t, a.tmuxSession, "alpha", "bravo")
		a.keys("e")
		a.waitFor("(from message 2)")
	}
	a.text("my draft")
	rewind()
	a.waitFor("your draft is in the stash")
	a.keys("Escape")
	scr := a.waitFor("left the edit", "my draft")
	if head, _, _ := strings.Cut(scr, "\n"); strings.Contains(head, "(from message 2)") {
		t.Fatalf("esc left the fork open:\n%s", scr)
	}
	rewind()
	a.text(" edited")
	a.keys("Enter")
	a.waitFor("bravo edited")
	a.waitUntil("the fork's turn to end", func(scr string) bool {
		return !strings.Contains(scr, "esc cancel turn") && strings.Contains(scr, "enter send")
	})

	st, err := store.OpenReadOnly(data)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	p, err := st.Project(store.ProjectKey(proj))
	if err != nil {
		t.Fatal(err)
	}
	ts, err := st.Threads(p.ID)
	if err != nil || len(ts) != 2 {
		t.Fatalf("threads %+v %v (the fork left with esc deleted, the sent one kept)", ts, err)
	}
	for _, th := range ts {
		ms, err := st.Messages(th.ID)
		if err != nil {
			t.Fatal(err)
		}
		var users []string
		for _, m := range ms {
			if m.Role == message.RoleUser {
				users = append(users, m.Text)
			}
		}
		want := "alpha|bravo"
		if strings.HasSuffix(th.Title, " (from message 2)") {
			want = "alpha|bravo edited"
		}
		if got := strings.Join(users, "|"); got != want {
			t.Errorf("%q holds %q, want %q", th.Title, got, want)
		}
	}
	es, err := st.Stash(p.ID)
	if err != nil || len(es) != 1 || es[0].Markdown != "my draft" {
		t.Errorf("stash %+v %v: want the draft the second rewind stashed", es, err)
	}
}

// focusMessage focuses the transcript (tab), goes to its first message
// (home, whose text is first) and steps down, one key at a time, each
// once the screen showed the last, until the focus bar is on the message
// whose text is want.
func focusMessage(t *testing.T, s *tmuxSession, first, want string) {
	t.Helper()
	s.keys("Tab")
	s.waitUntil("the transcript focused", func(scr string) bool { return strings.Contains(scr, "┃ ") })
	s.keys("Home")
	scr := s.waitFor("┃ " + first)
	for i := 0; !strings.Contains(scr, "┃ "+want); i++ {
		if i == 8 {
			t.Fatalf("the focus never reached %q:\n%s", want, scr)
		}
		before := scr
		s.keys("Down")
		scr = s.waitUntil("the focus to move", func(scr string) bool { return scr != before })
	}
}
