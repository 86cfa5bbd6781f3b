package review

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// FileStatus says what a diff does to a file.
type FileStatus byte

// File statuses, as git names them.
const (
	Modified FileStatus = 'M'
	Added    FileStatus = 'A'
	Deleted  FileStatus = 'D'
	Renamed  FileStatus = 'R'
	Copied   FileStatus = 'C'
)

// File is the diff of one file. Paths are as the diff names them (for git:
// relative to the repository root), "" for /dev/null.
type File struct {
	OldPath, NewPath string
	Status           FileStatus
	OldMode, NewMode string
	Similarity       int  // rename/copy similarity index, percent
	Binary           bool // "Binary files … differ": no hunks
	Untracked        bool // not known to git: shown as a new file
	// Note is a line to show instead of hunks (a file too large to show).
	Note  string
	Hunks []*Hunk
}

// Path is the file's path after the change (before it, for a deleted file).
func (f *File) Path() string {
	if f.NewPath != "" {
		return f.NewPath
	}
	return f.OldPath
}

// Counts is the number of added and deleted lines.
func (f *File) Counts() (added, deleted int) {
	for _, h := range f.Hunks {
		for _, l := range h.Lines {
			switch l.Kind {
			case LineAdded:
				added++
			case LineDeleted:
				deleted++
			}
		}
	}
	return added, deleted
}

// Hunk is one "@@ -a,b +c,d @@ section" block.
type Hunk struct {
	OldStart, OldLines int
	NewStart, NewLines int
	Section            string // the text after the second @@, trimmed
	Lines              []Line
}

// Header is the hunk's header line as git writes it.
func (h *Hunk) Header() string {
	s := "@@ -" + rangeText(h.OldStart, h.OldLines) + " +" + rangeText(h.NewStart, h.NewLines) + " @@"
	if h.Section != "" {
		s += " " + h.Section
	}
	return s
}

func rangeText(start, n int) string {
	if n == 1 {
		return strconv.Itoa(start)
	}
	return strconv.Itoa(start) + "," + strconv.Itoa(n)
}

// LineKind is a diff line's prefix.
type LineKind byte

// Line kinds.
const (
	LineContext LineKind = ' '
	LineAdded   LineKind = '+'
	LineDeleted LineKind = '-'
)

// Line is one line of a hunk. Old and New are its line numbers on each side
// (0 on the side it is not on). Text has no prefix and no line break.
type Line struct {
	Kind      LineKind
	Old, New  int
	Text      string
	NoNewline bool // followed by "\ No newline at end of file"
}

// Number is the line number a comment names: new side, old side for a
// deleted line.
func (l Line) Number() int {
	if l.Kind == LineDeleted {
		return l.Old
	}
	return l.New
}

// ErrMalformed wraps every parse error.
var ErrMalformed = errors.New("malformed diff")

func malformed(n int, format string, args ...any) error {
	return fmt.Errorf("%w: line %d: %s", ErrMalformed, n, fmt.Sprintf(format, args...))
}

// maxHunkCount bounds a hunk's line counts so a hostile header cannot make
// the parser reserve memory it will never fill.
const maxHunkCount = 1 << 28

// ParseUnified parses a unified diff: git's extended form (diff --git
// headers, renames, copies, mode changes, new and deleted files, binary
// files, "\ No newline at end of file") or a plain one (---/+++ headers
// only). Text before the first file header is ignored. Lines may end in
// LF or CRLF; a CR that belongs to the content stays in Text only when the
// line ends in LF.
func ParseUnified(data []byte) ([]*File, error) {
	p := &parser{data: data}
	return p.parse()
}

type parser struct {
	data  []byte
	pos   int
	n     int // number of the line last read, from 1
	peekd bool
	line  string
}

// next returns the next line without its LF.
func (p *parser) next() (string, bool) {
	if p.peekd {
		p.peekd = false
		return p.line, true
	}
	if p.pos >= len(p.data) {
		return "", false
	}
	rest := p.data[p.pos:]
	i := bytes.IndexByte(rest, '\n')
	var l []byte
	if i < 0 {
		l = rest
		p.pos = len(p.data)
	} else {
		l = rest[:i]
		p.pos += i + 1
	}
	p.n++
	p.line = string(l)
	return p.line, true
}

