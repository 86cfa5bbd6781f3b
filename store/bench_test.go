package store

import (
	"database/sql"
	"fmt"
	"testing"

	"github.com/chipchat/chipchat/contextref"
	"github.com/chipchat/chipchat/message"
)

func benchStore(b *testing.B) (*Store, Thread) {
	b.Helper()
	s := open(b, b.TempDir())
	p, err := s.Project("/bench")
	if err != nil {
		b.Fatal(err)
	}
	th, err := s.CreateThread(p.ID)
	if err != nil {
		b.Fatal(err)
	}
	return s, th
}

func benchContext() *contextref.MessageContext {
	return &contextref.MessageContext{Version: 1, Records: sampleRecords()}
}

// BenchmarkAddMessage adds an assistant message with a context (one
// transaction, synchronous=NORMAL).
func BenchmarkAddMessage(b *testing.B) {
	s, th := benchStore(b)
	ctx := benchContext()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.AddMessage(Message{ThreadID: th.ID, Role: message.RoleAssistant, Text: "a reply of some length", Context: ctx}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAddMessageUser adds a user message, which is synced to disk
// (synchronous=FULL) before AddMessage returns.
func BenchmarkAddMessageUser(b *testing.B) {
	s, th := benchStore(b)
	ctx := benchContext()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.AddMessage(Message{ThreadID: th.ID, Role: message.RoleUser, Text: "a question " + contextref.LinkFor(ctx.Records[0]), Context: ctx}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLoadMessages10k loads a thread of 10,000 messages, each with a
// five-record context (terminal, image, mention, review comment, unknown).
func BenchmarkLoadMessages10k(b *testing.B) { benchLoad(b, true, false) }

// BenchmarkLoadMessages10kRaw is the same through MessagesRaw: contexts
// handed out as stored, not decoded (how the app opens a thread).
func BenchmarkLoadMessages10kRaw(b *testing.B) { benchLoad(b, true, true) }

// BenchmarkLoadMessages10kNoContext is the same without contexts: the
// store's own share of the load.
func BenchmarkLoadMessages10kNoContext(b *testing.B) { benchLoad(b, false, false) }

func benchLoad(b *testing.B, withContext, raw bool) {
	s, th := benchStore(b)
	ctxJSON, err := benchContext().Marshal()
	if err != nil {
		b.Fatal(err)
	}
	var ctxArg any
	if withContext {
		ctxArg = string(ctxJSON)
	}
	err = s.write(false, func(tx *sql.Tx) error {
		stmt, err := tx.Prepare(`INSERT INTO messages(id, thread_id, seq, role, text, context, status, created_ns) VALUES (?, ?, ?, ?, ?, ?, 'done', ?)`)
		if err != nil {
			return err
		}
		defer stmt.Close()
		for i := range 10000 {
			role := message.RoleUser
			if i%2 == 1 {
				role = message.RoleAssistant
			}
			if _, err := stmt.Exec(newID("msg_"), th.ID, i+1, role, fmt.Sprintf("message %d with some words in it", i), ctxArg, nowNS()); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	load := s.Messages
	if raw {
		load = s.MessagesRaw
	}
	for b.Loop() {
		msgs, err := load(th.ID)
		if err != nil || len(msgs) != 10000 || (msgs[9999].Context != nil) != (withContext && !raw) ||
			(msgs[9999].RawContext != nil) != withContext {
			b.Fatalf("%d messages, %v", len(msgs), err)
		}
	}
}
