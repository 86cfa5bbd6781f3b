package agent

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	acp "github.com/coder/acp-go-sdk"

	"github.com/chipchat/chipchat/message"
)

// Where an agent's diff starts in its file. ACP's diff content carries a
// file's old and new text, which some agents (opencode, Claude Code) send
// as the changed snippet only; drawn as they are, the changed line would
// be numbered 1. Agents that also send a unified diff in the call's raw
// input or output (opencode's metadata.diff, Codex's
// changes[path].unified_diff) give the hunk's line numbers: a snippet
// found in a hunk's old side (or, for an insertion, its new side) starts
// at that hunk's line plus its place in the hunk. Else a location of the
// call naming the file with a line gives it. The agent-neutral rule:
// every string in the raw JSON that holds a hunk header is read as a
// unified diff, its file from its ---/+++ headers or the object key it is
// under.

// acpHunk is one hunk of a unified diff the agent sent.
type acpHunk struct {
	file               string // "" when the diff names none
	oldStart, newStart int
	old, new           []string // the old side (context and deletions), the new side
}

// acpMaxHunkText bounds the raw text read for hunks (the raw input and
// output are already cut to [limits] reply_bytes).
const acpMaxHunkText = 4 << 20

// acpHunks is every hunk in the strings of raw (JSON).
func acpHunks(raw json.RawMessage) []acpHunk {
	if len(raw) == 0 || len(raw) > acpMaxHunkText || !strings.Contains(string(raw), "@@ -") {
		return nil
	}
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return nil
	}
	var out []acpHunk
	var walk func(v any, key string, depth int)
	walk = func(v any, key string, depth int) {
		if depth > 32 {
			return
		}
		switch x := v.(type) {
		case string:
			if strings.Contains(x, "@@ -") {
				out = append(out, acpParseUnified(x, key)...)
			}
		case []any:
			for _, e := range x {
				walk(e, key, depth+1)
			}
		case map[string]any:
			keys := make([]string, 0, len(x))
			for k := range x {
				keys = append(keys, k)
			}
			slices.Sort(keys) // the same hunks in the same order every time
			for _, k := range keys {
				file := key
				if strings.ContainsAny(k, "/\\.") {
					file = k // Codex: changes keyed by path
				}
				walk(x[k], file, depth+1)
			}
		}
	}
	walk(v, "", 0)
	return out
}

// acpParseUnified reads the hunks of a unified diff; file is the file they
// belong to when the diff has no header naming one. A hunk holds as many
// lines as its header counts; ---/+++ headers are read between hunks.
func acpParseUnified(s, file string) []acpHunk {
	var out []acpHunk
	var h *acpHunk
	oldLeft, newLeft := 0, 0
	for _, line := range strings.Split(s, "\n") {
		if h != nil && (oldLeft > 0 || newLeft > 0) {
			switch {
			case strings.HasPrefix(line, "-") && oldLeft > 0:
				h.old = append(h.old, line[1:])
				oldLeft--
			case strings.HasPrefix(line, "+") && newLeft > 0:
				h.new = append(h.new, line[1:])
				newLeft--
			case (line == "" || line[0] == ' ') && oldLeft > 0 && newLeft > 0:
				if line != "" {
					line = line[1:]
				}
				h.old, h.new = append(h.old, line), append(h.new, line)
				oldLeft--
				newLeft--
			case strings.HasPrefix(line, "\\"): // "\ No newline at end of file"
			default:
				h, oldLeft, newLeft = nil, 0, 0 // not what the header counted
			}
			continue
		}
		switch {
		case strings.HasPrefix(line, "+++ "):
			file = acpDiffPath(line[4:])
		case strings.HasPrefix(line, "--- "):
			if p := acpDiffPath(line[4:]); p != "/dev/null" {
				file = p
			}
		case strings.HasPrefix(line, "@@ -"):
			o, on, n, nn, ok := acpHunkHeader(line)
			if !ok {
				h = nil
				continue
			}
			out = append(out, acpHunk{file: file, oldStart: o, newStart: n})
			h, oldLeft, newLeft = &out[len(out)-1], on, nn
		}
	}
	return out
}

