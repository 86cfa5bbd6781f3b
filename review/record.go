package review

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/chipchat/chipchat/contextref"
)

// Limits of the review-comment record (DESIGN.md 3.1), in UTF-16 units.
const (
	maxCommentText = 16000
	maxDiffText    = 32000
	maxLabel       = 200
	maxPathText    = 2048
)

// excerptContext is the number of lines kept on each side of a selection
// in the record's diff.
const excerptContext = 3

// NewContextID mints a context id for a record, from crypto/rand as the
// app's other ids are.
func NewContextID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return "review_" + hex.EncodeToString(b[:])
}

// comment is everything a record is made of, copied out of the model when
// the comment is confirmed (the record is made in a command).
type comment struct {
	cmp      Comparison
	filePath string // relative to the project directory
	hunk     *Hunk
	lo, hi   int // selected lines of hunk.Lines, inclusive
	text     string
	id       string
	revision string
	pr       *contextref.PullRequest
}

// SectionID is the stable id of one hunk of one file in one comparison.
func SectionID(cmp Comparison, filePath string, h *Hunk) string {
	sum := sha256.Sum256([]byte(cmp.key() + "\x00" + filePath + "\x00" + h.Header()))
	return "diff-" + hex.EncodeToString(sum[:8])
}

// RangeLabel is "L12-L18", or "L12" for one line.
func RangeLabel(start, end int) string {
	if start == end {
		return "L" + strconv.Itoa(start)
	}
	return "L" + strconv.Itoa(start) + "-L" + strconv.Itoa(end)
}

// selectedRange is the range a comment names: the new-side numbers of the
// selected lines, or the old-side ones when every selected line is deleted.
func selectedRange(lines []Line) (start, end int) {
	newSide := false
	for _, l := range lines {
		if l.Kind != LineDeleted {
			newSide = true
			break
		}
	}
	start, end = -1, -1
	for _, l := range lines {
		n := l.New
		if !newSide {
			n = l.Old
		} else if l.Kind == LineDeleted {
			continue
		}
		if start < 0 || n < start {
			start = n
		}
		if n > end {
			end = n
		}
	}
	return max(start, 0), max(end, 0)
}

// excerpt is lines lo..hi of h with up to ctx lines on each side, as a
// unified diff hunk (header, prefixed lines, "\ No newline" markers).
func excerpt(h *Hunk, lo, hi, ctx int) string {
	from, to := max(0, lo-ctx), min(len(h.Lines)-1, hi+ctx)
	oldBase, newBase := h.OldStart-1, h.NewStart-1
	if h.OldLines == 0 {
		oldBase = h.OldStart
	}
	if h.NewLines == 0 {
		newBase = h.NewStart
	}
	for _, l := range h.Lines[:from] {
		if l.Kind != LineAdded {
			oldBase++
		}
		if l.Kind != LineDeleted {
			newBase++
		}
	}
	var oldN, newN int
	var body strings.Builder
	for _, l := range h.Lines[from : to+1] {
		if l.Kind != LineAdded {
			oldN++
		}
		if l.Kind != LineDeleted {
			newN++
		}
		body.WriteByte(byte(l.Kind))
		body.WriteString(l.Text)
		body.WriteByte('\n')
		if l.NoNewline {
			body.WriteString("\\ No newline at end of file\n")
		}
	}
	oldStart, newStart := oldBase, newBase
	if oldN > 0 {
		oldStart++
	}
	if newN > 0 {
		newStart++
	}
	x := &Hunk{OldStart: oldStart, OldLines: oldN, NewStart: newStart, NewLines: newN}
	return x.Header() + "\n" + strings.TrimSuffix(body.String(), "\n")
}

// recordLabel is "<basename> <rangeLabel>", the basename shortened from
// the left when the label would pass the contract's 200 units.
func recordLabel(filePath, rangeLabel string) string {
	base := path.Base(strings.ReplaceAll(filePath, "\\", "/"))
	label := base + " " + rangeLabel
	for contextref.UTF16Len(label) > maxLabel && base != "" {
		_, size := utf8.DecodeRuneInString(base)
		base = base[size:]
		label = "…" + base + " " + rangeLabel
	}
	return label
}

// errTooLarge is the editor's error for a selection whose diff cannot fit
// the record.
var errTooLarge = errors.New("the selection is too large for one comment")

