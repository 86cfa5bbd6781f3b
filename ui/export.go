package ui

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/chipchat/chipchat/contextref"
	"github.com/chipchat/chipchat/export"
	"github.com/chipchat/chipchat/ui/overlay"
	"github.com/chipchat/chipchat/workspace"
)

// /export (package export makes and writes the Markdown; the prompt is
// overlay.Export): the thread is read from the store in a command.
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
		done := a.deliver(overlay.Is[*overlay.Export], overlay.ExportDone{Err: m.err, Exists: errors.Is(m.err, export.ErrExists)})
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
// after the thread's title and today).
func (c *conversation) openExport(path, dir, home string) tea.Cmd {
	if path == "" {
		d, err := export.Dir(os.Getenv)
		if err != nil {
			return c.notify(err.Error(), true)
		}
		path = filepath.Join(d, export.FileName(c.thread.Title, time.Now(), "md"))
	}
	c.ovs.Push(overlay.NewExport(c.keys, path, dir, home))
	return nil
}

// exportThread reads the open thread and hands its Markdown to done.
func (c *conversation) exportThread(done func(o workspace.Opened, md string, err error) tea.Msg) tea.Cmd {
	load := c.ws.Load(c.thread.ID)
	return func() tea.Msg {
		o, err := load()
		if err == nil && len(o.Messages) == 0 {
			err = errors.New("the thread has no messages yet")
		}
		if err != nil {
			return done(o, "", err)
		}
		return done(o, export.Markdown(o, time.Local), nil)
	}
}

func (c *conversation) exportTo(w overlay.ExportWrite) tea.Cmd {
	return c.exportThread(func(_ workspace.Opened, md string, err error) tea.Msg {
		if err == nil {
			err = export.Write(w.Path, []byte(md), w.Overwrite)
		}
		return exportedMsg{w.Path, err}
	})
}

func (c *conversation) exportCopy() tea.Cmd {
	return c.exportThread(func(o workspace.Opened, md string, err error) tea.Msg {
		return exportCopyMsg{md, export.Records(o), err}
	})
}
