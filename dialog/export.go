package dialog

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/chipchat/chipchat/chips"
	"github.com/chipchat/chipchat/composer"
	"github.com/chipchat/chipchat/ui/keymap"
	"github.com/chipchat/chipchat/workspace"
)

// Export is the /export prompt: the file the thread is written to, shown
// and editable; enter writes it (an existing file only after a second
// enter), the copy key copies the Markdown instead.
type Export struct {
	k         *keymap.Keys
	dir, home string
	input     composer.Field
	asked     string // the path the user was told exists: enter again overwrites it
	err       string
	busy      bool
}

// NewExport is the prompt with path filled in.
func NewExport(k *keymap.Keys, path, dir, home string) *Export {
	p := &Export{k: k, dir: dir, home: home}
	p.input.Set(path)
	return p
}

// ExportWrite asks the app to write the thread to Path (Overwrite: the
// user said so); ExportCopy to copy it; ExportDone is the write's end,
// delivered by the app.
type (
	ExportWrite struct {
		Path      string
		Overwrite bool
	}
	ExportCopy struct{}
	ExportDone struct {
		Err    error
		Exists bool // Err is the refusal to overwrite
	}
)

func (p *Export) Scope() keymap.Scope { return keymap.ScopeExport }

func (p *Export) Hints() string {
	k := p.k
	return keymap.Join(keymap.Hint(k.ExportWrite, "write"), keymap.Hint(k.ExportCopy, "copy instead"), keymap.Hint(k.ExportCancel, "cancel"))
}

func (p *Export) Update(m tea.Msg) (Overlay, tea.Cmd, any) {
	k := p.k
	switch msg := m.(type) {
	case ExportDone:
		p.busy = false
		switch {
		case msg.Err == nil:
			return nil, nil, nil
		case msg.Exists:
			p.asked, p.err = p.path(), "the file exists: enter again overwrites it"
		default:
			p.err = chips.SanitizeLine(msg.Err.Error())
		}
	case tea.PasteMsg:
		p.input.Insert(strings.TrimSpace(chips.SanitizeLine(msg.Content)))
	case tea.KeyPressMsg:
		switch {
		case p.busy:
		case key.Matches(msg, k.ExportCancel):
			return nil, nil, nil
		case key.Matches(msg, k.ExportCopy):
			return nil, nil, ExportCopy{}
		case key.Matches(msg, k.ExportWrite) && p.path() != "":
			p.busy = true
			return p, nil, ExportWrite{Path: p.path(), Overwrite: p.asked == p.path()}
		default:
			p.input.Key(k.FieldKeys(), msg)
			p.err = ""
		}
	}
	return p, nil, nil
}

func (p *Export) path() string {
	return workspace.ExpandPath(strings.TrimSpace(p.input.String()), p.dir, p.home)
}

func (p *Export) View(width, _ int) []string {
	lines := []string{"Export the thread as Markdown to:"}
	if p.busy {
		lines = append(lines, "writing…")
	}
	if p.err != "" {
		lines = append(lines, p.err)
	}
	for i := range lines {
		lines[i] = chips.Truncate(chips.SanitizeLine(lines[i]), width)
	}
	return append(lines[:1], append([]string{p.input.View("> ", width)}, lines[1:]...)...)
}
