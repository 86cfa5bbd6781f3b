package store

import (
	"bytes"
	"testing"

	"github.com/chipchat/chipchat/contextref"
	"github.com/chipchat/chipchat/message"
)

// MessagesRaw hands out the stored context JSON undecoded; Messages fills
// both; AddMessage returns what it stored.
func TestMessagesRaw(t *testing.T) {
	s := open(t, t.TempDir())
	p, _ := s.Project("/p")
	th, _ := s.CreateThread(p.ID)
	ctx := &contextref.MessageContext{Version: 1, Records: sampleRecords()}
	want, err := ctx.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	m1, err := s.AddMessage(Message{ThreadID: th.ID, Role: message.RoleUser, Text: "with " + contextref.LinkFor(ctx.Records[0]), Context: ctx,
		RawContext: []byte("ignored on input")})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(m1.RawContext, want) {
		t.Fatalf("AddMessage RawContext = %s, want %s", m1.RawContext, want)
	}
	m2, err := s.AddMessage(Message{ThreadID: th.ID, Role: message.RoleAssistant, Text: "no context", RawContext: []byte(`{"version":1,"records":[]}`)})
	if err != nil {
		t.Fatal(err)
	}
	if m2.RawContext != nil {
		t.Fatalf("AddMessage without Context stored a raw context: %s", m2.RawContext)
	}
	m3, _ := s.AddMessage(Message{ThreadID: th.ID, Role: message.RoleUser, Text: "broken"})
	const broken = `{"version":1,"records":[`
	if _, err := s.db.Exec(`UPDATE messages SET context = ? WHERE id = ?`, broken, m3.ID); err != nil {
		t.Fatal(err)
	}

	raw, err := s.MessagesRaw(th.ID)
	if err != nil || len(raw) != 3 {
		t.Fatalf("MessagesRaw: %d, %v", len(raw), err)
	}
	for i, m := range raw {
		if m.Context != nil {
			t.Fatalf("MessagesRaw decoded message %d", i)
		}
		if m.ThreadID != th.ID || m.Seq != int64(i+1) || m.Status != message.StatusDone {
			t.Fatalf("message %d: %+v", i, m)
		}
	}
	if raw[0].ID != m1.ID || raw[0].Text != m1.Text || !raw[0].Created.Equal(m1.Created) || !bytes.Equal(raw[0].RawContext, want) {
		t.Fatalf("message 1: %+v", raw[0])
	}
	if raw[1].RawContext != nil || raw[1].Role != message.RoleAssistant {
		t.Fatalf("message 2 raw context %q, want nil", raw[1].RawContext)
	}
	if string(raw[2].RawContext) != broken {
		t.Fatalf("message 3 raw context %q", raw[2].RawContext)
	}

	dec, err := s.Messages(th.ID)
	if err != nil || len(dec) != 3 {
		t.Fatalf("Messages: %d, %v", len(dec), err)
	}
	if got := contextJSON(t, dec[0].Context); got != string(want) || !bytes.Equal(dec[0].RawContext, want) {
		t.Fatalf("Messages message 1: %s / %s", got, dec[0].RawContext)
	}
	if dec[1].Context != nil || dec[2].Context != nil || string(dec[2].RawContext) != broken {
		t.Fatalf("Messages messages 2, 3: %+v %+v", dec[1], dec[2])
	}
	// Decoding the raw context gives what Messages gives.
	back, _, err := contextref.DecodeContext(raw[0].RawContext)
	if err != nil || contextJSON(t, back) != contextJSON(t, dec[0].Context) {
		t.Fatalf("decoded raw: %v", err)
	}
	if list, err := s.MessagesRaw("thr_none"); err != nil || len(list) != 0 {
		t.Fatalf("MessagesRaw of no thread: %v, %v", list, err)
	}
}
