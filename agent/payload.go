package agent

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"mime"
	"os"
	"path"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/chipchat/chipchat/fragment"
)

// How the harness backends (openai, exec, echo) deliver a message's
// payload: every attachment becomes exactly one part after the message's
// text — an <attached_file> fragment with the text, an image part, or an
// <attached_file> fragment holding a one-line notice — and every thread a
// <thread_history> fragment.

// sniffBytes is how much of a file decides whether it is text when its MIME
// type does not say: valid UTF-8 (a rune cut at the end allowed) with no
// NUL in the first sniffBytes bytes, as git decides.
const sniffBytes = 8000

// maxImageBytes bounds an image sent as an image part.
const maxImageBytes = 20 << 20

type payloadClass int

const (
	classText    payloadClass = iota
	classImage                // sent as an image part (openai) or a file (exec)
	classBinary               // a notice: the model cannot read it
	classMissing              // a notice: the bytes are not available
	classTooBig               // an image over maxImageBytes: a notice
)

// isTextMIME reports whether a MIME type says the content is text.
func isTextMIME(m string) bool {
	m = strings.ToLower(strings.TrimSpace(m))
	if i := strings.IndexByte(m, ';'); i >= 0 {
		m = strings.TrimSpace(m[:i])
	}
	switch {
	case strings.HasPrefix(m, "text/"), strings.HasSuffix(m, "+json"), strings.HasSuffix(m, "+xml"), strings.HasSuffix(m, "+yaml"):
		return true
	}
	switch m {
	case "application/json", "application/xml", "application/javascript", "application/ecmascript",
		"application/x-sh", "application/x-shellscript", "application/toml", "application/yaml",
		"application/x-yaml", "application/sql", "application/graphql", "application/x-ndjson",
		"application/ld+json", "application/x-httpd-php", "application/x-perl", "application/x-python",
		"application/x-ruby", "application/x-tex", "application/csv", "image/svg+xml":
		return true
	}
	return false
}

// isImagePart reports whether a MIME type is an image the Chat Completions
// API takes as an image part.
func isImagePart(m string) bool {
	switch strings.ToLower(strings.TrimSpace(m)) {
	case "image/png", "image/jpeg", "image/jpg", "image/gif", "image/webp":
		return true
	}
	return false
}

// looksText is the content sniff: valid UTF-8 (a rune cut at the end of
// head allowed) and no NUL.
func looksText(head []byte) bool {
	if bytes.IndexByte(head, 0) >= 0 {
		return false
	}
	if utf8.Valid(head) {
		return true
	}
	i := lastRuneStart(head)
	return i < len(head) && !utf8.FullRune(head[i:]) && utf8.Valid(head[:i])
}

// payloadSource is what one part of a payload is made of: an attachment or
// a thread.
type payloadSource struct {
	att    *Attachment
	thread *ThreadContext
}

// plannedPart is one part of a message's payload before its text is read:
// what it is, how many bytes of text it takes, what it costs against the
// history budget.
type plannedPart struct {
	payloadSource
	class payloadClass
	total int64  // the whole payload's size
	take  int64  // text bytes to read (classText)
	frag  string // a thread's rendered fragment
	cost  int64  // bytes counted against Limits.HistoryBytes
}

// name is the part's name for a notice.
func (p plannedPart) name() string {
	if p.thread != nil {
		t := p.thread.Title
		if strings.TrimSpace(t) == "" {
			t = p.thread.ThreadID
		}
		return "thread " + t
	}
	return p.att.Name
}

// classify says how an attachment is delivered, reading at most sniffBytes
// of it; total is its size in bytes.
func classify(a Attachment) (class payloadClass, total int64) {
	if a.Path == "" {
		return classMissing, a.Size
	}
	info, err := os.Stat(a.Path)
	if err != nil || !info.Mode().IsRegular() {
		return classMissing, a.Size
	}
	total = info.Size()
	if a.Kind != KindAttachment && a.Size > total {
		total = a.Size // a snapshot cut at send
	}
	switch {
	case a.Kind == KindDirectory:
		return classText, total
	case isImagePart(a.MimeType):
		if info.Size() > maxImageBytes {
			return classTooBig, total
		}
		return classImage, total
	case isTextMIME(a.MimeType):
		return classText, total
	}
	f, err := os.Open(a.Path)
	if err != nil {
		return classMissing, total
	}
	defer f.Close()
	head, err := io.ReadAll(io.LimitReader(f, sniffBytes))
	if err != nil {
		return classMissing, total
	}
	if looksText(head) {
		return classText, total
	}
	return classBinary, total
}

