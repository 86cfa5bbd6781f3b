package dialog

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/chipchat/chipchat/chips"
	"github.com/chipchat/chipchat/composer"
	"github.com/chipchat/chipchat/ui/keymap"
)

// Search is the transcript's search field (/): one line on the footer
// row with the table's field_* keys; enter keeps the query (SearchQuery),
// esc closes it with the search unchanged.
type Search struct {
	k *keymap.Keys
	f composer.Field
}

// NewSearch is the field holding query (the search kept).
func NewSearch(k *keymap.Keys, query string) *Search {
	s := &Search{k: k}
	s.f.Set(query)
	return s
}

// SearchQuery asks the app to search the thread for Text ("": no search).
type SearchQuery struct{ Text string }

func (p *Search) Placement() Placement { return OnFooter }
func (p *Search) Scope() keymap.Scope  { return keymap.ScopeSearch }
func (p *Search) Hints() string        { return "" }

func (p *Search) Update(m tea.Msg) (Overlay, tea.Cmd, any) {
	switch msg := m.(type) {
	case tea.PasteMsg:
		p.f.Insert(strings.Join(strings.Fields(chips.SanitizeLine(msg.Content)), " "))
	case tea.KeyPressMsg:
		switch {
		case key.Matches(msg, p.k.SearchCancel):
			return nil, nil, nil
		case key.Matches(msg, p.k.SearchGo):
			return nil, nil, SearchQuery{p.f.String()}
		}
		p.f.Key(p.k.FieldKeys(), msg)
	}
	return p, nil, nil
}

func (p *Search) View(width, _ int) []string {
	tail := "  " + keymap.Join(keymap.Hint(p.k.SearchGo, "search"), keymap.Hint(p.k.SearchCancel, "close"))
	w := max(width-ansi.StringWidth(tail), 12)
	return []string{chips.Truncate(p.f.View(" / ", w)+tail, width)}
}
