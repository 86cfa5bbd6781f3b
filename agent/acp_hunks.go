package agent

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

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
// first, or unknown), from the hunks, else from a location naming its
// file with a line.
func acpDiffLine(c message.ToolContent, hunks []acpHunk, locs []message.Location) int {
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
	for _, l := range locs {
		if l.Line > 1 && l.Path != "" && filepath.Clean(l.Path) == filepath.Clean(c.Path) {
			return l.Line
		}
	}
	return 0
}

// acpNumber gives each diff in cs without a line the line of its file it
// starts at (acpDiffLine); cs is changed in place.
func acpNumber(cs []message.ToolContent, hunks []acpHunk, locs []message.Location) {
	for i, c := range cs {
		if c.Type == message.ContentDiff && c.Line == 0 {
			cs[i].Line = acpDiffLine(c, hunks, locs)
		}
	}
}
