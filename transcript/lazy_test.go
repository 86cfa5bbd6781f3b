package transcript

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/chipchat/chipchat/contextref"
	"github.com/chipchat/chipchat/message"
)

// rawThread is msgs as a store hands them out undecoded: each structured
// context replaced by its JSON in RawContext.
func rawThread(t *testing.T, msgs []Message) []Message {
	t.Helper()
	out := make([]Message, len(msgs))
	for i, m := range msgs {
		if m.Context != nil {
			raw, err := m.Context.Marshal()
			if err != nil {
				t.Fatal(err)
			}
			m.Context, m.RawContext = nil, raw
		}
		out[i] = m
	}
	return out
}

func decodedCount(m *Model) int {
	n := 0
	for i := range m.ents {
		if m.ents[i].decoded {
			n++
		}
	}
	return n
}

// A raw context draws exactly as the structured one it encodes.
func TestRawContextDrawsAsStructured(t *testing.T) {
	a, b := newTest(60, 30), newTest(60, 30)
	a.SetMessages(navThread())
	b.SetMessages(rawThread(t, navThread()))
	a.Focus()
	b.Focus()
	for _, keys := range [][]string{nil, {"g", "tab", "tab"}, {"enter"}, {"enter"}, {"esc", "down", "down", "tab"}} {
		press(a, keys...)
		press(b, keys...)
		if va, vb := a.View(), b.View(); va != vb {
			t.Fatalf("after %v the raw thread draws differently:\n%s\n----\n%s", keys, va, vb)
		}
	}
}

// Chips of a lazily decoded message navigate, open and copy.
func TestRawContextNavigateOpenCopy(t *testing.T) {
	m := newTest(60, 30)
	thread := navThread()
	m.SetMessages(rawThread(t, thread))
	m.Focus()
	press(m, "g", "tab", "tab")
	if msg, chip := m.Selected(); msg != 0 || chip != 1 {
		t.Fatalf("selected %d/%d, want 0/1", msg, chip)
	}
	out := press(m, "o")
	if len(out) != 1 {
		t.Fatalf("o gave %d messages", len(out))
	}
	if f, ok := out[0].(OpenMsg).Record.(*contextref.FileRecord); !ok || f.Name != "b.go" || f.AttachmentID != "att_fb" {
		t.Fatalf("opened %#v", out[0])
	}
	press(m, "enter")
	if v := plain(m); !strings.Contains(v, "name: b.go") || !m.PopoverOpen() {
		t.Fatalf("details of b.go:\n%s", v)
	}
	press(m, "tab")
	if v := plain(m); !strings.Contains(v, "$go") {
		t.Fatalf("popover did not follow tab to the skill:\n%s", v)
	}
	press(m, "esc")
	cm, ok := press(m, "y")[0].(CopyMsg)
	if !ok {
		t.Fatal("y gave no CopyMsg")
	}
	if cm.MessageID != "u1" || cm.Markdown != thread[0].Text || !reflect.DeepEqual(cm.Records, thread[0].Context.Records) {
		t.Fatalf("copy = %+v", cm)
	}
	// With no chip focused, o opens the first file; the message is decoded
	// although it was never drawn with a chip selected.
	press(m, "down", "down")
	if msg, _ := m.Selected(); msg != 2 {
		t.Fatalf("focused message %d, want 2", msg)
	}
	out = press(m, "o")
	if len(out) != 1 || out[0].(OpenMsg).Record.RecordBase().ContextID != "fc" {
		t.Fatalf("o without chip: %v", out)
	}
	// Message hands the context out decoded.
	got, ok := m.Message("u2")
	if !ok || got.Context == nil || !reflect.DeepEqual(got.Context.Records, thread[2].Context.Records) {
		t.Fatalf("Message(u2) = %+v", got)
	}
}

