package fragment

import (
	"strconv"
	"strings"
)

// The kinds that carry the user's payload to harness backends (DESIGN.md
// section 7), in the same user turn as the message they belong to, after
// its text. Their begin markers end before the attributes, so the claim
// rule sees "<attached_file" … "</attached_file>".
var (
	// AttachedFileKind: a text file, a pasted-text chip, an @-mentioned
	// file or a directory listing; or, for a file the model cannot read, a
	// one-line notice in its place.
	AttachedFileKind = &Kind{Name: "attached_file", Role: RoleUser,
		Begin: "<attached_file", End: "</attached_file>"}
	// ThreadHistoryKind: the recent messages of a thread the message
	// references.
	ThreadHistoryKind = &Kind{Name: "thread_history", Role: RoleUser,
		Begin: "<thread_history", End: "</thread_history>"}
	// AttachmentsOmittedKind: one line naming attachments of a message that
	// are no longer sent (over the history budget, or left out of a
	// summary request).
	AttachmentsOmittedKind = &Kind{Name: "attachments_omitted", Role: RoleUser,
		Begin: "<attachments_omitted>", End: "</attachments_omitted>"}
)

// AttachedFile renders as
//
//	<attached_file name="notes.txt" id="ctx_1">
//	remember the milk
//	</attached_file>
//
// that is: the attributes (escaped as DESIGN.md 3.5 escapes attribute
// values), LF, Content, LF, the end marker. When Sent is less than Total,
// the content was cut and a last line "(truncated: Sent of Total bytes)"
// follows it. When Notice is set (a binary the
// model cannot read, bytes that are not available) the body is that one
// line instead of the content. Inside Content and Notice every "<" that
// starts the kind's own tag ("attached_file" or "/attached_file", ASCII
// case-insensitive, followed by a non-word character or the end) becomes
// "&lt;" (DESIGN.md 3.5 step 5), so a file cannot close its own fragment.
type AttachedFile struct {
	Name    string // as the user sees it
	ID      string // the record's context id
	Content string // the text sent (already cut to the limit)
	Sent    int64  // how many bytes of the file Content holds
	Total   int64  // the whole file's size in bytes; more than Sent means cut
	Notice  string // instead of Content: a one-line notice
}

func (AttachedFile) Kind() *Kind { return AttachedFileKind }

func (a AttachedFile) Body() string {
	var b strings.Builder
	b.Grow(len(a.Content) + len(a.Name) + len(a.ID) + 64)
	b.WriteString(` name="`)
	b.WriteString(EscapeAttr(a.Name))
	b.WriteString(`" id="`)
	b.WriteString(EscapeAttr(a.ID))
	b.WriteString("\">\n")
	if a.Notice != "" {
		b.WriteString(EscapeTag(oneLine(a.Notice), "attached_file"))
		b.WriteByte('\n')
		return b.String()
	}
	b.WriteString(EscapeTag(a.Content, "attached_file"))
	b.WriteByte('\n')
	if a.Total > a.Sent {
		b.WriteString(TruncatedLine(max(a.Sent, 0), a.Total))
		b.WriteByte('\n')
	}
	return b.String()
}

// TruncatedLine is the line that ends a cut payload: "(truncated: N of M
// bytes)".
func TruncatedLine(n, total int64) string {
	return "(truncated: " + strconv.FormatInt(n, 10) + " of " + strconv.FormatInt(total, 10) + " bytes)"
}

// ThreadMessage is one message of a thread in a ThreadHistory: Role is
// "user" or "assistant", Text the user's words or the reply.
type ThreadMessage struct {
	Role string
	Text string
}

// ThreadMissing is the body line of a ThreadHistory whose thread is not in
// this environment.
const ThreadMissing = "This thread is not in this environment: its history cannot be read here. Work from its title and what the user says about it."

// ThreadHistory renders as
//
//	<thread_history thread="thread_42" title="Fix login bug">
//	(2 earlier messages left out)
//	user: the first line of a message
//	  its next lines, indented two spaces
//	assistant: the reply
//	</thread_history>
//
// Messages are oldest first. Omitted counts the older messages left out
// (see FitThreadHistory); Missing replaces the messages by the one line
// ThreadMissing. Attribute values are escaped as in DESIGN.md 3.5; inside
// the text every "<" that starts "thread_history" or "/thread_history" is
// "&lt;" (3.5 step 5).
type ThreadHistory struct {
	ThreadID string
	Title    string
	Missing  bool
	Messages []ThreadMessage
	Omitted  int
}

