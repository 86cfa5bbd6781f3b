package terminal

import (
	"os"
	"slices"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/chipchat/chipchat/contextref"
)

// Keys the pane keeps for itself while it has focus; every other key goes
// to the shell.
const (
	ToggleKey       = "ctrl+t"     // back to the composer (FocusComposerMsg)
	CopyModeKey     = "ctrl+space" // enter copy mode (also ctrl+@)
	QuickCaptureKey = "alt+o"      // capture the last command's output
)

// CaptureMsg carries a terminal excerpt to put into the composer.
type CaptureMsg struct{ Record *contextref.TerminalRecord }

// FocusComposerMsg asks the app to give the focus back to the composer.
type FocusComposerMsg struct{}

// CaptureFailedMsg says a capture found nothing (for a toast).
type CaptureFailedMsg struct{ Reason string }

// Layout of the pane in the app.
type Layout int

const (
	LayoutSplit Layout = iota
	LayoutZoomed
)

type copyState struct {
	line      int64 // absolute line of the copy cursor
	col       int
	selecting bool
	anchor    int64
}

// Pane is the Bubble Tea component: several terminals, one shown, with a
// title row and copy mode. View never does I/O: it reads the visible rows
// under the terminal's lock.
type Pane struct {
	Dir   string   // working directory of new shells
	Shell []string // argv of new shells (default: $SHELL, else /bin/sh)
	Spawn Spawn    // makes new shells' and ! commands' commands (nil: here)
	// CommandShell runs ! commands (StartShellCommand): "" means Shell's
	// program, else $SHELL, else /bin/sh. A remote project's is sh there.
	CommandShell string
	Scrollback   int // lines of history per terminal (default 10,000)
	Layout       Layout
	Right        bool // split beside the transcript rather than below it
	Focused      bool
	// Keys the pane keeps from the shell (configurable by the app).
	CopyModeKeys     []string // default ctrl+space, ctrl+@
	QuickCaptureKeys []string // default alt+o

	terms  []*Terminal
	active int
	nextN  int
	nonce  int

	width, height int
	viewOff       int64 // lines scrolled back from the live screen
	cp            *copyState
}

// NewPane makes an empty pane; Open starts its first terminal.
func NewPane(dir string) *Pane {
	return &Pane{Dir: dir, Scrollback: 10000, width: 80, height: 24,
		CopyModeKeys: []string{CopyModeKey, "ctrl+@"}, QuickCaptureKeys: []string{QuickCaptureKey}}
}

// SetSize sets the pane's size in cells (title row included) and resizes
// every terminal to follow.
func (p *Pane) SetSize(w, h int) {
	if w < 1 {
		w = 1
	}
	if h < 2 {
		h = 2
	}
	p.width, p.height = w, h
	for _, t := range p.terms {
		t.Resize(w, h-1)
	}
}

// Terminals returns the terminals in order; Active the shown one (or nil).
func (p *Pane) Terminals() []*Terminal { return p.terms }

// Active returns the shown terminal, or nil.
func (p *Pane) Active() *Terminal {
	if p.active < len(p.terms) {
		return p.terms[p.active]
	}
	return nil
}

// Open makes sure a terminal runs (starting "Terminal 1" when there is
// none) and returns the command that listens to it.
func (p *Pane) Open() tea.Cmd {
	if len(p.terms) > 0 {
		return nil
	}
	return p.NewTerminal()
}

// NewTerminal starts another terminal ("Terminal N", id "term-N"), shows it
// and returns the command that listens to it.
func (p *Pane) NewTerminal() tea.Cmd {
	p.nextN++
	n := strconv.Itoa(p.nextN)
	t := NewTerminal("term-"+n, "Terminal "+n, p.width, p.height-1, p.Scrollback)
	t.Spawn = p.Spawn
	p.terms = append(p.terms, t)
	p.active = len(p.terms) - 1
	p.viewOff, p.cp = 0, nil
	return p.start(t)
}

