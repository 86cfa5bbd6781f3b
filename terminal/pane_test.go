package terminal

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

func press(p *Pane, k tea.KeyPressMsg) tea.Msg {
	_, cmd := p.Update(k)
	if cmd == nil {
		return nil
	}
	return cmd()
}

func TestKeyBytes(t *testing.T) {
	cases := []struct {
		k    tea.KeyPressMsg
		app  bool
		want string
	}{
		{tea.KeyPressMsg{Code: 'a', Text: "a"}, false, "a"},
		{tea.KeyPressMsg{Code: tea.KeyEnter}, false, "\r"},
		{tea.KeyPressMsg{Code: tea.KeyBackspace}, false, "\x7f"},
		{tea.KeyPressMsg{Code: tea.KeyTab}, false, "\t"},
		{tea.KeyPressMsg{Code: tea.KeyUp}, false, "\x1b[A"},
		{tea.KeyPressMsg{Code: tea.KeyUp}, true, "\x1bOA"},
		{tea.KeyPressMsg{Code: tea.KeyRight, Mod: tea.ModCtrl}, false, "\x1b[1;5C"},
		{tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl}, false, "\x03"},
		{tea.KeyPressMsg{Code: 'b', Mod: tea.ModAlt}, false, "\x1bb"},
		{tea.KeyPressMsg{Code: tea.KeyPgUp}, false, "\x1b[5~"},
		{tea.KeyPressMsg{Code: tea.KeyF1 + 4}, false, "\x1b[15~"},
		{tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift}, false, "\x1b[Z"},
		{tea.KeyPressMsg{Code: 'é', Text: "é"}, false, "é"},
	}
	for _, c := range cases {
		if got := string(KeyBytes(c.k, c.app)); got != c.want {
			t.Errorf("%v: %q want %q", c.k, got, c.want)
		}
	}
}

func TestPaneCopyMode(t *testing.T) {
	p := NewPane(t.TempDir())
	p.SetSize(30, 6) // 5 rows of terminal
	term := NewTerminal("term-1", "Terminal 1", 30, 5, 100)
	p.terms = []*Terminal{term}
	p.Focused = true
	for i := 0; i < 12; i++ {
		term.ingest([]byte("out " + itoa(i) + "\r\n"))
	}
	// screen: lines 8..12, cursor on 12 (empty)
	if m := press(p, tea.KeyPressMsg{Code: tea.KeySpace, Mod: tea.ModCtrl}); m != nil || !p.InCopyMode() {
		t.Fatalf("copy mode not entered (%v)", m)
	}
	for i := 0; i < 2; i++ {
		press(p, tea.KeyPressMsg{Code: 'k', Text: "k"})
	}
	press(p, tea.KeyPressMsg{Code: 'v', Text: "v"})
	for i := 0; i < 6; i++ { // scrolls the view into the scrollback
		press(p, tea.KeyPressMsg{Code: 'k', Text: "k"})
	}
	if p.viewOff == 0 {
		t.Fatal("view did not follow the copy cursor")
	}
	view := p.View()
	if !strings.Contains(view, "lines 5-11") {
		t.Fatalf("title: %q", strings.SplitN(view, "\n", 2)[0])
	}
	msg := press(p, tea.KeyPressMsg{Code: 'y', Text: "y"})
	cm, ok := msg.(CaptureMsg)
	if !ok {
		t.Fatalf("got %T %v", msg, msg)
	}
	if cm.Record.LineStart != 5 || cm.Record.LineEnd != 11 || !strings.HasPrefix(cm.Record.Text, "out 4\nout 5") || cm.Record.Label != "Terminal 1 lines 5-11" {
		t.Fatalf("%+v", cm.Record)
	}
	if p.InCopyMode() {
		t.Fatal("still in copy mode")
	}
	// toggle key hands focus back
	if _, ok := press(p, tea.KeyPressMsg{Code: 't', Mod: tea.ModCtrl}).(FocusComposerMsg); !ok {
		t.Fatal("ctrl+t")
	}
	// wheel scrolls back, shift+pgdown forward
	p.Update(tea.MouseWheelMsg{Button: tea.MouseWheelUp})
	if p.viewOff != 3 {
		t.Fatalf("wheel %d", p.viewOff)
	}
	press(p, tea.KeyPressMsg{Code: tea.KeyPgDown, Mod: tea.ModShift})
	if p.viewOff != 1 {
		t.Fatalf("shift+pgdown %d", p.viewOff)
	}
}

func TestPaneQuickCapture(t *testing.T) {
	p := NewPane(t.TempDir())
	p.SetSize(40, 8)
	term := NewTerminal("term-1", "Terminal 1", 40, 7, 100)
	p.terms = []*Terminal{term}
	p.Focused = true
	term.ingest([]byte("$ make\r\nok 1\r\nok 2\r\n$ "))
	cm, ok := press(p, tea.KeyPressMsg{Code: 'o', Mod: tea.ModAlt}).(CaptureMsg)
	if !ok || cm.Record.Text != "ok 1\nok 2" || cm.Record.Label != "Terminal 1 lines 2-3" {
		t.Fatalf("%+v", cm)
	}
}
