package terminal

import (
	"errors"
	"regexp"
	"strconv"
	"strings"

	"github.com/chipchat/chipchat/chips"
	"github.com/chipchat/chipchat/contextref"
)

// ErrEmptyCapture is returned when a capture range holds no line.
var ErrEmptyCapture = errors.New("terminal: nothing to capture")

// CaptureLines makes a terminal record of absolute lines a..b (inclusive,
// in either order) of s. The text is the lines' plain text with control
// sequences stripped and trailing spaces trimmed, joined by "\n". Its label
// is "<label> lines A-B" ("<label> line N" for one line), numbered from 1
// as a user reads them: absolute line n is line n+1 in the label and in
// the record's lineStart and lineEnd, so the agent's "N | line" prefixes
// (contextref's projection) agree with the chip's label. When the text is
// over contextref.MaxTerminalTextLen UTF-16 units, the first lines are cut:
// lineStart moves to the first kept line, the label gets " (cut)" and the
// text starts with a line "[cut: first K lines omitted]".
//
// The context id is contextref.ToContextID("term-" + id + "-" + A + "-" + B
// + "-" + nonce): nonce is the caller's counter, so two captures of the same
// range stay distinct records.
func CaptureLines(s *Screen, id, label string, a, b int64, nonce string) (*contextref.TerminalRecord, error) {
	if a > b {
		a, b = b, a
	}
	if a < s.FirstLine() {
		a = s.FirstLine()
	}
	if b > s.LastLine() {
		b = s.LastLine()
	}
	if a > b {
		return nil, ErrEmptyCapture
	}
	lines := s.Lines(a, b)
	for i, l := range lines {
		lines[i] = strings.TrimRight(chips.SanitizeLine(l), " \t")
	}
	return makeRecord(id, label, a, lines, nonce)
}

func makeRecord(id, label string, a int64, lines []string, nonce string) (*contextref.TerminalRecord, error) {
	label = strings.TrimSpace(chips.SanitizeLine(label))
	if label == "" {
		label = "Terminal"
	}
	if r := []rune(label); len(r) > 120 {
		label = strings.TrimSpace(string(r[:120]))
	}
	id = strings.TrimSpace(id)
	if id == "" {
		id = "terminal"
	}
	if len(lines) == 0 {
		return nil, ErrEmptyCapture
	}
	cut := false
	text := strings.Join(lines, "\n")
	if contextref.UTF16Len(text) > contextref.MaxTerminalTextLen {
		// keep the last lines that fit; the note takes the place (and the
		// line number) of the last omitted line, so every text line still
		// matches its number in the projection.
		const room = contextref.MaxTerminalTextLen - 64
		size, k := 0, len(lines)
		for k > 0 {
			add := contextref.UTF16Len(lines[k-1]) + 1
			if size+add > room {
				break
			}
			size += add
			k--
		}
		if k == len(lines) {
			// the last line alone is too long: keep its end
			r := []rune(lines[k-1])
			for contextref.UTF16Len(string(r)) > room {
				r = r[len(r)/8+1:]
			}
			lines[k-1] = string(r)
			k--
		}
		cut = true
		if k == 0 {
			lines[0] = "[cut] " + lines[0]
		} else {
			lines = append([]string{"[cut: first " + strconv.Itoa(k) + " lines omitted]"}, lines[k:]...)
			a += int64(k - 1)
		}
		text = strings.Join(lines, "\n")
	}
	a++ // numbered from 1
	b := a + int64(len(lines)) - 1
	var rl string
	if a == b {
		rl = label + " line " + strconv.FormatInt(a, 10)
	} else {
		rl = label + " lines " + strconv.FormatInt(a, 10) + "-" + strconv.FormatInt(b, 10)
	}
	if cut {
		rl += " (cut)"
	}
	rec := &contextref.TerminalRecord{
		Base:          contextref.NewBase(contextref.KindTerminal, contextref.ToContextID("term-"+id+"-"+strconv.FormatInt(a, 10)+"-"+strconv.FormatInt(b, 10)+"-"+nonce), rl),
		TerminalID:    id,
		TerminalLabel: label,
		LineStart:     a,
		LineEnd:       b,
		Text:          text,
	}
	return rec, nil
}

// promptRe matches a line that looks like a shell prompt: ends in "$ ",
// "# ", "% ", "> " or "❯ " followed by an optional command.
var promptRe = regexp.MustCompile(`^(\S.{0,80})?[$#%>❯»]( |$)`)

// LastCommandRange finds the output of the last finished command: with
// OSC 133 marks, the lines from the last C mark (output start) to the line
// before the last A/D mark after it; without marks, the lines after the
// last-but-one prompt-looking line up to the line before the last prompt
// (the one the cursor sits on). ok is false when nothing is found.
func LastCommandRange(s *Screen) (a, b int64, ok bool) {
	marks := s.Marks()
	cursor := s.CursorLine()
	for i := len(marks) - 1; i >= 0; i-- {
		if marks[i].Kind != 'C' {
			continue
		}
		start := marks[i].Line
		end := cursor
		for _, m := range marks[i+1:] {
			if m.Kind == 'D' || m.Kind == 'A' {
				end = m.Line
				break
			}
		}
		// the output ends on the line before the next prompt; when the D
		// mark arrived in column 0 of a fresh line, that line is not output.
		if end > start {
			end--
		}
		// C arrives at the end of the command line, after the newline was
		// echoed the output starts on the next line
		if start < end && strings.TrimSpace(strings.Join(s.Lines(start, start), "")) != "" && isPromptLine(s, start) {
			start++
		}
		for end > start && strings.TrimSpace(strings.Join(s.Lines(end, end), "")) == "" {
			end--
		}
		return start, end, true
	}
	// heuristic: scan back from the cursor for prompt-looking lines
	last := cursor
	first := s.FirstLine()
	var prompts []int64
	for n := last; n >= first && len(prompts) < 2; n-- {
		l := s.Lines(n, n)
		if len(l) == 1 && promptRe.MatchString(l[0]) {
			prompts = append(prompts, n)
		}
	}
	var start, end int64
	switch len(prompts) {
	case 0:
		return 0, 0, false
	case 1:
		if prompts[0] == cursor {
			return 0, 0, false
		}
		start, end = prompts[0]+1, cursor
	default:
		if prompts[0] == cursor || prompts[0] == cursor-1 && strings.TrimSpace(strings.Join(s.Lines(cursor, cursor), "")) == "" {
			start, end = prompts[1]+1, prompts[0]-1
		} else {
			start, end = prompts[0]+1, cursor
		}
	}
	for end >= start && strings.TrimSpace(strings.Join(s.Lines(end, end), "")) == "" {
		end--
	}
	if end < start {
		return 0, 0, false
	}
	return start, end, true
}

func isPromptLine(s *Screen, n int64) bool {
	for _, m := range s.Marks() {
		if m.Line == n && (m.Kind == 'A' || m.Kind == 'B') {
			return true
		}
	}
	return false
}

// QuickCapture captures the last command's output (see LastCommandRange).
func QuickCapture(s *Screen, id, label, nonce string) (*contextref.TerminalRecord, error) {
	a, b, ok := LastCommandRange(s)
	if !ok {
		return nil, ErrEmptyCapture
	}
	return CaptureLines(s, id, label, a, b, nonce)
}
