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
	a.keys("Tab", "Home", "Down", "Down") // the first message, its reply, the second message
	a.waitFor("┃ bravo")                  // the focus bar
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
