package workspace

import (
	"strings"
	"testing"
	"time"

	"github.com/chipchat/chipchat/message"
	"github.com/chipchat/chipchat/store"
)

// Issue 25 item 9: the delete confirmation names the whole title (a fork
// and its original differ only at its end), the age and the message count.
func TestDeleteQuestionShowsTitleAgeAndCount(t *testing.T) {
	e := newEnv(t, 0)
	w := e.workspace()
	long := "Explain how the parser recovers from a missing brace in nested blocks (fork)"
	th := e.thread(w, long)
	if _, err := e.st.AddMessage(store.Message{ThreadID: th.ID, Role: message.RoleAssistant, Text: "it does", Status: message.StatusDone}); err != nil {
		t.Fatal(err)
	}
	q := w.DeleteQuestion(th.ID, "from the list")()
	if !strings.HasPrefix(q, `Delete the thread "`+long+`", updated `) || !strings.HasSuffix(q, ", 2 messages? (y/n)") {
		t.Fatalf("the question: %q", q)
	}
	if q := w.DeleteQuestion("thr_gone", "from the list")(); q != `Delete the thread "from the list"? (y/n)` {
		t.Errorf("a thread the store cannot read: %q", q)
	}
	now := time.Date(2026, 3, 4, 12, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		t    Thread
		n    int
		want string
	}{
		{Thread{Title: "a  b", Updated: now.Add(-5 * time.Minute)}, 1, `Delete the thread "a b", updated 5 minutes ago, 1 message? (y/n)`},
		{Thread{Updated: now.Add(-25 * time.Hour)}, 0, `Delete the thread "(new thread)", updated 1 day ago, no messages? (y/n)`},
		{Thread{Title: "x", Updated: now.Add(-10 * time.Second)}, 3, `Delete the thread "x", updated just now, 3 messages? (y/n)`},
	} {
		if got := deleteQuestion(c.t, c.n, now); got != c.want {
			t.Errorf("got  %q\nwant %q", got, c.want)
		}
	}
}