func (p *Pane) start(t *Terminal) tea.Cmd {
	dir := p.Dir
	if dir == "" {
		dir, _ = os.Getwd()
	}
	if err := t.Start(dir, p.Shell...); err != nil {
		t.Do(func(s *Screen) { s.Write([]byte("[cannot start shell: " + err.Error() + "]\r\n")) })
		return nil
	}
	return t.Wait()
}

// Add puts a terminal started by someone else (an agent's command) in the
// pane as a new tab, sized to the pane, and returns the command that
// listens to it. It shows the tab only when the pane had none, so the
// user's view does not jump; Show brings it up.
func (p *Pane) Add(t *Terminal) tea.Cmd {
	t.Resize(p.width, p.height-1)
	p.terms = append(p.terms, t)
	if len(p.terms) == 1 {
		p.active = 0
		p.viewOff, p.cp = 0, nil
	}
	return t.Wait()
}

// Show makes terminal id the shown one; false when there is no such tab.
func (p *Pane) Show(id string) bool {
	for i, t := range p.terms {
		if t.ID == id {
			if i != p.active {
				p.active = i
				p.viewOff, p.cp = 0, nil
			}
			return true
		}
	}
	return false
}

// Remove takes terminal id out of the pane and returns it (nil when there
// is none), leaving its process alone: the caller closes it, away from
// the UI goroutine (Close waits for the processes to end).
func (p *Pane) Remove(id string) *Terminal {
	for i, t := range p.terms {
		if t.ID != id {
			continue
		}
		shown := p.Active()
		p.terms = append(p.terms[:i:i], p.terms[i+1:]...)
		switch {
		case shown == t:
			p.active = min(i, max(len(p.terms)-1, 0))
			p.viewOff, p.cp = 0, nil
		case i < p.active:
			p.active--
		}
		return t
	}
	return nil
}

// Next shows the next terminal (delta -1: the previous one).
func (p *Pane) Next(delta int) {
	if len(p.terms) == 0 {
		return
	}
	p.active = ((p.active+delta)%len(p.terms) + len(p.terms)) % len(p.terms)
	p.viewOff, p.cp = 0, nil
}

// CloseActive ends the shown terminal's processes and removes it.
func (p *Pane) CloseActive() {
	t := p.Active()
	if t == nil {
		return
	}
	t.Close()
	p.terms = append(p.terms[:p.active], p.terms[p.active+1:]...)
	if p.active >= len(p.terms) && p.active > 0 {
		p.active--
	}
	p.viewOff, p.cp = 0, nil
}

// CloseAll ends every terminal (call on quit: no orphans).
func (p *Pane) CloseAll() {
	for _, t := range p.terms {
		t.Close()
	}
	p.terms = nil
}

// InCopyMode reports whether copy mode is on.
func (p *Pane) InCopyMode() bool { return p.cp != nil }

func (p *Pane) byID(id string) *Terminal {
	for _, t := range p.terms {
		if t.ID == id {
			return t
		}
	}
	return nil
}

// Update handles terminal messages always, and keys, mouse and paste when
// the pane has focus.
func (p *Pane) Update(msg tea.Msg) (*Pane, tea.Cmd) {
	switch msg := msg.(type) {
	case UpdatedMsg:
		if t := p.byID(msg.ID); t != nil {
			return p, t.Wait()
		}
	case ExitedMsg:
		return p, nil
	case tea.PasteMsg:
		if p.Focused && p.cp == nil {
			p.paste(msg.Content)
		}
	case tea.MouseWheelMsg:
		if p.Focused {
			p.wheel(msg.Button)
		}
	case tea.KeyPressMsg:
		if p.Focused {
			return p, p.key(msg)
		}
	}
	return p, nil
}