func (p *parser) unread() { p.peekd = true }

func (p *parser) parse() ([]*File, error) {
	var files []*File
	for {
		l, ok := p.next()
		if !ok {
			return files, nil
		}
		switch {
		case strings.HasPrefix(l, "diff --git "):
			f, err := p.gitFile(l)
			if err != nil {
				return files, err
			}
			files = append(files, f)
		case strings.HasPrefix(l, "--- "):
			nl, ok := p.next()
			if !ok || !strings.HasPrefix(nl, "+++ ") {
				if ok {
					p.unread()
				}
				continue // a stray "--- " line in the preamble
			}
			f := &File{Status: Modified}
			if err := p.setNames(f, l, nl); err != nil {
				return files, err
			}
			if err := p.hunks(f); err != nil {
				return files, err
			}
			if err := p.checkFile(f); err != nil {
				return files, err
			}
			files = append(files, f)
		}
	}
}

// gitFile reads one file after its "diff --git" line.
func (p *parser) gitFile(first string) (*File, error) {
	f := &File{Status: Modified}
	if a, b, ok := splitGitNames(strings.TrimPrefix(first, "diff --git ")); ok {
		f.OldPath, f.NewPath = a, b
	}
	for {
		l, ok := p.next()
		if !ok {
			return f, p.checkFile(f)
		}
		switch {
		case strings.HasPrefix(l, "--- "):
			nl, ok := p.next()
			if !ok || !strings.HasPrefix(nl, "+++ ") {
				return nil, malformed(p.n, "--- without +++")
			}
			if err := p.setNames(f, l, nl); err != nil {
				return nil, err
			}
			if err := p.hunks(f); err != nil {
				return nil, err
			}
			return f, p.checkFile(f)
		case strings.HasPrefix(l, "@@"):
			return nil, malformed(p.n, "hunk before ---/+++")
		case strings.HasPrefix(l, "diff --git "):
			p.unread()
			return f, p.checkFile(f)
		case strings.HasPrefix(l, "new file mode "):
			f.Status, f.OldPath, f.NewMode = Added, "", strings.TrimPrefix(l, "new file mode ")
		case strings.HasPrefix(l, "deleted file mode "):
			f.Status, f.NewPath, f.OldMode = Deleted, "", strings.TrimPrefix(l, "deleted file mode ")
		case strings.HasPrefix(l, "old mode "):
			f.OldMode = strings.TrimPrefix(l, "old mode ")
		case strings.HasPrefix(l, "new mode "):
			f.NewMode = strings.TrimPrefix(l, "new mode ")
		case strings.HasPrefix(l, "rename from "), strings.HasPrefix(l, "copy from "):
			name, err := p.name(l[strings.Index(l, "from ")+5:], false)
			if err != nil {
				return nil, err
			}
			f.OldPath = name
			if l[0] == 'r' {
				f.Status = Renamed
			} else {
				f.Status = Copied
			}
		case strings.HasPrefix(l, "rename to "), strings.HasPrefix(l, "copy to "):
			name, err := p.name(l[strings.Index(l, "to ")+3:], false)
			if err != nil {
				return nil, err
			}
			f.NewPath = name
		case strings.HasPrefix(l, "similarity index "), strings.HasPrefix(l, "dissimilarity index "):
			v := strings.TrimSuffix(l[strings.LastIndexByte(l, ' ')+1:], "%")
			if n, err := strconv.Atoi(v); err == nil && n >= 0 && n <= 100 {
				f.Similarity = n
			}
		case strings.HasPrefix(l, "index "):
			if i := strings.LastIndexByte(l, ' '); i > len("index ") && f.OldMode == "" && f.NewMode == "" {
				f.OldMode, f.NewMode = l[i+1:], l[i+1:]
			}
		case strings.HasPrefix(l, "Binary files ") && strings.HasSuffix(l, " differ"),
			l == "GIT binary patch":
			f.Binary = true
		}
	}
}

