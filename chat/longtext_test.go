package chat

import (
	"strings"
	"testing"

	"github.com/chipchat/chipchat/agent"
	"github.com/chipchat/chipchat/message"
)

// A reply's text past one piece is handed to the UI in pieces (the item's
// Chunks, its Text empty), each event's view stays what it was as the
// text grows, and the store has it all.
func TestLongReplyTextInPieces(t *testing.T) {
	fb := &fakeBackend{caps: agent.Capabilities{Cancel: true}, turns: make(chan *fakeTurn, 4)}
	e := newEnvWith(t, fb, fb, nil)
	e.send("go")
	ft := e.turn()
	rs := until[ReplyStarted](e, nil)
	chunk := strings.Repeat("é日x", 1000) + "\n\n" // 6,002 bytes: piece ends fall inside characters
	var want strings.Builder
	for range 3 * message.TextPiece / len(chunk) {
		ft.emit(agent.TextDelta{Text: chunk})
		want.WriteString(chunk)
	}
	ft.end <- nil
	until[ReplyFinished](e, replyIs(rs.Reply.ID))
	all := want.String()
	inPieces := 0
	for _, ev := range e.events {
		c, ok := ev.(ItemChanged)
		if !ok || c.Item.Kind != message.ItemText {
			continue
		}
		body := c.Item.Body()
		if body.Len() > message.TextPiece {
			inPieces++
			if c.Item.Text != "" {
				t.Fatalf("an item of %d bytes holds its text in Text too", body.Len())
			}
		}
		if body.String() != all[:body.Len()] {
			t.Fatalf("the view of %d bytes an event carried changed", body.Len())
		}
	}
	if inPieces == 0 {
		t.Fatal("no event carried the text in pieces")
	}
	if got := message.ReplyText(e.messages()[1].Items); got != all {
		t.Fatalf("stored %d bytes, want %d", len(got), len(all))
	}
}