func (p *Pane) paste(s string) {
	t := p.Active()
	if t == nil {
		return
	}
	bracket := false
	t.Do(func(sc *Screen) { bracket = sc.BracketedPaste() })
	s = strings.ReplaceAll(s, "\r\n", "\r")
	s = strings.ReplaceAll(s, "\n", "\r")
	if bracket {
		s = strings.ReplaceAll(s, "\x1b[201~", "")
		s = "\x1b[200~" + s + "\x1b[201~"
	}
	_ = t.Write([]byte(s))
	p.viewOff = 0
}

func (p *Pane) wheel(b tea.MouseButton) {
	t := p.Active()
	if t == nil {
		return
	}
	alt, app := false, false
	t.Do(func(s *Screen) { alt, app = s.AltScreen(), s.AppCursorKeys() })
	up := b == tea.MouseWheelUp
	if b != tea.MouseWheelUp && b != tea.MouseWheelDown {
		return
	}
	if alt && p.cp == nil {
		// full-screen programs get arrows, as in other terminals
		k := tea.KeyPressMsg{Code: tea.KeyDown}
		if up {
			k.Code = tea.KeyUp
		}
		seq := KeyBytes(k, app)
		_ = t.Write([]byte(strings.Repeat(string(seq), 3)))
		return
	}
	if up {
		p.scroll(3)
	} else {
		p.scroll(-3)
	}
}

// scroll moves the view back (n > 0) or forward in the history.
func (p *Pane) scroll(n int64) {
	t := p.Active()
	if t == nil {
		return
	}
	var maxOff int64
	t.Do(func(s *Screen) { maxOff = s.ScreenTop() - s.FirstLine() })
	p.viewOff = min(max(p.viewOff+n, 0), maxOff)
}

func (p *Pane) key(k tea.KeyPressMsg) tea.Cmd {
	t := p.Active()
	ks := k.String()
	if ks == ToggleKey {
		return func() tea.Msg { return FocusComposerMsg{} }
	}
	if t == nil {
		return p.Open()
	}
	if p.cp != nil {
		return p.copyKey(k)
	}
	switch {
	case slices.Contains(p.CopyModeKeys, ks):
		t.Do(func(s *Screen) {
			x, _, _ := s.Cursor()
			p.cp = &copyState{line: s.CursorLine() - p.viewOff, col: x}
		})
		return nil
	case slices.Contains(p.QuickCaptureKeys, ks):
		return p.capture(func(s *Screen) (*contextref.TerminalRecord, error) {
			return QuickCapture(s, t.ID, t.Label, p.nextNonce())
		})
	case ks == "shift+pgup":
		p.scroll(int64(p.height-1) / 2)
		return nil
	case ks == "shift+pgdown":
		p.scroll(-int64(p.height-1) / 2)
		return nil
	}
	if exited, _ := t.Exited(); exited && !t.Running() {
		if t.NoRestart {
			return nil
		}
		p.viewOff = 0
		return p.start(t)
	}
	app := false
	t.Do(func(s *Screen) { app = s.AppCursorKeys() })
	if b := KeyBytes(k, app); b != nil {
		_ = t.Write(b)
		p.viewOff = 0
	}
	return nil
}

func (p *Pane) nextNonce() string {
	p.nonce++
	return strconv.Itoa(p.nonce)
}

func (p *Pane) capture(f func(s *Screen) (*contextref.TerminalRecord, error)) tea.Cmd {
	t := p.Active()
	var rec *contextref.TerminalRecord
	var err error
	t.Do(func(s *Screen) { rec, err = f(s) })
	if err != nil {
		reason := err.Error()
		return func() tea.Msg { return CaptureFailedMsg{Reason: reason} }
	}
	return func() tea.Msg { return CaptureMsg{Record: rec} }
}

