package store

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/chipchat/chipchat/message"
)

// A long text written as its pieces (chat writes a TextBuf's 64 KB
// pieces, each its own append in one WriteReply) is stored in rows that
// never end inside a character, though the pieces do, and reads back in
// pieces (Chunks), whole; a short one reads back in Text.
func TestWriteReplyPiecesReadBackInPieces(t *testing.T) {
	s := open(t, t.TempDir())
	th, r := newReply(t, s)
	var buf message.TextBuf
	buf.Append(strings.Repeat("é€x", 3*message.TextPiece/6+100)) // 6 bytes a step: piece ends fall inside characters
	text := buf.Text()
	ws := []ItemWrite{{Pos: 0, Item: message.Item{ID: "i1", Kind: message.ItemText}, Meta: true},
		{Pos: 1, Item: message.Item{ID: "i2", Kind: message.ItemText, Text: "short"}, Meta: true, Append: "short"}}
	for p := range text.Pieces(0) {
		ws = append(ws, ItemWrite{Pos: 0, Append: p})
	}
	if err := s.WriteReply(r.ID, ws, message.StatusDone); err != nil {
		t.Fatal(err)
	}
	rows, err := s.db.Query(`SELECT text FROM reply_text WHERE message_id = ? AND pos = 0 ORDER BY seq`, r.ID)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for rows.Next() {
		var row string
		if err := rows.Scan(&row); err != nil {
			t.Fatal(err)
		}
		if !utf8.ValidString(row) {
			t.Errorf("row %d (%d bytes) cuts a character", n, len(row))
		}
		n++
	}
	rows.Close()
	if n < 3 {
		t.Errorf("%d rows for %d pieces", n, len(ws)-2)
	}
	msgs, err := s.Messages(th.ID)
	if err != nil {
		t.Fatal(err)
	}
	items := msgs[1].Items
	if len(items) != 2 {
		t.Fatalf("%d items", len(items))
	}
	if items[0].Text != "" || items[0].Chunks.Len() != text.Len() || items[0].Body().String() != text.String() {
		t.Errorf("the long item reads back as Text %d bytes, Chunks %d bytes, want %d in Chunks", len(items[0].Text), items[0].Chunks.Len(), text.Len())
	}
	if items[1].Text != "short" || items[1].Chunks.Len() != 0 {
		t.Errorf("the short item reads back as %q", items[1].Text)
	}
}