// planPayload plans the parts of one message's payload: its attachments in
// order, each text file cut to the per-file limit and to what is left of the
// per-message limit, then its threads.
func planPayload(atts []Attachment, threads []ThreadContext, l Limits) []plannedPart {
	l = l.withDefaults()
	budget := l.InlineTurnBytes
	out := make([]plannedPart, 0, len(atts)+len(threads))
	for i := range atts {
		p := plannedPart{payloadSource: payloadSource{att: &atts[i]}}
		p.class, p.total = classify(atts[i])
		switch p.class {
		case classText:
			p.take = min(p.total, l.InlineFileBytes, budget)
			budget -= p.take
			p.cost = p.take
		case classImage:
			p.cost = p.total
		}
		out = append(out, p)
	}
	for i := range threads {
		p := plannedPart{payloadSource: payloadSource{thread: &threads[i]}}
		p.frag = fragment.Render(threadFragment(threads[i], int(l.ThreadContextBytes)))
		p.cost = int64(len(p.frag))
		out = append(out, p)
	}
	return out
}

// threadFragment is a thread's <thread_history>, bounded.
func threadFragment(t ThreadContext, max int) fragment.ThreadHistory {
	if t.Missing {
		return fragment.ThreadHistory{ThreadID: t.ThreadID, Title: t.Title, Missing: true}
	}
	msgs := make([]fragment.ThreadMessage, 0, len(t.Messages))
	for _, m := range t.Messages {
		if strings.TrimSpace(m.Text) != "" {
			msgs = append(msgs, fragment.ThreadMessage{Role: m.Role, Text: m.Text})
		}
	}
	return fragment.FitThreadHistory(t.ThreadID, t.Title, msgs, max)
}

// deliveredPart is one part of a message as sent: a text part (a rendered
// fragment) or an image.
type deliveredPart struct {
	text  string
	image *Attachment
}

// filePlace says, for the exec backend, where an attachment's file is
// ("$CHIPCHAT_ATTACHMENTS/ctx_1/shot.png"); nil for openai and echo, which
// send images as image parts.
type filePlace func(a Attachment) string

// deliver reads the planned parts: the text of text files, the notices.
// With place set (exec), images are notices naming their file.
func deliver(parts []plannedPart, place filePlace) []deliveredPart {
	out := make([]deliveredPart, 0, len(parts))
	for _, p := range parts {
		if p.thread != nil {
			out = append(out, deliveredPart{text: p.frag})
			continue
		}
		a := *p.att
		af := fragment.AttachedFile{Name: a.Name, ID: a.ContextID}
		where := ""
		if place != nil {
			if w := place(a); w != "" {
				where = "; the file is " + w
			}
		}
		kind := strings.TrimSpace(a.MimeType)
		if kind == "" {
			kind = "unknown type"
		}
		switch p.class {
		case classText:
			content, sent, ok := readText(a.Path, p.take)
			if !ok {
				af.Notice = "(not available: its bytes could not be read)"
				break
			}
			af.Content, af.Sent, af.Total = content, sent, max(p.total, sent)
		case classImage:
			if place == nil {
				img := a
				out = append(out, deliveredPart{image: &img})
				continue
			}
			af.Notice = fmt.Sprintf("(image, %s, %s: not shown here%s)", kind, humanSize(p.total), where)
		case classTooBig:
			af.Notice = fmt.Sprintf("(image, %s, %s: over the %s image limit, not sent%s)", kind, humanSize(p.total), humanSize(maxImageBytes), where)
		case classBinary:
			af.Notice = fmt.Sprintf("(binary file, %s, %s: its content cannot be shown here%s)", kind, humanSize(p.total), where)
		default:
			af.Notice = "(not available: its bytes could not be read)"
		}
		out = append(out, deliveredPart{text: fragment.Render(af)})
	}
	return out
}

// readText reads the first n bytes of a file as text: cut back to a rune
// boundary, invalid UTF-8 replaced by U+FFFD; sent is how many of the
// file's bytes it holds.
func readText(p string, n int64) (text string, sent int64, ok bool) {
	if n <= 0 {
		return "", 0, true
	}
	data, ok := readRegular(p, n)
	if !ok {
		return "", 0, false
	}
	if int64(len(data)) > n {
		data = data[:n]
	}
	if i := lastRuneStart(data); i < len(data) && !utf8.FullRune(data[i:]) && int64(len(data)) == n {
		data = data[:i]
	}
	return strings.ToValidUTF8(string(data), "\uFFFD"), int64(len(data)), true
}

// InlineCuts lists, for the user, what the harness backends (openai, exec,
// echo) will not send whole in turn t: text files cut at the per-file or
// per-message limit ("notes.txt will be cut to 256 KiB of 3 MiB"), files
// the model cannot read, attachments whose bytes are missing. chat calls it
// when a message is sent (toasts before the turn starts); it reads at most
// 8000 bytes of each attachment whose MIME type says neither text nor
// image, and nothing else. Empty: everything goes whole.
func InlineCuts(t Turn) []string {
	l := t.Limits.withDefaults()
	var out []string
	for _, p := range planPayload(t.Attachments, nil, l) {
		a := p.att
		switch p.class {
		case classText:
			if p.take >= p.total {
				continue
			}
			why := ""
			if p.take < min(p.total, l.InlineFileBytes) {
				why = " (" + humanSize(l.InlineTurnBytes) + " per message)"
			}
			out = append(out, fmt.Sprintf("%s will be cut to %s of %s%s", a.Name, humanSize(p.take), humanSize(p.total), why))
		case classBinary:
			out = append(out, fmt.Sprintf("%s is not text: the model gets only its name and size", a.Name))
		case classTooBig:
			out = append(out, fmt.Sprintf("%s is over the %s image limit and will not be sent", a.Name, humanSize(maxImageBytes)))
		case classMissing:
			out = append(out, fmt.Sprintf("%s is not available: the model gets only its name", a.Name))
		}
	}
	return out
}

