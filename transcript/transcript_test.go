package transcript

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/chipchat/chipchat/chips"
	"github.com/chipchat/chipchat/contextref"
	"github.com/chipchat/chipchat/message"
)

func TestResolveStructured(t *testing.T) {
	rec := fileRec("f1", "a.go")
	ctx := &contextref.MessageContext{Version: 1, Records: []contextref.Record{rec}}
	// Structured context is used as is, even when the text looks legacy.
	text := "see [a.go](t3-context://v1/file/f1)\n\n<terminal_context>\n- T line 1:\n  1 | x\n</terminal_context>"
	got, recs := ResolveUserMessageContext(text, ctx)
	if got != text {
		t.Fatalf("text changed: %q", got)
	}
	if len(recs) != 1 || recs[0] != contextref.Record(rec) {
		t.Fatalf("records = %v", recs)
	}
}

func TestResolveLegacy(t *testing.T) {
	text := "Why does this fail?\n\n<terminal_context>\n- Terminal 1 lines 12-13:\n  12 | $ go test\n  13 | FAIL\n</terminal_context>"
	got, recs := ResolveUserMessageContext(text, nil)
	if len(recs) != 1 {
		t.Fatalf("want one record, got %d (%q)", len(recs), got)
	}
	tr, ok := recs[0].(*contextref.TerminalRecord)
	if !ok {
		t.Fatalf("record is %T", recs[0])
	}
	if tr.ContextID != "legacy_terminal_1" || tr.Text != "$ go test\nFAIL" || tr.LineStart != 12 || tr.LineEnd != 13 {
		t.Fatalf("record = %+v", tr)
	}
	if strings.Contains(got, "<terminal_context>") || !strings.Contains(got, "t3-context://v1/terminal/legacy_terminal_1") {
		t.Fatalf("text not upgraded: %q", got)
	}
	// No legacy block: unchanged, no records.
	if got, recs := ResolveUserMessageContext("plain", nil); got != "plain" || recs != nil {
		t.Fatalf("plain text: %q %v", got, recs)
	}

	// The transcript draws the upgraded chip, and copies the upgraded text.
	m := newTest(60, 10)
	m.SetMessages([]Message{{ID: "u", Role: message.RoleUser, Text: text}})
	v := plain(m)
	if !strings.Contains(v, "Why does this fail?") || strings.Contains(v, "terminal_context") || !strings.Contains(v, "Terminal 1") {
		t.Fatalf("legacy message view:\n%s", v)
	}
	m.Focus()
	msgs := press(m, "y")
	cm := msgs[0].(CopyMsg)
	if cm.MessageID != "u" || cm.Markdown != got || len(cm.Records) != 1 {
		t.Fatalf("copy = %+v", cm)
	}
}

func TestUserMessageChips(t *testing.T) {
	m := newTest(80, 8)
	m.SetMessages([]Message{userMsg("u1",
		"Look at [main.go](t3-context://v1/file/f1), [$go](t3-context://v1/skill/s1), [gone.txt](t3-context://v1/file/nope) and [later](t3-context://v1/future/x1).",
		fileRec("f1", "main.go"), skillRec("s1", "$go"))})
	v := plain(m)
	for _, want := range []string{"You", "Look at", "main.go", "go]", "gone.txt", "later", "[? gone.txt]", "[? future: later]"} {
		if !strings.Contains(v, want) {
			t.Errorf("view lacks %q:\n%s", want, v)
		}
	}
	if strings.Contains(v, "t3-context") {
		t.Errorf("raw link shown:\n%s", v)
	}
	// The unresolved chips are the registry's unresolved chip.
	reg := chips.Default(chips.NoColorTheme())
	un := ansi.Strip(reg.Render(chips.Compact, chips.Chip{Kind: "file", ContextID: "nope", Label: "gone.txt"}, 76))
	if !strings.Contains(v, un) {
		t.Errorf("view lacks the unresolved chip %q:\n%s", un, v)
	}
}

