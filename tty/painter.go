package tty

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
)

// Modes are the terminal modes a frame asks for, besides those chipchat
// always sets (the alternate screen, bracketed paste, the keyboard
// protocol, the cursor hidden).
type Modes struct {
	Mouse bool   // button-event mouse reports, SGR encoded (modes 1002, 1006)
	Focus bool   // focus in and out reports (mode 1004)
	Title string // the window title (OSC 2)
}

// convCacheMax bounds the cache of SGR sequences converted to a smaller
// colour profile; past it the cache starts again empty.
const convCacheMax = 4096

// Painter turns frames into the bytes that bring the terminal from the
// last frame to this one. It is not safe for concurrent use; Terminal
// calls it from its writer goroutine.
type Painter struct {
	cols, rows int
	profile    colorprofile.Profile
	lines      []string // the lines on the screen, as the app gave them; len == rows once painted
	modes      Modes
	started    bool // Start's sequences were written
	full       bool // the next frame clears the screen and paints every line
	conv       map[string]string
	buf        bytes.Buffer
	next       []string         // Frame's split of the content (reused)
	at         map[string][]int // scroll's rows of each line on the screen (reused)
}

// NewPainter paints a cols×rows screen; lines with colours the profile
// lacks are converted to it (TrueColor: written as given).
func NewPainter(cols, rows int, profile colorprofile.Profile) *Painter {
	if profile <= colorprofile.NoTTY {
		profile = colorprofile.ASCII // cursor movement stays; colours go
	}
	return &Painter{cols: cols, rows: rows, profile: profile, full: true}
}

// Size is the screen's size as the painter knows it.
func (p *Painter) Size() (cols, rows int) { return p.cols, p.rows }

// Resize takes a new screen size: the next frame repaints every line.
func (p *Painter) Resize(cols, rows int) {
	p.cols, p.rows = cols, rows
	p.full = true
}

// Invalidate says the screen's content is unknown (another program drew
// on it): the next frame repaints every line.
func (p *Painter) Invalidate() { p.full = true }

// Start is what takes the terminal over: the alternate screen, the
// cursor hidden, bracketed paste, the keyboard protocol
// (modifyOtherKeys 2 and the kitty protocol's disambiguation, pushed on
// the alternate screen's stack, and asked for) and the modes of the last
// frame, if any. The next frame repaints every line.
func (p *Painter) Start() []byte {
	var b strings.Builder
	b.WriteString(ansi.SetModeAltScreenSaveCursor)
	b.WriteString(ansi.ResetModeTextCursorEnable)
	b.WriteString(ansi.SetModeBracketedPaste)
	b.WriteString(ansi.SetModifyOtherKeys2)
	b.WriteString(ansi.PushKittyKeyboard(1))
	b.WriteString(ansi.RequestKittyKeyboard)
	b.WriteString(modeChanges(Modes{}, p.modes))
	p.started = true
	p.full = true
	return []byte(b.String())
}

// Stop gives the terminal back as Start found it: the keyboard protocol
// popped (on the alternate screen, where it was pushed), the modes off,
// autowrap on (as every frame leaves it), the style reset, the cursor shown, the main screen back.
func (p *Painter) Stop() []byte {
	if !p.started {
		return nil
	}
	var b strings.Builder
	b.WriteString(ansi.ResetModifyOtherKeys)
	b.WriteString(ansi.PopKittyKeyboard(1))
	if p.modes.Mouse {
		b.WriteString(ansi.ResetModeMouseButtonEvent + ansi.ResetModeMouseAnyEvent + ansi.ResetModeMouseExtSgr)
	}
	if p.modes.Focus {
		b.WriteString(ansi.ResetModeFocusEvent)
	}
	b.WriteString(ansi.ResetModeBracketedPaste)
	b.WriteString(ansi.SetModeAutoWrap)
	b.WriteString(ansi.ResetStyle)
	b.WriteString(ansi.SetModeTextCursorEnable)
	b.WriteString(ansi.ResetModeAltScreenSaveCursor)
	p.started = false
	p.full = true
	return []byte(b.String())
}