// acpDiffPath is the path of a ---/+++ header: without its tab-separated
// date and git's a/ or b/.
func acpDiffPath(s string) string {
	s, _, _ = strings.Cut(s, "\t")
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "a/") || strings.HasPrefix(s, "b/") {
		s = s[2:]
	}
	return s
}

// acpHunkHeader reads "@@ -o[,on] +n[,nn] @@" (a count left out is 1).
func acpHunkHeader(line string) (oldStart, oldCount, newStart, newCount int, ok bool) {
	rest, found := strings.CutPrefix(line, "@@ -")
	if !found {
		return 0, 0, 0, 0, false
	}
	o, rest, found := strings.Cut(rest, " +")
	if !found {
		return 0, 0, 0, 0, false
	}
	n, _, found := strings.Cut(rest, " @@")
	if !found {
		return 0, 0, 0, 0, false
	}
	num := func(s string) (int, int, bool) {
		start, count, has := strings.Cut(s, ",")
		a, err := strconv.Atoi(start)
		if err != nil || a < 0 || a >= 1<<31 {
			return 0, 0, false
		}
		b := 1
		if has {
			if b, err = strconv.Atoi(count); err != nil || b < 0 || b >= 1<<24 {
				return 0, 0, false
			}
		}
		return a, b, true
	}
	oldStart, oldCount, ok1 := num(o)
	newStart, newCount, ok2 := num(n)
	return oldStart, oldCount, newStart, newCount, ok1 && ok2
}

// acpSameFile reports whether a diff's file names path (either may be
// relative to the project: one ends with the other at a separator).
func acpSameFile(file, path string) bool {
	if file == "" {
		return true
	}
	a, b := filepath.ToSlash(filepath.Clean(file)), filepath.ToSlash(filepath.Clean(path))
	if a == b {
		return true
	}
	if len(a) > len(b) {
		a, b = b, a
	}
	return strings.HasSuffix(b, "/"+a)
}