func TestDuplicateRecordIsUnresolved(t *testing.T) {
	m := newTest(60, 6)
	m.SetMessages([]Message{userMsg("u1", "[a.go](t3-context://v1/file/f1)", fileRec("f1", "a.go"), fileRec("f1", "b.go"))})
	if v := plain(m); !strings.Contains(v, "[? a.go]") {
		t.Fatalf("a doubly held id must be unresolved:\n%s", v)
	}
}

// evil holds control sequences a hostile text might carry.
const evil = "\x1b[2J\x1b]0;pwned\x07\x1b[31mred\x1b[0m\x9b2J\x1bP+q\x1b\\\x07\x08"

func TestControlSequencesNeverReachView(t *testing.T) {
	lbl := "lab" + evil + "el"
	rec := fileRec("f1", "n"+evil+".go")
	rec.Label = lbl
	msgs := []Message{
		userMsg("u1", "hi "+evil+" there ["+"x"+"](t3-context://v1/file/f1)\n"+evil, rec),
		{ID: "a1", Role: message.RoleAssistant, Text: "# Title " + evil + "\n\nbody " + evil + "\n\n```\ncode " + evil + "\n```\n- [link](http://x/" + evil + ")", Status: message.StatusStreaming},
		{ID: "a2", Role: message.RoleAssistant, Text: "ok", Status: "weird" + evil},
		{ID: "u2", Role: message.RoleUser, Text: "legacy\n\n<terminal_context>\n- T" + "\x1b]0;t\x07" + " line 1:\n  1 | " + evil + "\n</terminal_context>"},
	}
	for _, noColor := range []bool{true, false} {
		var m *Model
		if noColor {
			m = newTest(60, 60)
		} else {
			m = New(chips.Default(chips.DefaultTheme()))
			m.SetSize(60, 60)
		}
		m.SetMessages(msgs)
		m.Focus()
		check := func(when string) {
			t.Helper()
			v := m.View()
			for _, bad := range []string{"\x1b[2J", "\x1b]0;", "\x9b", "\x1bP", "\x07\x08", "\x08", "pwned\x07"} {
				if strings.Contains(v, bad) {
					t.Fatalf("%s (noColor=%v): view holds %q:\n%q", when, noColor, bad, v)
				}
			}
		}
		check("plain")
		m.SetText("a1", "more "+evil, message.StatusStreaming)
		check("streamed")
		// Details and expanded views of the hostile chip.
		m.ensureStop(stop{0, -1})
		m.sel, m.selIt = 0, -1
		press(m, "tab", "enter")
		if !m.PopoverOpen() {
			t.Fatal("popover did not open")
		}
		check("details")
		press(m, "enter")
		check("expanded")
	}
}

func TestFrameShape(t *testing.T) {
	msgs := []Message{
		userMsg("u1", "漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字 😀😀😀👩‍👩‍👧‍👦 e\u0301 wide [漢字ファイル.go](t3-context://v1/file/f1) end",
			fileRec("f1", "漢字ファイル.go")),
		agentMsg("a1", "## 見出し 😀\n\nText with 漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字 and a very_long_identifier_that_never_ends_anywhere_at_all.\n\n```\nconst s = \"漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字\" // long line of code that overflows\n```\n\n| a | b |\n|---|---|\n| 漢字 | 😀 |\n"),
		{ID: "a2", Role: message.RoleAssistant, Text: "", Status: message.StatusStreaming},
		userMsg("u2", strings.Repeat("x", 300)),
	}
	for _, noColor := range []bool{true, false} {
		for _, w := range []int{1, 2, 3, 4, 5, 7, 10, 17, 33, 80, 120} {
			for _, h := range []int{1, 2, 3, 5, 9, 30} {
				var m *Model
				if noColor {
					m = newTest(w, h)
				} else {
					m = New(chips.Default(chips.DefaultTheme()))
					m.SetSize(w, h)
				}
				m.SetMessages(msgs)
				m.Focus()
				checkFrame(t, m)
				press(m, "home")
				checkFrame(t, m)
				press(m, "tab", "enter")
				checkFrame(t, m)
				press(m, "enter", "down", "down")
				checkFrame(t, m)
				press(m, "esc", "down", "pgdown")
				checkFrame(t, m)
				m.Update(tea.MouseWheelMsg{Button: tea.MouseWheelUp})
				checkFrame(t, m)
			}
		}
	}
	// Height 0 draws nothing.
	m := newTest(10, 0)
	m.SetMessages(msgs)
	if v := m.View(); v != "" {
		t.Fatalf("height 0: %q", v)
	}
}

