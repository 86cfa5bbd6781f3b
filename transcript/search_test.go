package transcript

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/chipchat/chipchat/contextref"
	"github.com/chipchat/chipchat/message"
)

// searchThread is a thread with "needle" in a user message, a reply's
// text, a folded tool call's output and a thought.
func searchThread() []Message {
	tool := message.Item{Kind: message.ItemTool, Tool: &message.Tool{CallID: "c1", Kind: "execute", Title: "Run go test", Status: message.ToolCompleted,
		Content: []message.ToolContent{{Type: message.ContentText, Text: strings.Repeat("ok line\n", 8) + "found the NEEDLE in the output\n"}}}}
	reply := Message{ID: "a2", Role: message.RoleAssistant, Status: message.StatusDone, Items: []message.Item{
		{Kind: message.ItemThought, Text: "first I think about the needle"},
		tool,
		{Kind: message.ItemText, Text: "Done: a needle and another needle."},
	}}
	msgs := []Message{userMsg("u1", "where is the needle?")}
	for i := range 30 {
		msgs = append(msgs, agentMsg(fmt.Sprint("f", i), fmt.Sprintf("filler reply %d with nothing to find", i)))
	}
	return append(msgs, reply, userMsg("u3", "thanks"))
}

// search runs a search to its end, as the app would.
func search(t *testing.T, m *Model, q string) {
	t.Helper()
	cmd := m.Search(q)
	if cmd == nil {
		t.Fatalf("Search(%q) returned no command", q)
	}
	m.Update(cmd())
}

func TestSearchStepsThroughEveryMatch(t *testing.T) {
	m := newTest(60, 12)
	m.SetMessages(searchThread())
	m.Focus()
	search(t, m, "Needle")
	q, at, total, pending := m.SearchStatus()
	if q != "Needle" || at != 1 || total != 5 || pending {
		t.Fatalf("status %q %d of %d pending %v, want Needle 1 of 5", q, at, total, pending)
	}
	if i, _ := m.Selected(); i != 0 {
		t.Fatalf("first match focuses message %d, want 0", i)
	}
	want := []struct{ msg, item int }{{31, 0}, {31, 1}, {31, 2}, {31, 2}, {0, -1}}
	for k, w := range want {
		press(m, "n")
		i, it := m.SelectedItem()
		if i != w.msg || it != w.item {
			t.Fatalf("n #%d focuses %d/%d, want %d/%d", k+1, i, it, w.msg, w.item)
		}
	}
	if _, at, _, _ := m.SearchStatus(); at != 1 {
		t.Fatalf("after wrapping the match is %d, want 1", at)
	}
	press(m, "N") // back to the last: the reply's text
	if i, it := m.SelectedItem(); i != 31 || it != 2 {
		t.Fatalf("N from the first focuses %d/%d, want 31/2", i, it)
	}
	press(m, "N", "N") // the folded tool call: it unfolds, the output's line is on screen
	if i, it := m.SelectedItem(); i != 31 || it != 1 {
		t.Fatalf("focus %d/%d, want the tool call 31/1", i, it)
	}
	v := checkFrame(t, m)
	if !strings.Contains(v, hitOn+"NEEDLE"+hitOff) {
		t.Fatalf("the tool's output is not shown with its match highlighted:\n%s", dump(m))
	}
	if m.ClearSearch(); strings.Contains(m.View(), hitOn) {
		t.Fatal("a cleared search is still highlighted")
	}
	if m.ClearSearch() {
		t.Fatal("ClearSearch with no search reports one")
	}
}

func TestSearchChipsMatchByLabel(t *testing.T) {
	f := fileRec("f1", "report.md")
	m := newTest(60, 10)
	m.SetMessages([]Message{userMsg("u1", "read "+contextref.LinkFor(f)+" please", f)})
	m.Focus()
	search(t, m, "t3-context")
	if _, _, total, _ := m.SearchStatus(); total != 0 {
		t.Fatalf("the link's address matched %d times", total)
	}
	search(t, m, "REPORT")
	if _, _, total, _ := m.SearchStatus(); total != 1 {
		t.Fatalf("the chip's label matched %d times, want 1", total)
	}
}

func TestSearchKeepsOnlyTheLatest(t *testing.T) {
	m := newTest(60, 10)
	m.SetMessages(searchThread())
	m.Focus()
	old := m.Search("thanks")
	cur := m.Search("filler")
	m.Update(old())
	if _, _, total, pending := m.SearchStatus(); total != 0 || !pending {
		t.Fatalf("a stale search's matches were taken: %d, pending %v", total, pending)
	}
	m.Update(cur())
	if _, _, total, _ := m.SearchStatus(); total != 30 {
		t.Fatalf("filler: %d matches, want 30", total)
	}
	m.SetMessages(searchThread()[:3])
	if q, _, total, _ := m.SearchStatus(); q != "" || total != 0 {
		t.Fatal("another thread kept the search")
	}
	if m.Search("  ") != nil {
		t.Fatal("a blank query searches")
	}
}

func TestSearchKeyAsksForTheField(t *testing.T) {
	m := newTest(60, 10)
	m.SetMessages(searchThread())
	m.Focus()
	search(t, m, "needle")
	out := press(m, "/")
	if len(out) != 1 || out[0] != (SearchAskMsg{Query: "needle"}) {
		t.Fatalf("/ produced %#v, want SearchAskMsg with the kept query", out)
	}
}

// A reply item changed while a search reads the thread does not change
// what the search reads (the race detector checks the copy).
func TestSearchReadsASnapshot(t *testing.T) {
	m := newTest(60, 10)
	msgs := searchThread()
	m.SetMessages(msgs)
	m.View()
	cmd := m.Search("needle")
	done := make(chan tea.Msg)
	go func() { done <- cmd() }()
	m.SetItem("a2", 2, message.Item{Kind: message.ItemText, Text: "nothing now"})
	m.Update(<-done)
	if _, _, total, _ := m.SearchStatus(); total != 5 {
		t.Fatalf("%d matches, want the 5 of the thread as it was", total)
	}
}
