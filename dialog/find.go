package dialog

import (
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/chipchat/chipchat/chips"
	"github.com/chipchat/chipchat/composer"
	"github.com/chipchat/chipchat/ui/keymap"
	"github.com/chipchat/chipchat/workspace"
)

// Find is the search of every thread (ctrl+f in the thread list; issue 27
// item 2): a field, and the messages found (by the store's full-text
// index, asked by the app as the query changes) as rows of thread, age and
// the matching line with the match marked; tab toggles every project,
// enter opens the thread at the message.
type Find struct {
	k     *keymap.Keys
	now   func() time.Time
	f     composer.Field
	every bool
	gen   int // the last query asked
	found []workspace.Found
	err   string
	sel   int
}

// NewFind is the search, empty, of this project's threads.
func NewFind(k *keymap.Keys, now func() time.Time) *Find { return &Find{k: k, now: now} }

// What the search asks of the app: the messages for a query (answered
// with Found, Gen the query's), or the thread opened at a message.
type (
	FindAsk struct {
		Gen   int
		Text  string
		Every bool
	}
	FindFound struct {
		Gen   int
		Found []workspace.Found
		Err   error
	}
	FindOpen  struct{ ThreadID, MessageID string }
	FindStart struct{} // the thread list's search key: the list gives way to the search
)

func (p *Find) Scope() keymap.Scope { return keymap.ScopeFind }

func (p *Find) Hints() string {
	k := p.k
	scope := "every project"
	if p.every {
		scope = "this project"
	}
	return keymap.Join(keymap.Hint(k.FindOpen, "open at the message"), keymap.Hint(k.FindScope, scope), keymap.Hint(k.FindClose, "close"))
}

func (p *Find) ask() any {
	p.gen++
	return FindAsk{Gen: p.gen, Text: p.f.String(), Every: p.every}
}

func (p *Find) Update(m tea.Msg) (Overlay, tea.Cmd, any) {
	k := p.k
	switch msg := m.(type) {
	case FindFound:
		if msg.Gen == p.gen {
			p.found, p.sel, p.err = msg.Found, 0, ""
			if msg.Err != nil {
				p.err = chips.SanitizeLine(msg.Err.Error())
			}
		}
	case tea.PasteMsg:
		p.f.Insert(strings.Join(strings.Fields(chips.SanitizeLine(msg.Content)), " "))
		return p, nil, p.ask()
	case tea.KeyPressMsg:
		switch {
		case key.Matches(msg, k.FindClose):
			return nil, nil, nil
		case key.Matches(msg, k.FindOpen):
			if p.sel < len(p.found) {
				f := p.found[p.sel]
				return nil, nil, FindOpen{ThreadID: f.ThreadID, MessageID: f.MessageID}
			}
		case key.Matches(msg, k.FindScope):
			p.every = !p.every
			return p, nil, p.ask()
		case key.Matches(msg, k.ListNext):
			p.sel = min(p.sel+1, max(len(p.found)-1, 0))
		case key.Matches(msg, k.ListPrev):
			p.sel = max(p.sel-1, 0)
		default:
			before := p.f.String()
			if p.f.Key(k.FieldKeys(), msg) && p.f.String() != before {
				return p, nil, p.ask()
			}
		}
	}
	return p, nil, nil
}

func (p *Find) View(width, height int) []string {
	title := "Search the messages of this project's threads"
	if p.every {
		title = "Search the messages of every project's threads"
	}
	lines := []string{chips.Truncate(title, width), p.f.View("> ", width)}
	switch {
	case p.err != "":
		lines = append(lines, chips.Truncate(p.err, width))
	case strings.TrimSpace(p.f.String()) != "" && len(p.found) == 0:
		lines = append(lines, "no message found")
	}
	now := p.now()
	for i, f := range p.found {
		if len(lines) >= max(height, 3) {
			break
		}
		mark := "  "
		if i == p.sel {
			mark = "> "
		}
		head := mark + chips.Truncate(f.Title, 30) + " · " + f.Age(now) + " · "
		lines = append(lines, head+markedView(f, width-len([]rune(head))))
	}
	return lines
}

// markedView is the found line cut to w cells, its matches in reverse video.
func markedView(f workspace.Found, w int) string {
	line := chips.Truncate(f.Line, max(w, 1))
	keep := len(line) // the bytes of f.Line kept
	if line != f.Line {
		keep = len(strings.TrimSuffix(line, "…"))
	}
	var b strings.Builder
	at := 0
	for _, m := range f.Marks {
		if m[0] >= keep {
			break
		}
		to := min(m[1], keep)
		b.WriteString(line[at:m[0]] + "\x1b[7m" + line[m[0]:to] + "\x1b[27m")
		at = to
	}
	b.WriteString(line[at:])
	return b.String()
}
