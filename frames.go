package main

import (
	"io"
	"os"
	"sync"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"github.com/chipchat/chipchat/tty"
)

// Package tty draws the app's frames (only the lines that changed, no
// ticker) unless CHIPCHAT_RENDERER=bubbletea asks for Bubble Tea's own
// renderer, kept for a terminal that shows tty's frames wrong.
func useBubbleTeaRenderer() bool { return os.Getenv("CHIPCHAT_RENDERER") == "bubbletea" }

// framedModel hands every View to the tty.Terminal; Bubble Tea runs
// without its renderer. input: the message just handled was input, so
// its frame goes at once (Bubble Tea calls View after every Update).
type framedModel struct {
	tea.Model
	t     *tty.Terminal
	input bool
}

func (m framedModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	var input bool
	switch msg.(type) {
	case tea.KeyPressMsg, tea.MouseMsg, tea.PasteMsg, tea.WindowSizeMsg:
		input = true
	}
	inner, cmd := m.Model.Update(msg)
	return framedModel{inner, m.t, input}, cmd
}

func (m framedModel) View() tea.View {
	v := m.Model.View()
	m.t.Frame(v.Content, tty.Modes{Mouse: v.MouseMode != tea.MouseModeNone, Focus: v.ReportFocus, Title: v.WindowTitle}, m.input)
	return v
}

// lateSend is p.Send once the program exists; sizes that come before are
// dropped (the program starts with the size Open read).
type lateSend struct {
	mu   sync.Mutex
	send func(tea.Msg)
}

func (l *lateSend) set(f func(tea.Msg)) {
	l.mu.Lock()
	l.send = f
	l.mu.Unlock()
}

func (l *lateSend) resized(cols, rows int) {
	l.mu.Lock()
	f := l.send
	l.mu.Unlock()
	if f != nil {
		f(tea.WindowSizeMsg{Width: cols, Height: rows})
	}
}

// openFrames takes the terminal for the app: the model wrapped so its
// frames go to the tty.Terminal, and the options that run Bubble Tea
// without its renderer (its ticker, which only flushes the queries and
// sequences the app no longer sends through it, once a second). out is
// where the bytes go (the terminal, or the key trace's wrapper of it).
func openFrames(model tea.Model, out io.Writer, send *lateSend) (tea.Model, []tea.ProgramOption, *tty.Terminal, error) {
	t, err := tty.Open(os.Stdin, os.Stdout, tty.Options{
		Profile:  colorprofile.Detect(os.Stdout, os.Environ()),
		OnResize: send.resized,
		Out:      out,
	})
	if err != nil {
		return nil, nil, nil, err
	}
	cols, rows := t.Size()
	return framedModel{Model: model, t: t}, []tea.ProgramOption{tea.WithoutRenderer(), tea.WithFPS(1), tea.WithWindowSize(cols, rows)}, t, nil
}