func navThread() []Message {
	return []Message{
		userMsg("u1", "first [a.go](t3-context://v1/file/fa) and [b.go](t3-context://v1/file/fb) and [$go](t3-context://v1/skill/s1)",
			fileRec("fa", "a.go"), fileRec("fb", "b.go"), skillRec("s1", "$go")),
		agentMsg("a1", "answer one"),
		userMsg("u2", "second [c.go](t3-context://v1/file/fc)", fileRec("fc", "c.go")),
		agentMsg("a2", "answer two"),
	}
}

func TestNavigation(t *testing.T) {
	m := newTest(60, 30)
	m.SetMessages(navThread())
	if m.Focused() {
		t.Fatal("focused before Focus")
	}
	press(m, "up") // ignored while blurred
	if s, _ := m.Selected(); s != 3 {
		t.Fatalf("blurred key moved focus to %d", s)
	}
	m.Focus()
	if s, c := m.Selected(); s != 3 || c != -1 {
		t.Fatalf("initial focus %d/%d", s, c)
	}
	// The gutter marks the focused message.
	if v := plain(m); !strings.Contains(v, gutterMark+" answer two") {
		t.Fatalf("no gutter on the focused message:\n%s", v)
	}
	press(m, "up", "k")
	if s, _ := m.Selected(); s != 1 {
		t.Fatalf("after up,k focus = %d", s)
	}
	press(m, "down")
	if s, _ := m.Selected(); s != 2 {
		t.Fatalf("after down focus = %d", s)
	}
	press(m, "g")
	if s, _ := m.Selected(); s != 0 {
		t.Fatalf("after g focus = %d", s)
	}
	// tab cycles the chips; shift+tab and left go back.
	for i, want := range []int{0, 1, 2, 0} {
		press(m, "tab")
		if _, c := m.Selected(); c != want {
			t.Fatalf("tab %d: chip %d, want %d", i, c, want)
		}
	}
	press(m, "shift+tab")
	if _, c := m.Selected(); c != 2 {
		t.Fatalf("shift+tab: chip %d", c)
	}
	press(m, "left", "right", "right")
	if _, c := m.Selected(); c != 0 {
		t.Fatalf("left,right,right: chip %d", c)
	}
	press(m, "right")
	// The selected chip is drawn selected (reversed in the no-colour theme).
	reg := chips.Default(chips.NoColorTheme())
	selB := reg.Render(chips.Compact, chips.Chip{Kind: "file", ContextID: "fb", Label: "b.go", Record: fileRec("fb", "b.go"), Selected: true}, 58)
	if v := m.View(); !strings.Contains(v, selB) {
		t.Fatalf("selected chip not drawn selected: %q", v)
	}
	// enter: details; enter again: expanded; esc closes.
	press(m, "enter")
	if !m.PopoverOpen() || m.pop.surface != chips.Details {
		t.Fatal("enter did not open the details")
	}
	v := plain(m)
	if !strings.Contains(v, "Details") || !strings.Contains(v, "b.go") || !strings.Contains(v, "╭") {
		t.Fatalf("details popover:\n%s", v)
	}
	press(m, "enter")
	if !m.PopoverOpen() || m.pop.surface != chips.Expanded {
		t.Fatal("second enter did not expand")
	}
	if v := plain(m); !strings.Contains(v, "Expanded") || !strings.Contains(v, "att_fb") {
		t.Fatalf("expanded popover:\n%s", v)
	}
	// Keys go to the popover while it is open: focus does not move.
	press(m, "down", "up")
	if s, c := m.Selected(); s != 0 || c != 1 {
		t.Fatalf("popover let focus move: %d/%d", s, c)
	}
	press(m, "esc")
	if m.PopoverOpen() {
		t.Fatal("esc did not close")
	}
	if v := plain(m); strings.Contains(v, "╭") {
		t.Fatalf("popover still drawn:\n%s", v)
	}
	// Moving to another message drops the chip focus.
	press(m, "down")
	if s, c := m.Selected(); s != 1 || c != -1 {
		t.Fatalf("down from chips: %d/%d", s, c)
	}
	// A reply ignores tab; enter opens its item's details.
	press(m, "tab")
	if _, c := m.Selected(); c != -1 || m.PopoverOpen() {
		t.Fatal("chipless message took a chip")
	}
	press(m, "enter")
	if !m.PopoverOpen() || !m.pop.item {
		t.Fatal("enter on a reply did not open its item's details")
	}
	press(m, "esc")
	// enter with no chip focused opens the first chip.
	press(m, "down", "enter")
	if s, c := m.Selected(); s != 2 || c != 0 || !m.PopoverOpen() {
		t.Fatalf("enter without a chip: %d/%d open=%v", s, c, m.PopoverOpen())
	}
	// tab in the popover moves the chip and the popover follows (one chip: stays).
	press(m, "esc", "G")
	if s, _ := m.Selected(); s != 3 {
		t.Fatalf("G: focus %d", s)
	}
	m.Blur()
	if m.Focused() || m.PopoverOpen() {
		t.Fatal("blur")
	}
	if v := plain(m); strings.Contains(v, gutterMark) {
		t.Fatalf("gutter drawn while blurred:\n%s", v)
	}
}

