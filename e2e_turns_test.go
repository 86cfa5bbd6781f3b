package main

import (
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chipchat/chipchat/message"
	"github.com/chipchat/chipchat/store"
)

// Issue 10 end to end: a slow exec: turn, a second message queued behind
// it, chipchat killed with SIGKILL mid-turn; after the restart the first
// reply shows interrupted with its partial text, the queued message is
// still there (paused), alt+r asks again, and once that turn is done the
// queued message is sent.
func TestEndToEndKillMidTurnQueueAndRetry(t *testing.T) {
	p := newExecProject(t, countTurns+`case $n in
1) echo "partial answer from turn one"; sleep 60 ;;
2) echo "the retried answer" ;;
*) echo "answer number $n" ;;
esac
`)
	a := p.start(t)
	a.text("first question")
	a.keys("Enter")
	a.waitFor("partial answer from turn one", "replying")
	a.text("second question")
	a.keys("Enter")
	a.waitFor("queued (1)", "second question")
	// The partial text is on disk within 300 ms of arriving: wait for it
	// there (a reader beside the live process), then kill.
	waitStored(t, p.data, "partial answer from turn one")
	if err := syscall.Kill(a.pid(), syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	a.waitFor("EXITED=137")

	b := p.start(t)
	b.waitFor("partial answer from turn one", "interrupted", "queued (1), paused", "alt+r asks again")
	b.keys("M-r")
	b.waitFor("the retried answer")
	// The turn ended done: the queued message goes next, by itself.
	b.waitFor("answer number 3")
	scr := b.waitFor("second question")
	if strings.Contains(scr, "queued (") {
		t.Errorf("the queue is still shown after it was sent:\n%s", scr)
	}
}

// waitStored polls the store, opened read-only beside the running chipchat,
// until some reply holds text.
func waitStored(t *testing.T, data, text string) {
	t.Helper()
	st, err := store.OpenReadOnly(data)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	deadline := time.Now().Add(10 * time.Second)
	for {
		p, _ := st.Threads(1)
		for _, th := range p {
			msgs, _ := st.MessagesRaw(th.ID)
			for _, m := range msgs {
				if strings.Contains(message.ReplyText(m.Items), text) {
					return
				}
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("%q never reached the store", text)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