// MentionSnapshot is what an @ mention stands for when the message is
// sent: a file's first bytes or a directory's listing. chat stores Data in
// the asset store and hands it back as the mention's Attachment (Resolver).
type MentionSnapshot struct {
	Kind     AttachmentKind // KindMention or KindDirectory
	Data     []byte         // at most Limits.InlineFileBytes
	Size     int64          // the file's whole size (the listing's for a directory)
	MimeType string         // by the name's extension; "" for unknown (the content decides); text/plain for a listing
}

// Attachment is the snapshot as a turn's attachment, stored at path.
func (s MentionSnapshot) Attachment(contextID, name, path, assetID string) Attachment {
	return Attachment{Kind: s.Kind, ContextID: contextID, AttachmentID: assetID, Name: name, MimeType: s.MimeType, Path: path, Size: s.Size}
}

// maxListingEntries bounds a directory mention's listing.
const maxListingEntries = 2000

// ErrOutsideProject is SnapshotMention's error for a path outside the
// project directory.
var ErrOutsideProject = errors.New("outside the project directory")

// SnapshotMention reads what an @ mention of mentioned (as the user wrote
// it: relative to the project directory dir, or absolute) stands for: the
// first Limits.InlineFileBytes bytes of a file, or for a directory a
// listing (relative paths, one per line, directories ending in "/", ".git"
// skipped, at most 2000 entries and InlineFileBytes bytes). The path must
// stay inside dir once symbolic links are followed (ErrOutsideProject).
func SnapshotMention(dir, mentioned string, l Limits) (MentionSnapshot, error) {
	l = l.withDefaults()
	root, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return MentionSnapshot{}, err
	}
	p := filepath.FromSlash(strings.TrimSpace(mentioned))
	if !filepath.IsAbs(p) {
		p = filepath.Join(dir, p)
	}
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return MentionSnapshot{}, err
	}
	if rel, err := filepath.Rel(root, real); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return MentionSnapshot{}, fmt.Errorf("%s: %w", mentioned, ErrOutsideProject)
	}
	info, err := os.Stat(real)
	if err != nil {
		return MentionSnapshot{}, err
	}
	if info.IsDir() {
		data := listDirectory(real, strings.TrimSpace(mentioned), l.InlineFileBytes)
		return MentionSnapshot{Kind: KindDirectory, Data: data, Size: int64(len(data)), MimeType: "text/plain"}, nil
	}
	if !info.Mode().IsRegular() {
		return MentionSnapshot{}, fmt.Errorf("%s: not a regular file", mentioned)
	}
	data, ok := readRegular(real, l.InlineFileBytes)
	if !ok {
		return MentionSnapshot{}, fmt.Errorf("%s: cannot be read", mentioned)
	}
	if int64(len(data)) > l.InlineFileBytes {
		data = data[:l.InlineFileBytes]
	}
	return MentionSnapshot{Kind: KindMention, Data: data, Size: info.Size(), MimeType: mentionMIME(real)}, nil
}

// mentionMIME is the MIME type a file's extension names ("" when none).
func mentionMIME(p string) string {
	m := mime.TypeByExtension(filepath.Ext(p))
	if i := strings.IndexByte(m, ';'); i >= 0 {
		m = strings.TrimSpace(m[:i])
	}
	return m
}

// listDirectory lists dir's tree for a directory mention.
func listDirectory(dir, shown string, maxBytes int64) []byte {
	var b bytes.Buffer
	shown = strings.TrimRight(filepath.ToSlash(shown), "/")
	if shown == "" || shown == "." {
		shown = "."
	}
	fmt.Fprintf(&b, "Listing of the directory %s/:\n", shown)
	n := 0
	cut := false
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if p == dir {
			return nil
		}
		if err != nil {
			return nil
		}
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		rel, _ := filepath.Rel(dir, p)
		line := path.Clean(filepath.ToSlash(rel))
		if d.IsDir() {
			line += "/"
		}
		if n >= maxListingEntries || int64(b.Len()+len(line)+1+64) > maxBytes {
			cut = true
			return filepath.SkipAll
		}
		b.WriteString(line)
		b.WriteByte('\n')
		n++
		return nil
	})
	if n == 0 && !cut {
		b.WriteString("(empty)\n")
	}
	if cut {
		fmt.Fprintf(&b, "(listing cut after %d entries)\n", n)
	}
	return b.Bytes()
}