func TestPopoverFollowsTab(t *testing.T) {
	m := newTest(60, 20)
	m.SetMessages(navThread()[:1])
	m.Focus()
	press(m, "enter")
	if !strings.Contains(plain(m), "name: a.go") {
		t.Fatalf("details of a.go:\n%s", plain(m))
	}
	press(m, "tab")
	if v := plain(m); !strings.Contains(v, "name: b.go") || !m.PopoverOpen() {
		t.Fatalf("popover did not follow tab:\n%s", v)
	}
}

func TestOpenAndCopy(t *testing.T) {
	m := newTest(60, 30)
	thread := navThread()
	m.SetMessages(thread)
	m.Focus()
	press(m, "g", "tab", "tab")
	out := press(m, "o")
	if len(out) != 1 {
		t.Fatalf("o gave %d messages", len(out))
	}
	om, ok := out[0].(OpenMsg)
	if !ok {
		t.Fatalf("o gave %T", out[0])
	}
	if f, ok := om.Record.(*contextref.FileRecord); !ok || f.Name != "b.go" {
		t.Fatalf("opened %#v", om.Record)
	}
	// o in the popover opens its chip.
	press(m, "enter")
	out = press(m, "o")
	if len(out) != 1 || out[0].(OpenMsg).Record.RecordBase().ContextID != "fb" {
		t.Fatalf("o in popover: %v", out)
	}
	// y in the popover copies that chip alone: its link and its record.
	out = press(m, "y")
	if cm, ok := out[0].(CopyMsg); !ok || cm.MessageID != "u1" || len(cm.Records) != 1 ||
		cm.Records[0].RecordBase().ContextID != "fb" || !strings.HasSuffix(cm.Markdown, "(t3-context://v1/file/fb)") ||
		len(contextref.Scan(cm.Markdown)) != 1 {
		t.Fatalf("y in popover: %+v", out)
	}
	press(m, "esc")
	// y copies the focused message's canonical Markdown and records.
	out = press(m, "y")
	cm, ok := out[0].(CopyMsg)
	if !ok {
		t.Fatalf("y gave %T", out[0])
	}
	if cm.MessageID != "u1" || cm.Markdown != thread[0].Text || !reflect.DeepEqual(cm.Records, thread[0].Context.Records) {
		t.Fatalf("copy = %+v", cm)
	}
	// An assistant message copies its text, no records.
	press(m, "down")
	cm = press(m, "y")[0].(CopyMsg)
	if cm.MessageID != "a1" || cm.Markdown != "answer one" || cm.Records != nil {
		t.Fatalf("copy agent = %+v", cm)
	}
	// A missing record opens nothing.
	m.SetMessages([]Message{userMsg("u", "[gone](t3-context://v1/file/zz)")})
	m.Focus()
	if out := press(m, "tab", "o"); len(out) != 0 {
		t.Fatalf("missing record opened: %v", out)
	}
	// With no chip focused, o opens the first file or image.
	m.SetMessages([]Message{userMsg("u", "[$go](t3-context://v1/skill/s) [x.go](t3-context://v1/file/fx)", skillRec("s", "$go"), fileRec("fx", "x.go"))})
	m.Focus()
	out = press(m, "o")
	if len(out) != 1 || out[0].(OpenMsg).Record.RecordBase().ContextID != "fx" {
		t.Fatalf("o without chip: %v", out)
	}
}

