package terminal

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// AppKeys are the app's keys while the pane has the focus (from the app's
// key table): leave it, hide it, close the shown terminal, add one, switch,
// zoom and move the split to the side.
type AppKeys struct{ Leave, Hide, Close, New, Next, Prev, Zoom, Side key.Binding }

// Action is what an app key asks of the app after the pane acted.
type Action int

const (
	ActNone   Action = iota // done here (or the key went to the pane)
	ActLeave                // the app gives the focus back to the composer
	ActHide                 // the app hides the pane
	ActClose                // the app closes the shown terminal (it may refuse)
	ActLayout               // the layout changed: the app lays out again
)

// AppKey handles a key while the pane has the focus: the app's keys the
// pane does itself (new, next, previous, zoom, side; leave, hide and close
// are not taken in copy mode), else the pane's own (copy mode, the shell).
func (p *Pane) AppKey(msg tea.KeyPressMsg, k AppKeys) (tea.Cmd, Action) {
	copying := p.InCopyMode()
	switch {
	case key.Matches(msg, k.Leave) && !copying:
		return nil, ActLeave
	case key.Matches(msg, k.Hide) && !copying:
		return nil, ActHide
	case key.Matches(msg, k.Close) && !copying:
		return nil, ActClose
	case key.Matches(msg, k.New):
		return p.NewTerminal(), ActNone
	case key.Matches(msg, k.Next):
		p.Next(1)
		return nil, ActNone
	case key.Matches(msg, k.Prev):
		p.Next(-1)
		return nil, ActNone
	case key.Matches(msg, k.Zoom):
		if p.Layout == LayoutZoomed {
			p.Layout = LayoutSplit
		} else {
			p.Layout = LayoutZoomed
		}
		return nil, ActLayout
	case key.Matches(msg, k.Side):
		p.Right = !p.Right
		p.Layout = LayoutSplit
		return nil, ActLayout
	}
	_, cmd := p.Update(msg)
	return cmd, ActNone
}

// Split divides the app's area w×h between the transcript and the pane
// (shown false: the pane takes nothing): the pane zoomed takes it all;
// split, it takes the bottom half or, Right, the right half.
func (p *Pane) Split(w, h int, shown bool) (trW, trH, pw, ph int) {
	if !shown {
		return w, h, 0, 0
	}
	switch {
	case p.Layout == LayoutZoomed:
		return 0, 0, w, h
	case p.Right:
		pw = w / 2
		return w - pw - 1, h, pw, h
	default:
		ph = max(h/2, 3)
		return w, max(h-ph, 1), w, ph
	}
}
