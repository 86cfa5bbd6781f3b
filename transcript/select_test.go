package transcript

import (
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/charmbracelet/x/ansi"

	"github.com/chipchat/chipchat/contextref"
	"github.com/chipchat/chipchat/message"
)

func u16(s string) int { return len(utf16.Encode([]rune(s))) }

func TestReplyWordsNormalize(t *testing.T) {
	items := []*itemView{
		{it: message.Item{Kind: message.ItemText, Text: "  Hello,\n\n  *wörld*  😀 x\t"}},
		{it: message.Item{Kind: message.ItemTool}},
		{it: message.Item{Kind: message.ItemText, Text: "Second\u00a0item."}},
	}
	norm, words := replyWords(items)
	if norm != " Hello, *wörld* 😀 x Second item." {
		t.Fatalf("norm %q", norm)
	}
	for _, w := range words {
		if norm[w.nlo:w.nhi] != items[w.item].it.Text[w.lo:w.hi] {
			t.Fatalf("word %q vs source %q", norm[w.nlo:w.nhi], items[w.item].it.Text[w.lo:w.hi])
		}
		if u16(norm[:w.nlo]) != w.ulo || u16(norm[:w.nhi]) != w.uhi {
			t.Fatalf("utf-16 offsets of %q: %d-%d", norm[w.nlo:w.nhi], w.ulo, w.uhi)
		}
	}
}

func selThread() []Message {
	return []Message{
		userMsg("u", "explain"),
		{ID: "r", Role: message.RoleAssistant, Status: message.StatusDone, Items: []message.Item{
			{ID: "t0", Kind: message.ItemText, Text: "The **handler** returns early. It never retries 😀 at all.\n\nSecond paragraph here."},
			allItems()[3], // the diff
			{ID: "t2", Kind: message.ItemText, Text: "Done."},
		}},
	}
}

func TestSelectionQuote(t *testing.T) {
	m := newTest(80, 30)
	m.SetMessages(selThread())
	focusItem(t, m, 0)
	press(m, "v")
	if !m.SelectionActive() {
		t.Fatal("v did not start a selection")
	}
	if v := plain(m); !strings.Contains(v, "Selection · 1 word") || !strings.Contains(v, selMark) {
		t.Fatalf("selection box:\n%s", dump(m))
	}
	press(m, "w", "w", "w") // The **handler** returns early.
	out := press(m, "q")
	if m.SelectionActive() || len(out) != 1 {
		t.Fatalf("q: %v", out)
	}
	q := out[0].(QuoteMsg)
	norm := "The **handler** returns early. It never retries 😀 at all. Second paragraph here. Done."
	if q.MessageID != "r" || q.Text != "The **handler** returns early." || q.Start != 0 || q.End != u16(q.Text) || q.Prefix != "" ||
		q.Suffix != " It never retries 😀 at all. Sec" || q.WithComment {
		t.Fatalf("quote %+v", q)
	}
	if norm[:len(q.Text)] != q.Text {
		t.Fatal("quote is not the normalized text's")
	}
	// A sentence further on, with a comment: offsets in UTF-16 units (the
	// emoji is two).
	press(m, "v", "j", "w", "o", "j", "j")
	out = press(m, "Q")
	q = out[0].(QuoteMsg)
	start := u16("The **handler** returns early. ")
	if q.Text != "It never retries 😀 at all." || q.Start != start || q.End != start+u16(q.Text) || !q.WithComment ||
		q.Prefix != "The **handler** returns early. " || q.Suffix != " Second paragraph here. Done." {
		t.Fatalf("quote %+v", q)
	}
	// y copies the Markdown source; esc leaves.
	press(m, "v", "w")
	out = press(m, "y")
	if c := out[0].(CopyMsg); c.Markdown != "The **handler**" {
		t.Fatalf("copy %+v", c)
	}
	press(m, "v")
	press(m, "esc")
	if m.SelectionActive() {
		t.Fatal("esc did not leave")
	}
	// The link the app builds from it parses.
	c := &contextref.Citation{Version: 1, EnvironmentID: "env", ThreadID: "th", MessageID: q.MessageID, Text: q.Text,
		Start: int64(q.Start), End: int64(q.End), Prefix: q.Prefix, Suffix: q.Suffix}
	if _, err := contextref.ParseCitationHref(c.Href()); err != nil {
		t.Fatal(err)
	}
}

func TestSelectionDiffComment(t *testing.T) {
	m := newTest(80, 40)
	m.SetMessages(selThread())
	focusItem(t, m, 1)
	press(m, "v")
	if v := plain(m); !m.SelectionActive() || !strings.Contains(v, "Selection · 1 diff line") {
		t.Fatalf("diff selection:\n%s", dump(m))
	}
	press(m, "j")
	out := press(m, "c")
	cm := out[0].(CommentDiffMsg)
	if cm.Path != "main.go" || cm.CallID != "c2" || cm.MessageID != "r" ||
		cm.Diff != "-\tfmt.Println(\"hi\")\n+\tfmt.Println(\"hello, world\")\n" ||
		cm.OldText != "\tfmt.Println(\"hi\")\n" || cm.NewText != "\tfmt.Println(\"hello, world\")\n" ||
		cm.StartLine != 6 || cm.EndLine != 6 || cm.OldStart != 6 || cm.OldEnd != 6 {
		t.Fatalf("comment %+v", cm)
	}
	if m.SelectionActive() {
		t.Fatal("c did not leave the selection")
	}
}

func TestCitationChip(t *testing.T) {
	c := &contextref.Citation{Version: 1, EnvironmentID: "env", ThreadID: "th", MessageID: "r", Text: "the handler returns early",
		Start: 4, End: 29, Prefix: "The ", Suffix: " and"}
	m := newTest(80, 20)
	m.SetMessages([]Message{userMsg("u", "about "+c.Link()+" — why?")})
	v := plain(m)
	if strings.Contains(v, "t3-citation") || !strings.Contains(v, "❝") || !strings.Contains(v, "the handler returns early") {
		t.Fatalf("citation chip:\n%s", v)
	}
	m.Focus()
	press(m, "tab", "enter")
	if v := plain(m); !m.PopoverOpen() || !strings.Contains(v, "quote:") {
		t.Fatalf("citation details:\n%s", dump(m))
	}
	// An invalid link stays text.
	m.SetMessages([]Message{userMsg("u", "[Assistant quote](t3-citation://v1/a/b/c?text=x) plain")})
	if v := ansi.Strip(m.View()); !strings.Contains(v, "[Assistant quote](t3-citation://") {
		t.Fatalf("invalid citation:\n%s", v)
	}
}
