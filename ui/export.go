package ui

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/chipchat/chipchat/contextref"
	"github.com/chipchat/chipchat/dialog"
	"github.com/chipchat/chipchat/export"
	"github.com/chipchat/chipchat/ui/overlay"
)

// /export (package export makes and writes the Markdown; the prompt is
// dialog.Export): the thread is read from the store in a command.
type (
	exportedMsg struct {
		path string
		err  error
	}
	exportCopyMsg struct {
		md   string
		recs []contextref.Record
		err  error
	}
)

func exportRows(add func(reflect.Type, handler)) {
	add(on(func(a *App, m exportedMsg) tea.Cmd {
		done := a.deliver(overlay.Is[*dialog.Export], dialog.ExportDone{Err: m.err, Exists: errors.Is(m.err, export.ErrExists)})
		if m.err != nil {
			return done
		}
		return tea.Batch(done, a.notify("exported to "+m.path, false))
	}))
	add(on(func(a *App, m exportCopyMsg) tea.Cmd {
		if m.err != nil {
			return a.failed("export: ", m.err)
		}
		return a.clip.copyText(m.md, m.recs, contextref.FragmentSource{ThreadID: a.thread.ID}, "the thread")
	}))
}

// openExport opens the prompt at path ("": the exports dir's file named
// after the thread's title and the day of now, the app's clock).
func (c *conversation) openExport(path, dir, home string, now time.Time) tea.Cmd {
	if path == "" {
		d, err := export.Dir(os.Getenv)
		if err != nil {
			return c.notify(err.Error(), true)
		}
		path = filepath.Join(d, export.FileName(c.thread.Title, now, "md"))
	}
	c.ovs.Push(dialog.NewExport(c.keys, path, dir, home))
	return nil
}

// exportTo and exportCopy read the open thread from the store in a
// command (export.ToFile, export.ForCopy).
func (c *conversation) exportTo(w dialog.ExportWrite) tea.Cmd {
	load := c.ws.Load(c.thread.ID)
	return func() tea.Msg { return exportedMsg{w.Path, export.ToFile(load, w.Path, w.Overwrite)} }
}

func (c *conversation) exportCopy() tea.Cmd {
	load := c.ws.Load(c.thread.ID)
	return func() tea.Msg { md, recs, err := export.ForCopy(load); return exportCopyMsg{md, recs, err} }
}