// newRecord builds the review-comment record of c and checks it against
// the contract's schema. Every field of the record is set here and only
// here.
func newRecord(c comment) (*contextref.ReviewCommentRecord, error) {
	lines := c.hunk.Lines[c.lo : c.hi+1]
	start, end := selectedRange(lines)
	rl := RangeLabel(start, end)
	diff := excerpt(c.hunk, c.lo, c.hi, excerptContext)
	if contextref.UTF16Len(diff) > maxDiffText {
		diff = excerpt(c.hunk, c.lo, c.hi, 0)
	}
	if contextref.UTF16Len(diff) > maxDiffText {
		return nil, errTooLarge
	}
	text := strings.TrimSpace(c.text)
	if contextref.UTF16Len(text) > maxCommentText {
		return nil, fmt.Errorf("the comment is longer than %d characters", maxCommentText)
	}
	if contextref.UTF16Len(c.filePath) > maxPathText || strings.TrimSpace(c.filePath) == "" {
		return nil, errors.New("the file path cannot go in a record")
	}
	lang := "diff"
	rec := &contextref.ReviewCommentRecord{
		Base:          contextref.NewBase(contextref.KindReviewComment, c.id, recordLabel(c.filePath, rl)),
		SectionID:     SectionID(c.cmp, c.filePath, c.hunk),
		SectionTitle:  c.cmp.Title(),
		FilePath:      c.filePath,
		StartIndex:    int64(start),
		EndIndex:      int64(end),
		RangeLabel:    rl,
		Text:          text,
		Diff:          diff,
		FenceLanguage: &lang,
		PullRequest:   clonePR(c.pr),
	}
	if c.revision != "" && len(c.revision) <= 64 {
		rev := c.revision
		rec.SourceRevision = &rev
	}
	raw, err := contextref.MarshalRecord(rec)
	if err != nil {
		return nil, err
	}
	if _, err := contextref.DecodeRecord(raw); err != nil {
		return nil, fmt.Errorf("review: the record fails its schema: %w", err)
	}
	return rec, nil
}

func clonePR(pr *contextref.PullRequest) *contextref.PullRequest {
	if pr == nil {
		return nil
	}
	c := *pr
	return &c
}

// Stale reports whether the file's current lines no longer match the
// new-side lines of the record's diff, at the place the diff's hunk header
// names (or, for a diff without one, at startIndex). A record whose diff
// has no new-side lines (only deleted lines) is never stale; a file that
// is gone is stale. It reads the file: run it in a command, at send.
func Stale(projectDir string, rec *contextref.ReviewCommentRecord) (bool, error) {
	if rec == nil {
		return false, errors.New("review: no record")
	}
	want, first, hasHeader := newSideLines(rec.Diff)
	if len(want) == 0 {
		return false, nil
	}
	p := filepath.FromSlash(rec.FilePath)
	if !filepath.IsAbs(p) {
		p = filepath.Join(projectDir, p)
	}
	data, err := os.ReadFile(p)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return true, nil
		}
		return false, err
	}
	have, _ := splitLines(string(data))
	match := func(at int) bool { // at: 1-based line of want[0]
		if at < 1 || at-1+len(want) > len(have) {
			return false
		}
		for i, w := range want {
			if strings.ToValidUTF8(have[at-1+i], "\uFFFD") != w {
				return false
			}
		}
		return true
	}
	if hasHeader {
		return !match(first), nil
	}
	// No header: any placement of the lines that covers startIndex.
	for off := 0; off < len(want); off++ {
		if match(int(rec.StartIndex) - off) {
			return false, nil
		}
	}
	return true, nil
}

// MarkStale sets the record's sourceStale to true when Stale says so (and
// clears it otherwise): the send path's call.
func MarkStale(projectDir string, rec *contextref.ReviewCommentRecord) error {
	stale, err := Stale(projectDir, rec)
	if err != nil {
		return err
	}
	rec.SourceStale = nil
	if stale {
		t := true
		rec.SourceStale = &t
	}
	return nil
}

// newSideLines reads the context and added lines of a diff excerpt and the
// new-side line of the first one, from its hunk header when it has one.
func newSideLines(diff string) (lines []string, first int, hasHeader bool) {
	for i, l := range strings.Split(diff, "\n") {
		if i == 0 && strings.HasPrefix(l, "@@ ") {
			if h, err := parseHunkHeader(strings.TrimSuffix(l, "\r")); err == nil {
				first, hasHeader = h.NewStart, true
				continue
			}
		}
		if l == "" {
			continue
		}
		switch l[0] {
		case ' ', '+':
			lines = append(lines, strings.ToValidUTF8(l[1:], "\uFFFD"))
		}
	}
	return lines, first, hasHeader
}

// PrepareRecords is the conversation's PrepareRecords (chat.Options; main
// wires it): at send, each
// review-comment record is replaced by a copy whose sourceStale says
// whether the file's lines at its range still match its diff
// (MarkStale; DESIGN.md 3.5). It reads files: chat runs it on its
// store worker, never in Update. A file that cannot be read leaves the
// record as it was.
func PrepareRecords(projectDir string) func([]contextref.Record) []contextref.Record {
	return func(recs []contextref.Record) []contextref.Record {
		var out []contextref.Record
		for i, r := range recs {
			rc, ok := r.(*contextref.ReviewCommentRecord)
			if !ok {
				continue
			}
			if out == nil {
				out = append([]contextref.Record(nil), recs...)
			}
			c := *rc
			if err := MarkStale(projectDir, &c); err == nil {
				out[i] = &c
			}
		}
		if out == nil {
			return recs
		}
		return out
	}
}
