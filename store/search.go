package store

import (
	"database/sql"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/chipchat/chipchat/contextref"
	"github.com/chipchat/chipchat/message"
)

// Search across threads (issue 27 item 2): message_search is an FTS5 table
// with one row per message, its rowid the message's, holding what the
// transcript shows of it: a user message's text with each reference as its
// chip's label, a reply's items (text, thoughts, notices, a tool call's
// title and text output). A user message is indexed when it is stored, a
// reply once, when its status becomes final (never per streamed chunk: a
// 50 MB reply costs one indexing), a fork's copies with the fork; a
// deleted message leaves the index by a trigger. migrate9 builds the index
// for the messages stored before it.

// migrate9 creates message_search and indexes every message stored so far.
func migrate9(tx *sql.Tx) error {
	stmts := []string{
		`CREATE VIRTUAL TABLE message_search USING fts5(body, tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3 4')`,
		`CREATE TRIGGER message_search_delete AFTER DELETE ON messages BEGIN
			DELETE FROM message_search WHERE rowid = old.rowid;
		END`,
	}
	for _, q := range stmts {
		if _, err := tx.Exec(q); err != nil {
			return err
		}
	}
	rows, err := tx.Query(`SELECT id FROM messages ORDER BY rowid`)
	if err != nil {
		return err
	}
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return err
		}
		ids = append(ids, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, id := range ids {
		if err := indexMessage(tx, id); err != nil {
			return err
		}
	}
	return nil
}

// indexMessage writes the message's row of message_search from what is
// stored of it (replacing the row it had).
func indexMessage(tx *sql.Tx, id string) error {
	var rowid int64
	var role, text string
	if err := tx.QueryRow(`SELECT rowid, role, text FROM messages WHERE id = ?`, id).Scan(&rowid, &role, &text); err != nil {
		return err
	}
	var b strings.Builder
	if message.Role(role) == message.RoleUser {
		b.WriteString(contextref.Replace(text, func(o contextref.Occurrence) string { return o.Label }))
	} else {
		b.WriteString(text)
		if err := replyBody(tx, id, &b); err != nil {
			return err
		}
	}
	if _, err := tx.Exec(`DELETE FROM message_search WHERE rowid = ?`, rowid); err != nil {
		return err
	}
	if b.Len() == 0 {
		return nil
	}
	_, err := tx.Exec(`INSERT INTO message_search(rowid, body) VALUES (?, ?)`, rowid, searchBody(b.String()))
	return err
}

// SearchBodyMax bounds what of one message is indexed: its first MiB. A
// 50 MB reply is found by its first megabyte's words, and indexing it
// costs neither the memory nor the seconds of all of it.
const SearchBodyMax = 1 << 20

// searchBody is body cut to SearchBodyMax bytes, at a rune's start.
func searchBody(body string) string {
	if len(body) <= SearchBodyMax {
		return body
	}
	cut := SearchBodyMax
	for cut > 0 && !utf8.RuneStart(body[cut]) {
		cut--
	}
	return body[:cut]
}

// replyBody appends a reply's items' searchable text to b, one item a
// paragraph.
func replyBody(tx *sql.Tx, id string, b *strings.Builder) error {
	rows, err := tx.Query(`SELECT i.kind, i.data, t.text FROM reply_items i LEFT JOIN reply_text t ON t.message_id = i.message_id AND t.pos = i.pos
		WHERE i.message_id = ? ORDER BY i.pos, t.seq`, id)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var kind string
		var data []byte
		var chunk sql.NullString
		if err := rows.Scan(&kind, &data, &chunk); err != nil {
			return err
		}
		if b.Len() >= SearchBodyMax {
			break // the rest is not indexed (searchBody), nor read
		}
		if chunk.String != "" {
			b.WriteString(chunk.String)
		}
		it := message.Item{Kind: message.ItemKind(kind)}
		if it.Kind == message.ItemTool && it.SetData(data) == nil && it.Tool != nil {
			b.WriteString("\n\n" + it.Tool.Title)
			for _, c := range it.Tool.Content {
				if c.Type == message.ContentText && c.Text != "" {
					b.WriteString("\n" + c.Text)
				}
			}
		}
		b.WriteString("\n\n")
	}
	return rows.Err()
}

// SearchQuery is a search across threads: Text's words all present in the
// message, the last one as a prefix (the word being typed); in ProjectID's threads (0: every
// project); at most Limit hits (0: 50), newest first.
type SearchQuery struct {
	Text      string
	ProjectID int64
	Limit     int
}

// SearchHit is one message found: its thread, the message and the
// matching passage with each match between MarkOn and MarkOff.
type SearchHit struct {
	ThreadID, ThreadTitle string
	ProjectID             int64
	MessageID             string
	Role                  message.Role
	Created               time.Time
	Snippet               string
}

// The marks around a match in SearchHit.Snippet.
const (
	MarkOn  = "\x02"
	MarkOff = "\x03"
)

// ftsQuery is text as an FTS5 query: every word a quoted prefix, so no
// character of the user's is FTS5 syntax ("" when there is no word).
func ftsQuery(text string) string {
	var parts []string
	for _, w := range strings.Fields(text) {
		w = strings.Map(func(r rune) rune {
			if r == '"' || r < ' ' {
				return ' '
			}
			return r
		}, w)
		if w = strings.TrimSpace(w); w != "" {
			parts = append(parts, `"`+w+`"`)
		}
	}
	if len(parts) > 0 {
		parts[len(parts)-1] += "*" // the word being typed
	}
	return strings.Join(parts, " ")
}

// Search finds the messages that hold every word of q.Text. The hits are
// newest first and the query stops at the limit, so its cost is the hits
// it returns, not the size of the store.
func (s *Store) Search(q SearchQuery) ([]SearchHit, error) {
	fq := ftsQuery(q.Text)
	if fq == "" {
		return nil, nil
	}
	limit := q.Limit
	if limit <= 0 {
		limit = 50
	}
	var out []SearchHit
	err := s.read(func() error {
		out = out[:0]
		rows, err := s.db.Query(`SELECT t.id, t.title, t.project_id, m.id, m.role, m.created_ns,
				snippet(message_search, 0, ?, ?, '…', 16)
			FROM message_search
			JOIN messages m ON m.rowid = message_search.rowid
			JOIN threads t ON t.id = m.thread_id
			WHERE message_search MATCH ? AND (? = 0 OR t.project_id = ?)
			ORDER BY message_search.rowid DESC LIMIT ?`, MarkOn, MarkOff, fq, q.ProjectID, q.ProjectID, limit)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var h SearchHit
			var created int64
			if err := rows.Scan(&h.ThreadID, &h.ThreadTitle, &h.ProjectID, &h.MessageID, &h.Role, &created, &h.Snippet); err != nil {
				return err
			}
			h.Created = fromNS(created)
			out = append(out, h)
		}
		return rows.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("store: search: %w", err)
	}
	return out, nil
}