// checkFile checks that the names fit the status.
func (p *parser) checkFile(f *File) error {
	switch {
	case f.OldPath == "" && f.NewPath == "":
		return malformed(p.n, "file without a name")
	case (f.Status == Renamed || f.Status == Copied) && (f.OldPath == "" || f.NewPath == ""):
		return malformed(p.n, "rename or copy without both names")
	case f.Status == Added && f.NewPath == "", f.Status == Deleted && f.OldPath == "":
		return malformed(p.n, "names do not fit a new or deleted file")
	case f.Status == Added:
		f.OldPath = ""
	case f.Status == Deleted:
		f.NewPath = ""
	case f.Status == Modified && f.OldPath == "":
		f.OldPath = f.NewPath
	case f.Status == Modified && f.NewPath == "":
		f.NewPath = f.OldPath
	}
	return nil
}

// setNames reads the ---/+++ names into f.
func (p *parser) setNames(f *File, minus, plus string) error {
	a, err := p.name(strings.TrimPrefix(minus, "--- "), true)
	if err != nil {
		return err
	}
	b, err := p.name(strings.TrimPrefix(plus, "+++ "), true)
	if err != nil {
		return err
	}
	switch {
	case a == "" && b == "":
		return malformed(p.n, "both sides are /dev/null")
	case a == "":
		f.Status = Added
	case b == "":
		f.Status = Deleted
	}
	f.OldPath, f.NewPath = a, b
	return nil
}

// name decodes a file name of a header line: C-quoted or bare, with the
// a/ or b/ prefix removed when strip (from ---/+++ lines, which may also
// carry a tab and a timestamp). /dev/null is "".
func (p *parser) name(s string, strip bool) (string, error) {
	s = strings.TrimSuffix(s, "\r")
	if strings.HasPrefix(s, `"`) {
		u, _, ok := unquoteC(s)
		if !ok {
			return "", malformed(p.n, "bad quoted name")
		}
		s = u
	} else if strip {
		if i := strings.IndexByte(s, '\t'); i >= 0 {
			s = s[:i]
		}
	}
	if s == "/dev/null" {
		return "", nil
	}
	if strip && (strings.HasPrefix(s, "a/") || strings.HasPrefix(s, "b/")) {
		s = s[2:]
	}
	if s == "" {
		return "", malformed(p.n, "empty name")
	}
	return s, nil
}

// hunks reads the hunks that follow a file's +++ line.
func (p *parser) hunks(f *File) error {
	for {
		l, ok := p.next()
		if !ok {
			return nil
		}
		if !strings.HasPrefix(l, "@@ ") {
			p.unread()
			return nil
		}
		h, err := parseHunkHeader(strings.TrimSuffix(l, "\r"))
		if err != nil {
			return malformed(p.n, "%v", err)
		}
		if err := p.hunkBody(h); err != nil {
			return err
		}
		if n := len(f.Hunks); n > 0 {
			last := f.Hunks[n-1]
			if h.OldStart < last.OldStart+last.OldLines || h.NewStart < last.NewStart+last.NewLines {
				return malformed(p.n, "hunks overlap or go backwards")
			}
		}
		f.Hunks = append(f.Hunks, h)
	}
}