func (p *Pane) copyKey(k tea.KeyPressMsg) tea.Cmd {
	t := p.Active()
	var first, last int64
	var cols int
	t.Do(func(s *Screen) { first, last = s.FirstLine(), s.LastLine(); cols, _ = s.Size() })
	rows := int64(p.height - 1)
	c := p.cp
	switch k.String() {
	case "esc", "q", CopyModeKey, "ctrl+@":
		p.cp, p.viewOff = nil, 0
		return nil
	case "up", "k":
		c.line--
	case "down", "j":
		c.line++
	case "left", "h":
		c.col--
	case "right", "l":
		c.col++
	case "pgup", "ctrl+b":
		c.line -= rows
	case "pgdown", "ctrl+f":
		c.line += rows
	case "g", "home":
		c.line = first
	case "G", "shift+g", "end":
		c.line = last
	case "0":
		c.col = 0
	case "$":
		c.col = cols - 1
	case "v", "V", "space", " ", "shift+v":
		if c.selecting {
			c.selecting = false
		} else {
			c.selecting, c.anchor = true, c.line
		}
	case "y", "enter":
		a, b := c.line, c.line
		if c.selecting {
			a = c.anchor
		}
		p.cp, p.viewOff = nil, 0
		return p.capture(func(s *Screen) (*contextref.TerminalRecord, error) {
			return CaptureLines(s, t.ID, t.Label, a, b, p.nextNonce())
		})
	}
	c.line = min(max(c.line, first), last)
	c.col = min(max(c.col, 0), cols-1)
	// keep the copy cursor in view
	var top int64
	t.Do(func(s *Screen) { top = s.ScreenTop() })
	viewTop := top - p.viewOff
	if c.line < viewTop {
		p.viewOff = top - c.line
	} else if c.line >= viewTop+rows {
		p.viewOff = max(top-(c.line-rows+1), 0)
	}
	return nil
}

// View draws the title row and the visible rows of the active terminal.
func (p *Pane) View() string {
	var b strings.Builder
	b.WriteString(p.title())
	t := p.Active()
	if t == nil {
		return b.String()
	}
	var rows []string
	t.Do(func(s *Screen) {
		top := s.ScreenTop() - p.viewOff
		var hl Highlight
		if c := p.cp; c != nil {
			lo, hi := c.line, c.line
			if c.selecting {
				lo, hi = min(c.anchor, c.line), max(c.anchor, c.line)
			}
			hl = func(x int, n int64) bool {
				if c.selecting && n >= lo && n <= hi {
					return true
				}
				return n == c.line && x == c.col
			}
		} else if p.viewOff == 0 && p.Focused {
			x, y, vis := s.Cursor()
			if vis {
				cl := s.ScreenTop() + int64(y)
				hl = func(cx int, n int64) bool { return n == cl && cx == x }
			}
		}
		rows = s.Render(top, hl)
	})
	for _, r := range rows {
		b.WriteByte('\n')
		b.WriteString(r)
	}
	return b.String()
}

func (p *Pane) title() string {
	var parts []string
	for i, t := range p.terms {
		label := t.Label
		if ex, _ := t.Exited(); ex && !t.Running() {
			label += " [" + t.ExitNote() + "]"
		}
		if i == p.active {
			label = "\x1b[7m " + label + " \x1b[m"
		} else {
			label = " " + label + " "
		}
		parts = append(parts, label)
	}
	s := strings.Join(parts, "│")
	var extra string
	if p.cp != nil {
		// numbered from 1, as the capture's label will be
		extra = " COPY line " + strconv.FormatInt(p.cp.line+1, 10)
		if p.cp.selecting {
			lo, hi := min(p.cp.anchor, p.cp.line), max(p.cp.anchor, p.cp.line)
			extra = " COPY lines " + strconv.FormatInt(lo+1, 10) + "-" + strconv.FormatInt(hi+1, 10)
		}
		extra += " · v select · y capture · esc leave"
	} else if p.viewOff > 0 {
		extra = " [scrollback -" + strconv.FormatInt(p.viewOff, 10) + "]"
	}
	if t := p.Active(); t != nil {
		var title string
		t.Do(func(sc *Screen) { title = sc.Title() })
		if title != "" {
			extra += " — " + title
		}
	}
	return ansi.Truncate(s+extra, p.width, "…")
}
