package transcript

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/chipchat/chipchat/chips"
	"github.com/chipchat/chipchat/contextref"
	"github.com/chipchat/chipchat/internal/vtscreen"
	"github.com/chipchat/chipchat/message"
)

func newTest(w, h int) *Model {
	m := New(chips.Default(chips.NoColorTheme()), WithNoColor())
	m.SetSize(w, h)
	return m
}

func fileRec(id, name string) *contextref.FileRecord {
	return &contextref.FileRecord{AttachmentRecord: contextref.AttachmentRecord{
		Base: contextref.NewBase(contextref.KindFile, id, name), AttachmentID: "att_" + id,
		Name: name, MimeType: "text/plain", SizeBytes: 42}}
}

func skillRec(id, name string) *contextref.SkillRecord {
	return &contextref.SkillRecord{Base: contextref.NewBase(contextref.KindSkill, id, name), Name: name}
}

func userMsg(id, text string, recs ...contextref.Record) Message {
	return Message{ID: id, Role: message.RoleUser, Text: text, Status: message.StatusDone,
		Context: &contextref.MessageContext{Version: 1, Records: recs}}
}

func agentMsg(id, text string) Message {
	return Message{ID: id, Role: message.RoleAssistant, Text: text, Status: message.StatusDone}
}

// keyMsg builds the key press a terminal would report for a key name.
func keyMsg(k string) tea.KeyPressMsg { return vtscreen.Key(k) }

// press sends keys and returns the messages their commands produced.
func press(m *Model, keys ...string) []tea.Msg {
	var out []tea.Msg
	for _, k := range keys {
		_, cmd := m.Update(keyMsg(k))
		if cmd != nil {
			out = append(out, cmd())
		}
	}
	return out
}

// plain is the view without escape sequences.
func plain(m *Model) string { return ansi.Strip(m.View()) }

// checkFrame asserts the view's shape: exactly height lines, none wider
// than width.
func checkFrame(t *testing.T, m *Model) string {
	t.Helper()
	v := m.View()
	lines := strings.Split(v, "\n")
	if len(lines) != m.height {
		t.Fatalf("view has %d lines, want %d:\n%s", len(lines), m.height, ansi.Strip(v))
	}
	for i, l := range lines {
		if w := ansi.StringWidth(l); w > m.width {
			t.Fatalf("line %d is %d columns wide, more than %d: %q", i, w, m.width, ansi.Strip(l))
		}
	}
	return v
}

func dump(m *Model) string {
	var b strings.Builder
	for i, l := range strings.Split(plain(m), "\n") {
		fmt.Fprintf(&b, "%2d|%s\n", i, l)
	}
	return b.String()
}
