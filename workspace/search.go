package workspace

import (
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/chipchat/chipchat/store"
)

// Found is one message a search across threads found (issue 27 item 2):
// its thread, the message, and the passage that matched as one line with
// the matches' byte ranges in it.
type Found struct {
	ThreadID, Title, MessageID string
	Created                    time.Time
	Line                       string
	Marks                      [][2]int
}

// Age is how long ago the message was written ("3h", "2d").
func (f Found) Age(now time.Time) string { return ago(now.Sub(f.Created)) }

// Search finds the messages holding every word of text (the last one as
// a prefix), newest first: in this project's threads, or every project's.
func (w *Workspace) Search(text string, every bool) func() ([]Found, error) {
	st, project := w.o.Store, w.project
	if every {
		project = 0
	}
	return func() ([]Found, error) {
		hits, err := st.Search(store.SearchQuery{Text: text, ProjectID: project})
		out := make([]Found, len(hits))
		for i, h := range hits {
			out[i] = Found{ThreadID: h.ThreadID, Title: strings.Map(shown, h.ThreadTitle), MessageID: h.MessageID, Created: h.Created}
			out[i].Line, out[i].Marks = markedLine(h.Snippet)
		}
		return out, err
	}
}

// markedLine is a snippet as one line (line breaks and runs of white
// space one space) and the byte ranges store.MarkOn and store.MarkOff
// enclosed in it.
func markedLine(snippet string) (string, [][2]int) {
	var b strings.Builder
	var marks [][2]int
	space := true // no space at the start
	inside := false
	for seg := range strings.SplitSeq(strings.ReplaceAll(snippet, store.MarkOff, store.MarkOn), store.MarkOn) {
		from := b.Len()
		for _, r := range strings.Map(shown, seg) {
			if unicode.IsSpace(r) {
				if !space {
					b.WriteByte(' ')
				}
				space = true
				continue
			}
			b.WriteRune(r)
			space = false
		}
		if inside && b.Len() > from {
			marks = append(marks, [2]int{from, b.Len()})
		}
		inside = !inside
	}
	line := b.String()
	trimmed := strings.TrimRight(line, " ")
	for i := range marks {
		marks[i][1] = min(marks[i][1], len(trimmed))
	}
	return trimmed, marks
}

// shown is r as a found line draws it: a control character (escape
// sequences included) or a bidirectional control is a space.
func shown(r rune) rune {
	if unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r) || r == utf8.RuneError {
		return ' '
	}
	return r
}