// acpSnippetLines is a snippet's lines (without a last newline's empty
// line).
func acpSnippetLines(s string) []string {
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

// acpDiffLine is the line of its file a diff content starts at (0: the
// first), from the hunks, else from where its file held the snippet
// (found: 0 not looked up, else a line or message.LineUnknown), else from
// a location naming its file with a line.
func acpDiffLine(c message.ToolContent, hunks []acpHunk, locs []message.Location, found int) int {
	if c.Type != message.ContentDiff || c.OldText == nil {
		return 0 // a new file starts at line 1
	}
	side, text := false, *c.OldText // false: the old side
	if text == "" {
		side, text = true, c.NewText
	}
	if text == "" {
		return 0
	}
	want := acpSnippetLines(text)
	for _, h := range hunks {
		if !acpSameFile(h.file, c.Path) {
			continue
		}
		lines, start := h.old, h.oldStart
		if side {
			lines, start = h.new, h.newStart
		}
		for i := 0; i+len(want) <= len(lines); i++ {
			if slices.Equal(lines[i:i+len(want)], want) {
				if l := start + i; l > 1 {
					return l
				}
				return 0
			}
		}
	}
	if found > 0 { // the file, read before the write: exact
		return acpFirstIsZero(found)
	}
	for _, l := range locs {
		if l.Line > 0 && l.Path != "" && filepath.Clean(l.Path) == filepath.Clean(c.Path) {
			return acpFirstIsZero(l.Line)
		}
	}
	return found
}

// acpFirstIsZero is line as ToolContent.Line has it (0 for the first).
func acpFirstIsZero(line int) int {
	if line == 1 {
		return 0
	}
	return line
}

// acpNumber gives each diff in cs without a line the line of its file it
// starts at (acpDiffLine); found is where call's file held each snippet
// (nil: not looked up). cs is changed in place.
func acpNumber(cs []message.ToolContent, hunks []acpHunk, locs []message.Location, call string, found map[acpSnip]int) {
	for i, c := range cs {
		if c.Type == message.ContentDiff && c.Line == 0 {
			f := 0
			if c.OldText != nil {
				f = found[acpSnip{call: call, path: c.Path, old: *c.OldText}]
			}
			cs[i].Line = acpDiffLine(c, hunks, locs, f)
		}
	}
}

// A snippet's line from the file itself. Claude Code sends an edit's diff
// as the replaced snippet (old_string/new_string) with no line and no
// unified diff. Its file, read the first time the call's diff is seen
// (before the permission is answered, so before the write), says where
// the snippet is: the old text found exactly once starts at that line
// (else the new text: the agent wrote before it told).
// Found nowhere or more than once, or the file unreadable (outside the
// session's roots, not a regular file, over 16 MiB), the diff's line is
// message.LineUnknown: no numbers rather than wrong ones.

// acpSnip is one diff snippet of one call.
type acpSnip struct{ call, path, old string }

// acpLocateMax bounds the file read to locate a snippet.
const acpLocateMax = acpOldTextMax

// acpLocate is the line of file at which a diff with old and new text
// starts (1-based): the old text found exactly once, else the new text
// found exactly once (the edit was written before the diff was seen; a
// whole file's diff is then the file itself); message.LineUnknown when
// neither is.
func acpLocate(file, old, new string) int {
	for _, s := range []string{old, new} {
		if s == "" {
			continue
		}
		i := strings.Index(file, s)
		if i < 0 {
			continue
		}
		if strings.Contains(file[i+1:], s) {
			return message.LineUnknown // more than once: which one is it?
		}
		return 1 + strings.Count(file[:i], "\n")
	}
	return message.LineUnknown
}

// acpSnips is the diffs of cs that need their file to be numbered: a
// snippet of an existing file (the hunks and locations may still number
// it; the file is read once per call and snippet).
func acpSnips(call string, cs []message.ToolContent) []acpSnip {
	var out []acpSnip
	for _, c := range cs {
		if c.Type == message.ContentDiff && c.OldText != nil && *c.OldText != "" && c.Path != "" {
			out = append(out, acpSnip{call: call, path: c.Path, old: *c.OldText})
		}
	}
	return out
}

// locateDiffs reads, outside the turn's lock, the files of the diffs of cs
// (call's) not located yet, and records where each snippet is.
func (c *acpClient) locateDiffs(sid acp.SessionId, t *acpTurn, call string, cs []message.ToolContent) {
	snips := acpSnips(call, cs)
	if len(snips) == 0 {
		return
	}
	news := map[acpSnip]string{}
	for _, d := range cs {
		if d.Type == message.ContentDiff && d.OldText != nil {
			news[acpSnip{call: call, path: d.Path, old: *d.OldText}] = d.NewText
		}
	}
	t.mu.Lock()
	snips = slices.DeleteFunc(snips, func(s acpSnip) bool { _, ok := t.found[s]; return ok })
	t.mu.Unlock()
	if len(snips) == 0 {
		return
	}
	files := map[string]*string{}
	found := map[acpSnip]int{}
	for _, s := range snips {
		f, ok := files[s.path]
		if !ok {
			f = c.fileText(sid, s.path)
			files[s.path] = f
		}
		found[s] = message.LineUnknown
		if f != nil {
			found[s] = acpLocate(*f, s.old, news[s])
		}
	}
	t.mu.Lock()
	for s, l := range found {
		if _, ok := t.found[s]; !ok {
			t.found[s] = l
		}
	}
	t.mu.Unlock()
}

// fileText is the text of the file at p, an absolute path inside the
// session's roots, read as fs/read_text_file would (a regular file, not
// through a symlink out of the root), at most acpLocateMax bytes; nil when
// it cannot be read.
func (c *acpClient) fileText(sid acp.SessionId, p string) *string {
	if c.a.opts.Host != nil {
		// The file is on the host: read there by the helper, if any.
		if c.helper == nil {
			return nil
		}
		text, _, err := c.helper.readText(c.roots(sid), p, nil, nil)
		if err != nil || len(text) > acpLocateMax {
			return nil
		}
		return &text
	}
	t, err := c.a.fs.target(c.roots(sid), p)
	if err != nil {
		return nil
	}
	f, err := t.r.root.OpenFile(t.rel, os.O_RDONLY|acpNonBlock, 0)
	if err != nil {
		return nil
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() || fi.Size() > acpLocateMax {
		return nil
	}
	b, err := io.ReadAll(io.LimitReader(f, acpLocateMax+1))
	if err != nil || len(b) > acpLocateMax {
		return nil
	}
	s := string(b)
	return &s
}