// modeChanges is what turns the modes from into to.
func modeChanges(from, to Modes) string {
	var b strings.Builder
	if from.Mouse != to.Mouse {
		if to.Mouse {
			b.WriteString(ansi.SetModeMouseButtonEvent + ansi.SetModeMouseExtSgr)
		} else {
			b.WriteString(ansi.ResetModeMouseButtonEvent + ansi.ResetModeMouseAnyEvent + ansi.ResetModeMouseExtSgr)
		}
	}
	if from.Focus != to.Focus {
		if to.Focus {
			b.WriteString(ansi.SetModeFocusEvent)
		} else {
			b.WriteString(ansi.ResetModeFocusEvent)
		}
	}
	if from.Title != to.Title {
		b.WriteString(ansi.SetWindowTitle(ansi.Strip(to.Title)))
	}
	return b.String()
}

// Frame returns the bytes that bring the screen from the last frame to
// content (the app's View: lines split by '\n'; lines past the screen's
// height are not drawn) with the modes m, in one synchronized update; nil
// when nothing changed. The returned slice is valid until the next call.
func (p *Painter) Frame(content string, m Modes) []byte {
	p.buf.Reset()
	if p.started && m != p.modes {
		p.buf.WriteString(modeChanges(p.modes, m))
	}
	p.modes = m
	full := p.full || len(p.lines) != p.rows
	if full {
		p.buf.WriteString(ansi.ResetStyle)
		p.buf.WriteString(ansi.EraseEntireScreen)
		p.lines = make([]string, p.rows)
		p.full = false
	}
	next := p.split(content)
	if !full {
		p.scroll(next)
	}
	for y, line := range next {
		if line == p.lines[y] && (!full || line == "") {
			continue // unchanged, or blank on a cleared screen
		}
		p.lines[y] = line
		w := ansi.StringWidth(line)
		if w > p.cols {
			// With autowrap off a terminal would write what does not fit
			// over the last column: cut it here.
			line = ansi.Truncate(line, p.cols, "")
			w = ansi.StringWidth(line)
		}
		p.buf.WriteString("\x1b[")
		p.buf.WriteString(strconv.Itoa(y + 1))
		p.buf.WriteString("H") // column 1
		p.buf.WriteString(ansi.ResetStyle)
		p.buf.WriteString(p.convert(line))
		p.buf.WriteString(ansi.ResetStyle)
		if w < p.cols {
			// The rest of the old line goes; a full line keeps its last
			// cell (the cursor stays on it with autowrap off).
			p.buf.WriteString(ansi.EraseLineRight)
		}
	}
	if p.buf.Len() == 0 {
		return nil
	}
	// Autowrap is off while the lines are written and on again after, and
	// the cursor waits at the bottom row's first column: if chipchat is
	// killed, the shell's next words start there and wrap as usual.
	park := "\x1b[" + strconv.Itoa(max(p.rows, 1)) + "H"
	out := make([]byte, 0, p.buf.Len()+64)
	out = append(out, ansi.SetModeSynchronizedOutput...)
	out = append(out, ansi.ResetModeAutoWrap...)
	out = append(out, p.buf.Bytes()...)
	out = append(out, ansi.SetModeAutoWrap...)
	out = append(out, park...)
	out = append(out, ansi.ResetModeSynchronizedOutput...)
	return out
}

// split is content's first rows lines ("" for the missing ones), a
// trailing CR cut from each.
func (p *Painter) split(content string) []string {
	if cap(p.next) < p.rows {
		p.next = make([]string, p.rows)
	}
	next := p.next[:p.rows]
	rest := content
	for y := range next {
		line := rest
		if i := strings.IndexByte(rest, '\n'); i >= 0 {
			line, rest = rest[:i], rest[i+1:]
		} else {
			rest = ""
		}
		next[y] = strings.TrimSuffix(line, "\r")
	}
	return next
}

// minScroll is the fewest lines a scroll must move for it to be written
// as one (a scroll region and SU or SD) rather than line by line.
const minScroll = 3

// maxScrollCandidates bounds the rows scroll tries for one line.
const maxScrollCandidates = 8

