package ui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/chipchat/chipchat/composer"
	"github.com/chipchat/chipchat/contextref"
	"github.com/chipchat/chipchat/workspace"
)

type droppedImageMsg struct {
	mark composer.PasteMark
	rec  contextref.Record
	err  error
}

// pasteImagePath: a paste that is one image file's path (a dropped
// screenshot) goes in as text, then becomes the file's image chip; ctrl+z
// gives the text back (issue 25 item 22). ok false: paste it as usual.
func (c *clip) pasteImagePath(text string) (tea.Cmd, bool) {
	path, ok := workspace.PastedImagePath(text, c.home)
	if !ok || c.limits.LongPaste(text) {
		return nil, false
	}
	mark, attach := c.ed.PasteText(text), c.ws.AttachImage(path)
	return func() tea.Msg { rec, err := attach(); return droppedImageMsg{mark, rec, err} }, true
}

func (c *clip) droppedImage(m droppedImageMsg) tea.Cmd {
	if m.err != nil || !c.ed.ReplacePaste(m.mark, m.rec) {
		return nil // not an image, or edited since: the text stays
	}
	return c.toast.show("image "+m.rec.RecordBase().Label+" attached (ctrl+z gives the path back)", false)
}