func (ThreadHistory) Kind() *Kind { return ThreadHistoryKind }

func (h ThreadHistory) Body() string {
	var b strings.Builder
	b.WriteString(h.head())
	if h.Missing {
		b.WriteString(ThreadMissing)
		b.WriteByte('\n')
		return b.String()
	}
	if h.Omitted > 0 {
		b.WriteString(omittedLine(h.Omitted))
		b.WriteByte('\n')
	}
	for _, m := range h.Messages {
		b.WriteString(threadLines(m))
	}
	return b.String()
}

func (h ThreadHistory) head() string {
	return ` thread="` + EscapeAttr(h.ThreadID) + `" title="` + EscapeAttr(h.Title) + "\">\n"
}

func omittedLine(n int) string {
	if n == 1 {
		return "(1 earlier message left out)"
	}
	return "(" + strconv.Itoa(n) + " earlier messages left out)"
}

// threadLines is one message as "role: first line\n" plus its next lines
// indented two spaces.
func threadLines(m ThreadMessage) string {
	role := "user"
	if m.Role == string(RoleAssistant) {
		role = "assistant"
	}
	text := strings.TrimRight(strings.ReplaceAll(m.Text, "\r\n", "\n"), " \t\r\n")
	text = EscapeTag(text, "thread_history")
	return role + ": " + strings.ReplaceAll(text, "\n", "\n  ") + "\n"
}

// FitThreadHistory builds the ThreadHistory of a thread's messages (oldest
// first) whose rendering is at most max bytes: the oldest messages are left
// out first (and counted in Omitted); when even the newest alone does not
// fit, the longest start of its text that fits is kept (on a rune
// boundary) and marked " … (cut)"; when not even the tags fit, every
// message is left out. A max of 0 or less means no bound.
func FitThreadHistory(threadID, title string, msgs []ThreadMessage, max int) ThreadHistory {
	h := ThreadHistory{ThreadID: threadID, Title: title}
	if max <= 0 {
		h.Messages = append(h.Messages, msgs...)
		return h
	}
	fixed := len(Render(h))
	// The omitted line is at most this long.
	room := max - fixed - len(omittedLine(len(msgs))) - 1
	used, keep := 0, len(msgs)
	for i := len(msgs) - 1; i >= 0; i-- {
		n := len(threadLines(msgs[i]))
		if used+n > room {
			break
		}
		used += n
		keep = i
	}
	if keep == len(msgs) && len(msgs) > 0 {
		// Not even the newest fits: keep the longest start of it that does.
		last := msgs[len(msgs)-1]
		fits := func(n int) bool {
			return len(threadLines(ThreadMessage{Role: last.Role, Text: cutRunes(last.Text, n) + cutMark})) <= room
		}
		lo, hi := 0, len(last.Text) // fits(lo) unknown; find the largest n that fits
		if !fits(0) {
			h.Omitted = len(msgs)
			return h
		}
		for lo < hi {
			mid := lo + (hi-lo+1)/2
			if fits(mid) {
				lo = mid
			} else {
				hi = mid - 1
			}
		}
		h.Messages = []ThreadMessage{{Role: last.Role, Text: cutRunes(last.Text, lo) + cutMark}}
		h.Omitted = len(msgs) - 1
		return h
	}
	h.Messages = append(h.Messages, msgs[keep:]...)
	h.Omitted = keep
	return h
}

// cutMark ends a thread message cut to fit.
const cutMark = " … (cut)"

// cutRunes is s cut to at most n bytes without splitting a rune.
func cutRunes(s string, n int) string {
	if n >= len(s) {
		return s
	}
	for n > 0 && n < len(s) && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n]
}

// AttachmentsOmitted is one line naming attachments of a message that are
// not sent with it: "<attachments_omitted>notes.txt, shot.png: Reason
// </attachments_omitted>". Names and Reason are escaped (& < >) and kept on
// one line.
type AttachmentsOmitted struct {
	Names  []string
	Reason string
}

func (AttachmentsOmitted) Kind() *Kind { return AttachmentsOmittedKind }

func (a AttachmentsOmitted) Body() string {
	names := make([]string, len(a.Names))
	for i, n := range a.Names {
		names[i] = escape(oneLine(n))
	}
	return strings.Join(names, ", ") + ": " + escape(oneLine(a.Reason))
}