// scroll finds the longest run of next's lines that are on the screen
// already, at other rows, and moves it there with one scroll of the rows
// it spans (a transcript or a diff scrolled by a line is one line
// written, not a screenful), updating p.lines to what the screen then
// holds.
func (p *Painter) scroll(next []string) {
	if p.rows < minScroll+1 {
		return
	}
	at := p.at
	clear(at)
	if at == nil {
		at = make(map[string][]int)
		p.at = at
	}
	for j, l := range p.lines {
		if l != "" && l != next[j] {
			at[l] = append(at[l], j)
		}
	}
	bestY, bestJ, bestN := 0, 0, 0
	for y := 0; y < len(next); y++ {
		if next[y] == p.lines[y] {
			continue
		}
		cands := at[next[y]]
		cands = cands[:min(len(cands), maxScrollCandidates)] // a line repeated down the screen (a rule) stays cheap
		for _, j := range cands {
			n := 0
			for y+n < len(next) && j+n < len(p.lines) && next[y+n] == p.lines[j+n] {
				n++
			}
			if n > bestN {
				bestY, bestJ, bestN = y, j, n
			}
		}
	}
	if bestN < minScroll {
		return
	}
	k := bestJ - bestY // > 0: the lines move up by k; < 0: down by -k
	top, bottom := min(bestY, bestJ), max(bestY, bestJ)+bestN-1
	p.buf.WriteString(ansi.ResetStyle)
	p.buf.WriteString("\x1b[" + strconv.Itoa(top+1) + ";" + strconv.Itoa(bottom+1) + "r") // DECSTBM
	region := p.lines[top : bottom+1]
	if k > 0 {
		p.buf.WriteString("\x1b[" + strconv.Itoa(k) + "S") // SU
		copy(region, region[k:])
		clear(region[len(region)-k:])
	} else {
		p.buf.WriteString("\x1b[" + strconv.Itoa(-k) + "T") // SD
		copy(region[-k:], region)
		clear(region[:-k])
	}
	p.buf.WriteString("\x1b[r") // the whole screen again
}

// convert gives line in the painter's colour profile: each SGR sequence
// converted (once: the painter keeps what each became), the rest as it
// is — what colorprofile's Writer makes of the whole line, at the cost
// of a scan for ESC and a lookup per sequence (a line is seldom the same
// twice: the review pane's rows change whole beside its file list).
func (p *Painter) convert(line string) string {
	if p.profile == colorprofile.TrueColor || strings.IndexByte(line, '\x1b') < 0 {
		return line
	}
	var b strings.Builder
	b.Grow(len(line))
	for i := 0; i < len(line); {
		j := strings.IndexByte(line[i:], '\x1b')
		if j < 0 {
			b.WriteString(line[i:])
			break
		}
		b.WriteString(line[i : i+j])
		i += j
		end := sgrEnd(line, i)
		if end < 0 {
			b.WriteByte('\x1b') // not SGR: its bytes go as they are
			i++
			continue
		}
		b.WriteString(p.convertSGR(line[i:end]))
		i = end
	}
	return b.String()
}

// sgrEnd is the end of the SGR sequence at s[i] (ESC [ digits, ';' and
// ':' then m), or -1 when none starts there.
func sgrEnd(s string, i int) int {
	if i+1 >= len(s) || s[i+1] != '[' {
		return -1
	}
	for k := i + 2; k < len(s); k++ {
		switch c := s[k]; {
		case c == 'm':
			return k + 1
		case c >= '0' && c <= '9', c == ';', c == ':':
		default:
			return -1
		}
	}
	return -1
}

// convertSGR is one SGR sequence in the painter's profile, by
// colorprofile.
func (p *Painter) convertSGR(seq string) string {
	if c, ok := p.conv[seq]; ok {
		return c
	}
	c := downsample(seq, p.profile)
	if p.conv == nil || len(p.conv) >= convCacheMax {
		p.conv = make(map[string]string)
	}
	p.conv[seq] = c
	return c
}

// downsample is colorprofile's conversion of seq; a sequence it cannot
// take (v0.4.3 panics on a colour SGR without its colour, "\x1b[38m") is
// dropped.
func downsample(seq string, profile colorprofile.Profile) (out string) {
	defer func() {
		if recover() != nil {
			out = ""
		}
	}()
	var b bytes.Buffer
	w := colorprofile.Writer{Forward: &b, Profile: profile}
	_, _ = w.WriteString(seq)
	return b.String()
}