func TestStreamingRendersOnlyThatMessage(t *testing.T) {
	m := newTest(60, 40)
	m.SetMessages([]Message{
		userMsg("u1", "hello [a.go](t3-context://v1/file/fa)", fileRec("fa", "a.go")),
		agentMsg("a1", "# one\n\nsome *markdown*"),
		userMsg("u2", "again"),
		{ID: "a2", Role: message.RoleAssistant, Status: message.StatusStreaming},
	})
	m.View()
	// Parts: u1, a1's head and its two blocks, u2, a2's head.
	if m.renders != 6 {
		t.Fatalf("first view rendered %d parts, want 6", m.renders)
	}
	m.View()
	if m.renders != 6 {
		t.Fatalf("second view re-rendered: %d", m.renders)
	}
	text := ""
	want := 6
	// While the reply streams its open block is drawn by the cheap path
	// (stream.go): no glamour render until a block completes. The last
	// token completes the paragraph (rendered once now) and opens the code
	// block, drawn cheaply too.
	for i, tok := range []string{"Hello", ", ", "**world**", "\n\n```go\nx := 1\n```"} {
		text += tok
		m.SetText("a2", text, message.StatusStreaming)
		drawn := m.streamed
		v := plain(m)
		if i == 3 {
			want++
		}
		if m.renders != want {
			t.Fatalf("token %d: %d renders, want %d", i, m.renders, want)
		}
		if m.streamed <= drawn {
			t.Fatalf("token %d: the open block was not drawn again", i)
		}
		if !strings.Contains(v, "streaming") || !strings.Contains(v, "Hello") {
			t.Fatalf("no streaming status or text:\n%s", v)
		}
	}
	m.SetText("a2", text, message.StatusDone) // the header and the last block, rendered in full
	v := plain(m)
	if want += 2; m.renders != want || strings.Contains(v, "streaming") || !strings.Contains(v, "world") || !strings.Contains(v, "x := 1") {
		t.Fatalf("done: renders %d, want %d\n%s", m.renders, want, v)
	}
	m.SetText("a2", text, message.StatusDone) // no change: nothing
	m.View()
	if m.renders != want {
		t.Fatalf("unchanged SetText re-rendered: %d", m.renders)
	}
	m.SetText("nope", "x", message.StatusDone) // unknown id: ignored
	m.SetText("a2", text, message.StatusInterrupted)
	if v := plain(m); !strings.Contains(v, "interrupted") {
		t.Fatalf("interrupted:\n%s", v)
	}
	m.SetText("a2", text, message.StatusError)
	if v := plain(m); !strings.Contains(v, "error") {
		t.Fatalf("error:\n%s", v)
	}
	// A resize re-renders what is drawn, lazily.
	before := m.renders
	m.SetSize(50, 40)
	if m.renders != before {
		t.Fatal("SetSize rendered")
	}
	m.View()
	if m.renders != before+8 {
		t.Fatalf("resize re-rendered %d parts, want 8", m.renders-before)
	}
}

func manyMessages(n int) []Message {
	msgs := make([]Message, n)
	for i := range msgs {
		if i%2 == 0 {
			msgs[i] = userMsg(fmt.Sprint("m", i), fmt.Sprintf("message %d with [f%d.go](t3-context://v1/file/f%d) inside", i, i, i), fileRec(fmt.Sprint("f", i), fmt.Sprintf("f%d.go", i)))
		} else {
			msgs[i] = agentMsg(fmt.Sprint("m", i), fmt.Sprintf("reply %d", i))
		}
	}
	return msgs
}