// hunkBody reads exactly the lines the header counts, and the "\" markers
// among them.
func (p *parser) hunkBody(h *Hunk) error {
	oldLeft, newLeft := h.OldLines, h.NewLines
	oldN, newN := h.OldStart, h.NewStart
	for oldLeft > 0 || newLeft > 0 {
		l, ok := p.next()
		if !ok {
			return malformed(p.n, "hunk ends early")
		}
		if l == "" {
			l = " " // some tools strip the space of an empty context line
		}
		switch l[0] {
		case ' ':
			if oldLeft == 0 || newLeft == 0 {
				return malformed(p.n, "more context lines than the header counts")
			}
			h.Lines = append(h.Lines, Line{Kind: LineContext, Old: oldN, New: newN, Text: l[1:]})
			oldN++
			newN++
			oldLeft--
			newLeft--
		case '-':
			if oldLeft == 0 {
				return malformed(p.n, "more deleted lines than the header counts")
			}
			h.Lines = append(h.Lines, Line{Kind: LineDeleted, Old: oldN, Text: l[1:]})
			oldN++
			oldLeft--
		case '+':
			if newLeft == 0 {
				return malformed(p.n, "more added lines than the header counts")
			}
			h.Lines = append(h.Lines, Line{Kind: LineAdded, New: newN, Text: l[1:]})
			newN++
			newLeft--
		case '\\':
			if err := p.markNoNewline(h); err != nil {
				return err
			}
		default:
			return malformed(p.n, "unexpected line in a hunk")
		}
	}
	// Markers after the last line.
	for {
		l, ok := p.next()
		if !ok {
			return nil
		}
		if !strings.HasPrefix(l, `\`) {
			p.unread()
			return nil
		}
		if err := p.markNoNewline(h); err != nil {
			return err
		}
	}
}

func (p *parser) markNoNewline(h *Hunk) error {
	n := len(h.Lines)
	if n == 0 || h.Lines[n-1].NoNewline {
		return malformed(p.n, `"\" marker without a line`)
	}
	h.Lines[n-1].NoNewline = true
	return nil
}

// parseHunkHeader reads "@@ -a[,b] +c[,d] @@[ section]".
func parseHunkHeader(l string) (*Hunk, error) {
	rest, ok := strings.CutPrefix(l, "@@ -")
	if !ok {
		return nil, errors.New("bad hunk header")
	}
	end := strings.Index(rest, " @@")
	if end < 0 {
		return nil, errors.New("bad hunk header")
	}
	ranges, section := rest[:end], rest[end+3:]
	oldR, newR, ok := strings.Cut(ranges, " +")
	if !ok {
		return nil, errors.New("bad hunk header")
	}
	h := &Hunk{Section: strings.TrimSpace(section)}
	var err error
	if h.OldStart, h.OldLines, err = parseRange(oldR); err != nil {
		return nil, err
	}
	if h.NewStart, h.NewLines, err = parseRange(newR); err != nil {
		return nil, err
	}
	if h.OldLines == 0 && h.NewLines == 0 {
		return nil, errors.New("empty hunk")
	}
	return h, nil
}

func parseRange(s string) (start, n int, err error) {
	a, b, has := strings.Cut(s, ",")
	start, err = atoiBounded(a)
	if err != nil {
		return 0, 0, err
	}
	n = 1
	if has {
		if n, err = atoiBounded(b); err != nil {
			return 0, 0, err
		}
	}
	if start == 0 && n != 0 {
		return 0, 0, errors.New("line 0 with lines")
	}
	return start, n, nil
}

func atoiBounded(s string) (int, error) {
	if s == "" || len(s) > 9 {
		return 0, errors.New("bad number")
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, errors.New("bad number")
		}
	}
	v, _ := strconv.Atoi(s)
	if v > maxHunkCount {
		return 0, errors.New("number too large")
	}
	return v, nil
}

// splitGitNames splits the rest of a "diff --git" line into its two names.
// Quoted names are unquoted; bare names are split where both halves name
// the same path (git's own rule when the names hold spaces).
func splitGitNames(s string) (a, b string, ok bool) {
	s = strings.TrimSuffix(s, "\r")
	if strings.HasPrefix(s, `"`) {
		u, n, ok := unquoteC(s)
		if !ok || n >= len(s) || s[n] != ' ' {
			return "", "", false
		}
		rest := s[n+1:]
		var v string
		if strings.HasPrefix(rest, `"`) {
			if v, _, ok = unquoteC(rest); !ok {
				return "", "", false
			}
		} else {
			v = rest
		}
		return stripPrefix(u), stripPrefix(v), true
	}
	if i := strings.Index(s, ` "`); i >= 0 {
		if v, _, ok := unquoteC(s[i+1:]); ok {
			return stripPrefix(s[:i]), stripPrefix(v), true
		}
	}
	// Same name on both sides: "a/X b/X".
	if len(s)%2 == 1 {
		half := (len(s) - 1) / 2
		x, y := s[:half], s[half+1:]
		if s[half] == ' ' && len(x) > 2 && stripPrefix(x) == stripPrefix(y) {
			return stripPrefix(x), stripPrefix(y), true
		}
	}
	if i := strings.Index(s, " b/"); i >= 0 {
		return stripPrefix(s[:i]), stripPrefix(s[i+1:]), true
	}
	return "", "", false
}

func stripPrefix(s string) string {
	if len(s) > 2 && (strings.HasPrefix(s, "a/") || strings.HasPrefix(s, "b/")) {
		return s[2:]
	}
	return s
}

