package ui

import (
	"fmt"
	"io"
	"os"

	tea "charm.land/bubbletea/v2"

	"github.com/chipchat/chipchat/clipboard"
	"github.com/chipchat/chipchat/composer"
	"github.com/chipchat/chipchat/config"
	"github.com/chipchat/chipchat/internal/paste"
	"github.com/chipchat/chipchat/workspace"
)

// Huge pastes (issue 14). Bubble Tea collects a bracketed paste into one
// string, so a paste of more than paste.DefaultThreshold is taken off the
// input before it parses it (package paste's Filter, the program's
// tea.WithInput) and streamed straight into the asset store as a
// pasted-text chip: the app gets one small message, never the text. Past
// [limits] attachment_bytes the paste is refused as soon as it passes the
// limit, with a toast that says how to raise it, and the composer is left
// as it was. While a large paste streams in, the UI keeps drawing (a toast
// counts the bytes).

// largePastedMsg is a large paste stored and bound to a local id.
type largePastedMsg struct {
	localID string
	size    int64
	err     error
}

// NewPasteFilter is the program's input over the terminal in, and the
// tea.WithFilter function that goes with it:
//
//	pf, filter := app.NewPasteFilter(os.Stdin)
//	p := tea.NewProgram(app, tea.WithInput(pf), tea.WithFilter(filter))
//	pf.SetSend(p.Send)
func (a *App) NewPasteFilter(in *os.File) (*paste.Filter, func(tea.Model, tea.Msg) tea.Msg) {
	c := a.clip
	pf := paste.NewFilter(in, paste.Options{Limit: a.opt.Workspace.PasteLimit(), Store: c.pasteStore()})
	return pf, func(m tea.Model, msg tea.Msg) tea.Msg { return c.filterPaste(pf.Translate(m, msg)) }
}

// pasteStore is the filter's Store: the paste's bytes, line ends and
// controls normalized as the draft would (CR, CRLF → LF), streamed into
// the asset store and bound to a fresh local id. It runs in the filter's
// goroutine: it touches no state of the clip.
func (c *clip) pasteStore() func(io.Reader) tea.Msg {
	ws := c.ws
	return func(r io.Reader) tea.Msg {
		local, size, err := ws.KeepStream(clipboard.NewNormalizer(r))
		return largePastedMsg{localID: local, size: size, err: err}
	}
}

// filterPaste turns the paste filter's messages into the app's own. It
// runs on the program's event loop, before Update, so it may use the
// clip's state.
func (c *clip) filterPaste(msg tea.Msg) tea.Msg {
	switch m := msg.(type) {
	case paste.StartedMsg:
		return composer.NoticeMsg{Text: "receiving a long paste…"}
	case paste.ProgressMsg:
		return composer.NoticeMsg{Text: "receiving a long paste: " + workspace.HumanSize(m.Bytes) + "…"}
	case paste.EndedMsg:
		if m.Refused {
			return nil
		}
		return composer.NoticeMsg{Text: "storing the long paste (" + workspace.HumanSize(m.Bytes) + ")…"}
	case paste.RefusedMsg:
		return composer.NoticeMsg{Text: c.refusedNote(m.Limit), Err: true}
	case largePastedMsg:
		if m.err != nil {
			if limit, ok := workspace.TooLarge(m.err); ok {
				return composer.NoticeMsg{Text: c.refusedNote(limit), Err: true}
			}
			return pastedFileMsg{err: m.err}
		}
		c.seq++
		return pastedFileMsg{rec: workspace.PasteRecord(m.localID, m.size, c.seq)}
	}
	return msg
}

// refusedNote says a paste was over the limit and how to raise it.
func (c *clip) refusedNote(limit int64) string {
	path := c.config
	if path == "" {
		path = config.Path()
	}
	return fmt.Sprintf("paste refused: it is over the %s limit; the composer is unchanged — raise it with [limits] attachment_bytes = %d in %s",
		workspace.HumanSize(limit), 10*limit, path)
}