func TestStartsAtBottomAndRendersLazily(t *testing.T) {
	m := newTest(60, 12)
	m.SetMessages(manyMessages(10000))
	v := plain(m)
	if !strings.Contains(v, "reply 9999") || strings.Contains(v, "message 0 ") {
		t.Fatalf("not at the bottom:\n%s", v)
	}
	lines := strings.Split(v, "\n")
	if !strings.Contains(lines[len(lines)-1], "reply 9999") {
		t.Fatalf("last row is not the newest message:\n%s", v)
	}
	if m.renders > 10 {
		t.Fatalf("opening rendered %d blocks", m.renders)
	}
	m.Focus()
	press(m, "g")
	if v := plain(m); !strings.Contains(v, "message 0 ") {
		t.Fatalf("home:\n%s", v)
	}
	if m.renders > 20 {
		t.Fatalf("home rendered %d blocks", m.renders)
	}
	press(m, "G")
	if v := plain(m); !strings.Contains(v, "reply 9999") {
		t.Fatalf("end:\n%s", v)
	}
}

func TestAppendStickiness(t *testing.T) {
	m := newTest(40, 8)
	m.SetMessages(manyMessages(20))
	m.View()
	if !m.AtBottom() {
		t.Fatal("not at bottom")
	}
	m.Append(agentMsg("new1", "fresh one"))
	if v := plain(m); !strings.Contains(v, "fresh one") {
		t.Fatalf("append at bottom not shown:\n%s", v)
	}
	// Streaming into the last message keeps the bottom in view.
	m.Append(Message{ID: "s", Role: message.RoleAssistant, Status: message.StatusStreaming})
	m.SetText("s", "line one\n\nline two\n\nline three\n\nline four", message.StatusStreaming)
	if v := plain(m); !strings.Contains(v, "line four") {
		t.Fatalf("streaming at bottom not followed:\n%s", v)
	}
	// Scrolled up: the view stays where it is.
	m.Update(tea.MouseWheelMsg{Button: tea.MouseWheelUp})
	m.Update(tea.MouseWheelMsg{Button: tea.MouseWheelUp})
	if m.AtBottom() {
		t.Fatal("still at bottom after scrolling up")
	}
	before := plain(m)
	m.Append(agentMsg("new2", "unseen"))
	m.SetText("s", "line one\n\nline two\n\nline three\n\nline four\n\nfive", message.StatusStreaming)
	after := plain(m)
	if after != before {
		t.Fatalf("scrolled-up view moved on append:\n%s\n---\n%s", before, after)
	}
	// Scrolling back down sticks again.
	for i := 0; i < 20; i++ {
		m.Update(tea.MouseWheelMsg{Button: tea.MouseWheelDown})
	}
	if !m.AtBottom() {
		t.Fatal("wheel down to the end does not stick")
	}
	m.Append(agentMsg("new3", "seen again"))
	if v := plain(m); !strings.Contains(v, "seen again") {
		t.Fatalf("append after returning to bottom:\n%s", v)
	}
	// An empty transcript appends and shows.
	e := newTest(40, 5)
	e.View()
	e.Append(userMsg("x", "first"))
	if v := plain(e); !strings.Contains(v, "first") {
		t.Fatalf("first append:\n%s", v)
	}
}

func TestScrollAndFocusKeepConsistent(t *testing.T) {
	m := newTest(40, 10)
	m.SetMessages(manyMessages(300))
	m.Focus()
	// Walk up through everything with up; the focused message is always on screen.
	for i := 0; i < 400; i++ {
		press(m, "up")
		v := plain(m)
		if !strings.Contains(v, gutterMark) {
			t.Fatalf("step %d: focused message off screen:\n%s", i, v)
		}
	}
	if s, _ := m.Selected(); s != 0 {
		t.Fatalf("up did not reach the top: %d", s)
	}
	for i := 0; i < 400; i++ {
		press(m, "j")
		if !strings.Contains(plain(m), gutterMark) {
			t.Fatalf("down step %d: focused message off screen", i)
		}
	}
	if s, _ := m.Selected(); s != 299 || !m.AtBottom() {
		t.Fatalf("down did not reach the bottom: %d", s)
	}
	// Page keys move the focus with the view.
	press(m, "pgup", "pgup")
	if !strings.Contains(plain(m), gutterMark) {
		t.Fatal("pgup left the focus off screen")
	}
	press(m, "pgdown", "pgdown", "pgdown")
	if !m.AtBottom() || !strings.Contains(plain(m), gutterMark) {
		t.Fatal("pgdown")
	}
	// Wheel away then a focus key brings the focus back on screen.
	for i := 0; i < 10; i++ {
		m.Update(tea.MouseWheelMsg{Button: tea.MouseWheelUp})
	}
	press(m, "up")
	if !strings.Contains(plain(m), gutterMark) {
		t.Fatal("focus not recovered after wheel")
	}
}