// unquoteC decodes a C-style quoted string as git writes names with
// special characters; n is the number of bytes consumed.
func unquoteC(s string) (out string, n int, ok bool) {
	if len(s) < 2 || s[0] != '"' {
		return "", 0, false
	}
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		c := s[i]
		switch c {
		case '"':
			return b.String(), i + 1, true
		case '\\':
			i++
			if i >= len(s) {
				return "", 0, false
			}
			switch e := s[i]; e {
			case 'a':
				b.WriteByte('\a')
			case 'b':
				b.WriteByte('\b')
			case 'f':
				b.WriteByte('\f')
			case 'n':
				b.WriteByte('\n')
			case 'r':
				b.WriteByte('\r')
			case 't':
				b.WriteByte('\t')
			case 'v':
				b.WriteByte('\v')
			case '\\', '"':
				b.WriteByte(e)
			case '0', '1', '2', '3':
				if i+2 >= len(s) || !isOctal(s[i+1]) || !isOctal(s[i+2]) {
					return "", 0, false
				}
				b.WriteByte((e-'0')<<6 | (s[i+1]-'0')<<3 | (s[i+2] - '0'))
				i += 2
			default:
				return "", 0, false
			}
		default:
			b.WriteByte(c)
		}
	}
	return "", 0, false
}

func isOctal(c byte) bool { return c >= '0' && c <= '7' }

// quoteC is the inverse of unquoteC, used when a name needs it.
func quoteC(s string) string {
	need := false
	for i := 0; i < len(s); i++ {
		if c := s[i]; c <= ' ' || c == '"' || c == '\\' || c == 0x7f {
			need = true
			break
		}
	}
	if !need {
		return s
	}
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c == '\n':
			b.WriteString(`\n`)
		case c == '\t':
			b.WriteString(`\t`)
		case c < 0x20 || c == 0x7f:
			b.WriteString(fmt.Sprintf(`\%03o`, c))
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// FormatUnified writes files back as a git-style unified diff; parsing the
// result gives the same files (the fuzz target checks it).
func FormatUnified(files []*File) string {
	var b strings.Builder
	for _, f := range files {
		oldName, newName := f.OldPath, f.NewPath
		if oldName == "" {
			oldName = newName
		}
		if newName == "" {
			newName = oldName
		}
		b.WriteString("diff --git " + quoteC("a/"+oldName) + " " + quoteC("b/"+newName) + "\n")
		switch f.Status {
		case Added:
			b.WriteString("new file mode " + orDefault(f.NewMode) + "\n")
		case Deleted:
			b.WriteString("deleted file mode " + orDefault(f.OldMode) + "\n")
		default:
			if f.OldMode != f.NewMode && f.OldMode != "" && f.NewMode != "" {
				b.WriteString("old mode " + f.OldMode + "\nnew mode " + f.NewMode + "\n")
			}
		}
		if f.Status == Renamed || f.Status == Copied {
			verb := "rename"
			if f.Status == Copied {
				verb = "copy"
			}
			fmt.Fprintf(&b, "similarity index %d%%\n", f.Similarity)
			b.WriteString(verb + " from " + quoteC(f.OldPath) + "\n" + verb + " to " + quoteC(f.NewPath) + "\n")
		}
		if f.Binary {
			b.WriteString("Binary files " + quoteC("a/"+oldName) + " and " + quoteC("b/"+newName) + " differ\n")
			continue
		}
		if len(f.Hunks) == 0 {
			continue
		}
		minus, plus := "/dev/null", "/dev/null"
		if f.OldPath != "" {
			minus = quoteC("a/" + f.OldPath)
		}
		if f.NewPath != "" {
			plus = quoteC("b/" + f.NewPath)
		}
		b.WriteString("--- " + minus + "\n+++ " + plus + "\n")
		for _, h := range f.Hunks {
			writeHunk(&b, h)
		}
	}
	return b.String()
}

func orDefault(mode string) string {
	if mode == "" {
		return "100644"
	}
	return mode
}

func writeHunk(b *strings.Builder, h *Hunk) {
	b.WriteString(h.Header())
	b.WriteByte('\n')
	for _, l := range h.Lines {
		b.WriteByte(byte(l.Kind))
		b.WriteString(l.Text)
		b.WriteByte('\n')
		if l.NoNewline {
			b.WriteString("\\ No newline at end of file\n")
		}
	}
}
