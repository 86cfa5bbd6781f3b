package transcript

import (
	"strings"
	"testing"
)

// Issue 25 item 3: after k moved the view up, ToEnd (what a send calls)
// brings the end back and follows what comes next.
func TestToEndShowsTheEndAgain(t *testing.T) {
	m := newTest(40, 8)
	m.SetMessages(manyMessages(20))
	m.View()
	m.Focus()
	press(m, "k", "k", "k")
	m.Blur()
	m.Append(userMsg("sent", "the message just sent"))
	if strings.Contains(plain(m), "the message just sent") {
		t.Fatal("the scrolled-up view already shows the new message: the test shows nothing")
	}
	m.ToEnd()
	if v := plain(m); !strings.Contains(v, "the message just sent") || !m.AtBottom() {
		t.Fatalf("after ToEnd the message sent is not on screen:\n%s", v)
	}
	m.Append(agentMsg("reply", "and its reply"))
	if v := plain(m); !strings.Contains(v, "and its reply") {
		t.Fatalf("ToEnd does not follow what comes next:\n%s", v)
	}
}