func TestTallMessageScrollsThrough(t *testing.T) {
	m := newTest(30, 6)
	long := strings.Repeat("line\n\n", 20) + "END"
	m.SetMessages([]Message{agentMsg("a0", "before"), agentMsg("a1", long), agentMsg("a2", "after")})
	m.Focus()
	press(m, "up") // to the tall message: its top shows
	if s, _ := m.Selected(); s != 1 {
		t.Fatalf("focus %d", s)
	}
	if v := plain(m); !strings.Contains(v, "Agent") {
		t.Fatalf("tall message header not shown:\n%s", v)
	}
	// down scrolls through it before leaving it.
	seenEnd := false
	for i := 0; i < 30; i++ {
		press(m, "down")
		if s, _ := m.Selected(); s == 2 {
			break
		}
		if strings.Contains(plain(m), "END") {
			seenEnd = true
		}
	}
	if !seenEnd {
		t.Fatal("never scrolled through the tall message")
	}
	if s, _ := m.Selected(); s != 2 {
		t.Fatalf("never reached the next message: %d", s)
	}
}

func TestKeyMapHelp(t *testing.T) {
	k := DefaultKeyMap()
	if len(k.ShortHelp()) == 0 || len(k.FullHelp()) != 2 {
		t.Fatal("help")
	}
	for _, b := range k.FullHelp()[0] {
		if b.Help().Key == "" || b.Help().Desc == "" {
			t.Fatalf("binding without help: %v", b.Keys())
		}
	}
}

func TestAgentMarkdownAndReferences(t *testing.T) {
	m := newTest(60, 20)
	m.SetMessages([]Message{agentMsg("a", "Edited [main.go](t3-context://v1/file/f1).\n\n```go\nfunc f() {\n\treturn\n}\n```")})
	v := plain(m)
	if !strings.Contains(v, "[main.go]") || strings.Contains(v, "t3-context") {
		t.Fatalf("reference in agent text:\n%s", v)
	}
	if !strings.Contains(v, "    return") {
		t.Fatalf("tab indentation lost:\n%s", v)
	}
	// The coloured style renders too, with no padding to the width.
	c := New(nil)
	c.SetSize(60, 20)
	c.SetMessages([]Message{agentMsg("a", "Some **bold** text.")})
	for _, l := range strings.Split(c.View(), "\n") {
		if strings.HasSuffix(ansi.Strip(l), " ") {
			t.Fatalf("padded line %q", l)
		}
	}
}

func TestTrimPadding(t *testing.T) {
	cases := map[string]string{
		"abc":                                 "abc",
		"abc   ":                              "abc",
		"\x1b[1mab\x1b[m\x1b[2m \x1b[m":       "\x1b[1mab\x1b[m",
		"\x1b[7mab \x1b[m\x1b[2m \x1b[m":      "\x1b[7mab \x1b[m",
		"ab\x1b[31m  ":                        "ab",
		"\x1b[48;5;1mab  \x1b[m":              "\x1b[48;5;1mab  \x1b[m",
		"\x1b]8;;http://x\x07ab\x1b]8;;\x07 ": "\x1b]8;;http://x\x07ab\x1b]8;;\x07\x1b[m",
	}
	for in, want := range cases {
		if got := trimPadding(in); got != want {
			t.Errorf("trimPadding(%q) = %q, want %q", in, got, want)
		}
	}
}