// Only what is drawn or used is decoded, once.
func TestRawContextDecodedOnDemand(t *testing.T) {
	var msgs []Message
	for i := range 200 {
		id := fmt.Sprint("f", i)
		msgs = append(msgs, userMsg(fmt.Sprint("u", i), fmt.Sprintf("message %d [a.go](t3-context://v1/file/%s)", i, id), fileRec(id, "a.go")),
			agentMsg(fmt.Sprint("a", i), "ok"))
	}
	m := newTest(60, 10)
	m.SetMessages(rawThread(t, msgs))
	if n := decodedCount(m); n != 0 {
		t.Fatalf("SetMessages decoded %d contexts", n)
	}
	v := plain(m)
	if !strings.Contains(v, "message 199") {
		t.Fatalf("view:\n%s", v)
	}
	n := decodedCount(m)
	if n == 0 || n > 10 {
		t.Fatalf("the first frame decoded %d contexts", n)
	}
	e := &m.ents[len(m.ents)-2]
	ctx := e.msg.Context
	if ctx == nil || !e.decoded {
		t.Fatal("the last user message is not decoded")
	}
	m.SetText("u199", e.msg.Text+" again", message.StatusDone)
	plain(m)
	if e.msg.Context != ctx {
		t.Fatal("the context was decoded again")
	}
	// An undrawn message decodes when asked for.
	if got, ok := m.Message("u0"); !ok || got.Context == nil || got.Context.Records[0].RecordBase().ContextID != "f0" {
		t.Fatalf("Message(u0) = %+v", got)
	}
	if d := decodedCount(m); d != n+1 {
		t.Fatalf("%d decoded after Message, want %d", d, n+1)
	}
}

// A raw context that does not decode is no context: its links draw as
// unresolved chips (or a legacy block is upgraded), nothing opens, a copy
// has no records.
func TestInvalidRawContextIsNoContext(t *testing.T) {
	for _, raw := range []string{`{"version":1,"records":[`, `{"version":2,"records":[]}`, `null`, ``, `"x"`} {
		m := newTest(60, 20)
		text := "see [a.go](t3-context://v1/file/fa) now"
		legacy := "legacy\n\n<terminal_context>\n- Terminal 1 lines 12-13:\n  12 | $ go test\n  13 | FAIL\n</terminal_context>"
		m.SetMessages([]Message{
			{ID: "u1", Role: message.RoleUser, Text: legacy, RawContext: []byte(raw)},
			{ID: "u2", Role: message.RoleUser, Text: text, RawContext: []byte(raw)},
		})
		m.Focus()
		v := plain(m)
		if !strings.Contains(v, "[? a.go]") || !strings.Contains(v, "see") || !strings.Contains(v, "now") {
			t.Fatalf("raw %q: the chip is not unresolved:\n%s", raw, v)
		}
		if strings.Contains(v, "<terminal_context>") || !strings.Contains(v, "Terminal 1") {
			t.Fatalf("raw %q: the legacy message is not upgraded:\n%s", raw, v)
		}
		if out := press(m, "tab", "o"); len(out) != 0 {
			t.Fatalf("raw %q: an unresolved chip opened: %v", raw, out)
		}
		cm := press(m, "y")[0].(CopyMsg)
		if cm.MessageID != "u2" || cm.Markdown != text || len(cm.Records) != 0 {
			t.Fatalf("raw %q: copy = %+v", raw, cm)
		}
		if got, _ := m.Message("u2"); got.Context != nil {
			t.Fatalf("raw %q: Message has a context", raw)
		}
		press(m, "esc", "up")
		cm = press(m, "y")[0].(CopyMsg)
		if cm.MessageID != "u1" || len(cm.Records) != 1 || !strings.Contains(cm.Markdown, "t3-context://v1/terminal/") {
			t.Fatalf("raw %q: copy of the legacy message = %+v", raw, cm)
		}
	}
}

// A structured Context wins over RawContext.
func TestContextWinsOverRaw(t *testing.T) {
	m := newTest(60, 10)
	msg := userMsg("u1", "[a.go](t3-context://v1/file/fa)", fileRec("fa", "a.go"))
	msg.RawContext = []byte(`{"version":1,"records":[`)
	m.SetMessages([]Message{msg})
	if v := plain(m); strings.Contains(v, "[? a.go]") || !strings.Contains(v, "a.go") {
		t.Fatalf("view:\n%s", v)
	}
	if got, _ := m.Message("u1"); got.Context != msg.Context {
		t.Fatal("Message replaced the structured context")
	}
}

func TestDecodeRawContext(t *testing.T) {
	ctx := &contextref.MessageContext{Version: 1, Records: []contextref.Record{fileRec("fa", "a.go"), skillRec("s", "$go")}}
	raw, err := ctx.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if got := DecodeRawContext(raw); got == nil || !reflect.DeepEqual(got.Records, ctx.Records) {
		t.Fatalf("DecodeRawContext = %+v", got)
	}
	if DecodeRawContext(nil) != nil || DecodeRawContext([]byte("{")) != nil {
		t.Fatal("nil or bad raw context decoded")
	}
}