// oneLine turns line breaks into spaces.
func oneLine(s string) string {
	if !strings.ContainsAny(s, "\r\n") {
		return s
	}
	return strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(s)
}

// EscapeAttr escapes an attribute value as DESIGN.md 3.5 does: & " < > as
// entities.
func EscapeAttr(s string) string {
	if !strings.ContainsAny(s, `&"<>`) {
		return s
	}
	return strings.NewReplacer("&", "&amp;", `"`, "&quot;", "<", "&lt;", ">", "&gt;").Replace(s)
}

// unescapeAttr reverses EscapeAttr.
func unescapeAttr(s string) string {
	if !strings.Contains(s, "&") {
		return s
	}
	return strings.NewReplacer("&quot;", `"`, "&lt;", "<", "&gt;", ">", "&amp;", "&").Replace(s)
}

// EscapeTag makes text safe inside a fragment whose tag is tag (DESIGN.md
// 3.5 step 5): every "<" that starts tag, optionally after "/", ASCII
// case-insensitive, followed by a character that is not a word character
// ([A-Za-z0-9_]) or by the end of the text, becomes "&lt;".
func EscapeTag(text, tag string) string {
	i := strings.IndexByte(text, '<')
	if i < 0 {
		return text
	}
	var b strings.Builder
	last := 0
	for ; i >= 0; i = nextLT(text, i+1) {
		j := i + 1
		if j < len(text) && text[j] == '/' {
			j++
		}
		if j+len(tag) > len(text) || !asciiEqualFold(text[j:j+len(tag)], tag) {
			continue
		}
		if k := j + len(tag); k < len(text) && isWordByte(text[k]) {
			continue
		}
		if b.Len() == 0 {
			b.Grow(len(text) + 16)
		}
		b.WriteString(text[last:i])
		b.WriteString("&lt;")
		last = i + 1
	}
	if last == 0 {
		return text
	}
	b.WriteString(text[last:])
	return b.String()
}

func nextLT(s string, from int) int {
	if from >= len(s) {
		return -1
	}
	j := strings.IndexByte(s[from:], '<')
	if j < 0 {
		return -1
	}
	return from + j
}

func isWordByte(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// ParsedPayload is what ParseAttachedFile and ParseThreadHistory read back
// from a rendering: the attribute values (unescaped) and the text between
// the opening tag's line and the end marker, as rendered (still escaped).
type ParsedPayload struct {
	Attrs map[string]string
	Body  string
}

// ParseAttachedFile reads an <attached_file …> fragment back from text:
// its name and id attributes and its body. It reports false when the
// registry's claim rule does not see this kind, or the opening tag is
// malformed.
func ParseAttachedFile(text string) (ParsedPayload, bool) {
	return parsePayload(AttachedFileKind, text)
}

// ParseThreadHistory reads a <thread_history …> fragment back from text,
// as ParseAttachedFile does.
func ParseThreadHistory(text string) (ParsedPayload, bool) {
	return parsePayload(ThreadHistoryKind, text)
}

// parsePayload reads ` key="value" …>` after the begin marker, then LF,
// then the body up to the end marker.
func parsePayload(k *Kind, text string) (ParsedPayload, bool) {
	inner, ok := k.Unwrap(text)
	if !ok {
		return ParsedPayload{}, false
	}
	p := ParsedPayload{Attrs: map[string]string{}}
	s := inner
	for {
		if s == "" {
			return ParsedPayload{}, false
		}
		if s[0] == '>' {
			s = s[1:]
			break
		}
		if s[0] != ' ' {
			return ParsedPayload{}, false
		}
		s = s[1:]
		eq := strings.IndexByte(s, '=')
		if eq <= 0 || eq+1 >= len(s) || s[eq+1] != '"' {
			return ParsedPayload{}, false
		}
		key := s[:eq]
		for i := 0; i < len(key); i++ {
			if !isWordByte(key[i]) {
				return ParsedPayload{}, false
			}
		}
		rest := s[eq+2:]
		end := strings.IndexByte(rest, '"')
		if end < 0 {
			return ParsedPayload{}, false
		}
		if _, dup := p.Attrs[key]; dup {
			return ParsedPayload{}, false
		}
		p.Attrs[key] = unescapeAttr(rest[:end])
		s = rest[end+1:]
	}
	if !strings.HasPrefix(s, "\n") {
		return ParsedPayload{}, false
	}
	p.Body = strings.TrimSuffix(s[1:], "\n")
	return p, true
}
