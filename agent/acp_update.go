package agent

import (
	"encoding/binary"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"

	acp "github.com/coder/acp-go-sdk"
)

// chipchat decodes the common session/update notifications itself, on the
// line reader's goroutine (acp_lines.go), before the SDK sees them: the
// SDK's decoding of one (a line, then its params, then each nested union
// through a map and again as its variant: encoding/json runs over the
// bytes about ten times) took 30–50 % of chipchat's CPU while an agent
// streamed, ~15 µs a chunk and ~35 ms a MB.
//
// acpDecodeUpdate takes only a strict subset of what the SDK takes, and
// gives for it exactly the value the SDK would (FuzzACPDecodeUpdate holds
// it to the SDK's own decoding): a notification (no "id") whose method is
// session/update, with no member beyond those listed below, each once,
// with its exact name and no escapes in it, and with string values only:
//
//   - agent_message_chunk and agent_thought_chunk: sessionUpdate,
//     content (a text block: type and text), messageId;
//   - tool_call and tool_call_update: sessionUpdate, toolCallId, title,
//     kind, status, content (a list of text content blocks, diffs —
//     path, oldText, newText — and terminals).
//
// Anything else (another method or update, _meta, annotations, rawInput,
// locations, null, numbers, a member repeated or spelled with other case,
// junk) is not decoded here and goes to the SDK unchanged.

// acpDec is a cursor in one line.
type acpDec struct {
	b []byte
	i int
}

func (d *acpDec) ws() { d.i = acpSkipSpace(d.b, d.i) }

// is reports whether the next byte (after space) is c, and takes it.
func (d *acpDec) is(c byte) bool {
	d.ws()
	if d.i < len(d.b) && d.b[d.i] == c {
		d.i++
		return true
	}
	return false
}

// object parses an object whose members are all known to member: it gets
// each key (with the cursor at its value), parses the value and returns
// the key's bit, 0 for a key or value it does not take. A key seen twice
// is refused.
func (d *acpDec) object(member func(key []byte) uint32) (seen uint32, ok bool) {
	if !d.is('{') {
		return 0, false
	}
	if d.is('}') {
		return 0, true
	}
	for {
		d.ws()
		k, ok := d.key()
		if !ok || !d.is(':') {
			return 0, false
		}
		d.ws()
		bit := member(k)
		if bit == 0 || seen&bit != 0 {
			return 0, false
		}
		seen |= bit
		if d.is(',') {
			continue
		}
		if d.is('}') {
			return seen, true
		}
		return 0, false
	}
}

// key is the key at the cursor, refused when it has an escape or a
// control character (no known key has).
func (d *acpDec) key() ([]byte, bool) {
	if d.i >= len(d.b) || d.b[d.i] != '"' {
		return nil, false
	}
	for j := d.i + 1; j < len(d.b); j++ {
		switch c := d.b[j]; {
		case c == '"':
			k := d.b[d.i+1 : j]
			d.i = j + 1
			return k, true // read by switch string(k), which copies nothing
		case c == '\\' || c < 0x20:
			return nil, false
		}
	}
	return nil, false
}

// skip moves past the value at the cursor, checking only its structure
// (it is parsed later, from its start, by what knows its type).
func (d *acpDec) skip() (start int, ok bool) {
	start = d.i
	end := acpSkipValue(d.b, d.i)
	if end < 0 {
		return 0, false
	}
	d.i = end
	return start, true
}

// str parses the JSON string at the cursor as encoding/json does: escapes
// decoded, an unpaired surrogate escape and each byte of invalid UTF-8
// replaced by U+FFFD; a control character or a bad escape refuses it.
func (d *acpDec) str() (string, bool) {
	b := d.b
	if d.i >= len(b) || b[d.i] != '"' {
		return "", false
	}
	start := d.i + 1
	// The common case: printable ASCII, no escape.
	j := acpPlainRun(b, start)
	if j < len(b) && b[j] == '"' {
		d.i = j + 1
		return string(b[start:j]), true
	}
	// The decoded string is at most as long as the raw one but for
	// invalid bytes (each becomes a 3-byte U+FFFD): size it once from
	// where the string ends, and hand the buffer over as the string
	// (nothing writes to it after).
	size := len(b) - start
	if end := acpSkipString(b, d.i); end > 0 {
		size = end - start
	}
	out := make([]byte, j-start, size)
	copy(out, b[start:j])
	for j < len(b) {
		c := b[j]
		switch {
		case c == '"':
			d.i = j + 1
			if len(out) == 0 || cap(out) > 2*len(out)+4096 {
				return string(out), true // escapes shrank it: do not keep the rest
			}
			return unsafe.String(&out[0], len(out)), true
		case c < 0x20:
			return "", false
		case c == '\\':
			if j+1 >= len(b) {
				return "", false
			}
			switch b[j+1] {
			case '"', '\\', '/':
				out = append(out, b[j+1])
			case 'b':
				out = append(out, '\b')
			case 'f':
				out = append(out, '\f')
			case 'n':
				out = append(out, '\n')
			case 'r':
				out = append(out, '\r')
			case 't':
				out = append(out, '\t')
			case 'u':
				r := acpHex4(b[j+2:])
				if r < 0 {
					return "", false
				}
				j += 6
				if utf16.IsSurrogate(r) {
					if j+1 < len(b) && b[j] == '\\' && b[j+1] == 'u' {
						if dec := utf16.DecodeRune(r, acpHex4(b[j+2:])); dec != utf8.RuneError {
							out = utf8.AppendRune(out, dec)
							j += 6
							continue
						}
					}
					r = utf8.RuneError
				}
				out = utf8.AppendRune(out, r)
				continue
			default:
				return "", false
			}
			j += 2
		case c < utf8.RuneSelf:
			// A run of plain bytes at once.
			k := acpPlainRun(b, j+1)
			out = append(out, b[j:k]...)
			j = k
		default:
			r, size := utf8.DecodeRune(b[j:])
			if r == utf8.RuneError && size == 1 {
				out = utf8.AppendRune(out, utf8.RuneError)
			} else {
				out = append(out, b[j:j+size]...)
			}
			j += size
		}
	}
	return "", false
}

// acpPlainRun is the index of the first byte of b from i on that a JSON
// string cannot copy as it is (a quote, a backslash, a control character
// or a byte of a multi-byte UTF-8 sequence), len(b) if none. It reads
// eight bytes at a time: the strings an agent resends whole (a tool's
// output, a file) are megabytes of such bytes.
func acpPlainRun(b []byte, i int) int {
	const (
		ones  = 0x0101010101010101
		highs = 0x8080808080808080
	)
	for ; i+8 <= len(b); i += 8 {
		w := binary.LittleEndian.Uint64(b[i:])
		// A byte's high bit is set in m when the byte is ≥ 0x80, < 0x20,
		// a quote or a backslash (the classic has-zero-byte test on w,
		// on w minus 0x20 and on w xor each byte; it may flag a byte
		// above a flagged one, never miss one, so the flagged run is
		// checked byte by byte).
		q := w ^ (ones * '"')
		s := w ^ (ones * '\\')
		m := w | (w - ones*0x20) | ((q - ones) &^ q) | ((s - ones) &^ s)
		if m&highs != 0 {
			break
		}
	}
	for i < len(b) {
		if c := b[i]; c < 0x20 || c >= utf8.RuneSelf || c == '"' || c == '\\' {
			return i
		}
		i++
	}
	return i
}

// acpHex4 is the rune of the four hex digits b starts with, -1 if not.
func acpHex4(b []byte) rune {
	if len(b) < 4 {
		return -1
	}
	var r rune
	for _, c := range b[:4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return -1
		}
		r = r*16 + rune(c)
	}
	return r
}

// at is a cursor at start of the same line.
func (d *acpDec) at(start int) *acpDec { return &acpDec{b: d.b, i: start} }

// acpDecodeUpdate decodes line (one JSON-RPC message, its newline
// included or not) when it is a session/update notification of the
// shapes above; ok is false for anything else.
func acpDecodeUpdate(line []byte) (n acp.SessionNotification, ok bool) {
	d := &acpDec{b: line}
	const (
		bJSONRPC = 1 << iota
		bMethod
		bParams
	)
	method, params, decoded := false, -1, false
	seen, ok := d.object(func(k []byte) uint32 {
		switch string(k) {
		case "jsonrpc":
			if _, ok := d.str(); ok {
				return bJSONRPC
			}
		case "method":
			if s, ok := d.str(); ok && s == "session/update" {
				method = true
				return bMethod
			}
		case "params":
			if method { // the usual order: decode it at once
				params = d.i
				if d.params(&n) {
					decoded = true
					return bParams
				}
				return 0
			}
			if start, ok := d.skip(); ok {
				params = start
				return bParams
			}
		}
		return 0
	})
	if !ok || seen&(bMethod|bParams) != bMethod|bParams {
		return acp.SessionNotification{}, false
	}
	d.ws()
	if d.i != len(line) {
		return acp.SessionNotification{}, false // not one JSON value
	}
	if !decoded {
		// params came before method: decode it now.
		p := d.at(params)
		end := acpSkipValue(line, params)
		if !p.params(&n) || p.i != end {
			return acp.SessionNotification{}, false
		}
	}
	return n, true
}

// params decodes session/update's params: sessionId and update.
func (d *acpDec) params(n *acp.SessionNotification) bool {
	const (
		bSession = 1 << iota
		bUpdate
	)
	seen, ok := d.object(func(k []byte) uint32 {
		switch string(k) {
		case "sessionId":
			if s, ok := d.str(); ok {
				n.SessionId = acp.SessionId(s)
				return bSession
			}
		case "update":
			if d.update(&n.Update) {
				return bUpdate
			}
		}
		return 0
	})
	return ok && seen == bSession|bUpdate
}

// The members of an update.
const (
	acpUKind = 1 << iota
	acpUContent
	acpUMessageID
	acpUToolCallID
	acpUTitle
	acpUKindField
	acpUStatus
)

// update decodes an update of the kinds above.
func (d *acpDec) update(u *acp.SessionUpdate) bool {
	var kind, messageID, toolCallID, title, toolKind, status string
	content, contentEnd := -1, -1
	seen, ok := d.object(func(k []byte) uint32 {
		var dst *string
		var bit uint32
		switch string(k) {
		case "sessionUpdate":
			dst, bit = &kind, acpUKind
		case "messageId":
			dst, bit = &messageID, acpUMessageID
		case "toolCallId":
			dst, bit = &toolCallID, acpUToolCallID
		case "title":
			dst, bit = &title, acpUTitle
		case "kind":
			dst, bit = &toolKind, acpUKindField
		case "status":
			dst, bit = &status, acpUStatus
		case "content":
			if start, ok := d.skip(); ok {
				content, contentEnd = start, d.i
				return acpUContent
			}
			return 0
		default:
			return 0
		}
		s, ok := d.str()
		if !ok {
			return 0
		}
		*dst = s
		return bit
	})
	if !ok || seen&acpUKind == 0 {
		return false
	}
	end := d.i
	// content is parsed from its start; it must end where skip ended.
	var c *acpDec
	if content >= 0 {
		c = d.at(content)
	}
	switch kind {
	case "agent_message_chunk", "agent_thought_chunk":
		if seen&^(acpUKind|acpUContent|acpUMessageID) != 0 || c == nil {
			return false
		}
		var block acp.ContentBlock
		if !c.textBlock(&block) || c.i != contentEnd {
			return false
		}
		var mid *string
		if seen&acpUMessageID != 0 {
			mid = &messageID
		}
		if kind == "agent_message_chunk" {
			u.AgentMessageChunk = &acp.SessionUpdateAgentMessageChunk{Content: block, MessageId: mid, SessionUpdate: kind}
		} else {
			u.AgentThoughtChunk = &acp.SessionUpdateAgentThoughtChunk{Content: block, MessageId: mid, SessionUpdate: kind}
		}
	case "tool_call", "tool_call_update":
		if seen&acpUMessageID != 0 || seen&acpUToolCallID == 0 {
			return false
		}
		var cs []acp.ToolCallContent
		if c != nil {
			var ok bool
			if cs, ok = c.toolContents(); !ok || c.i != contentEnd {
				return false
			}
		}
		if kind == "tool_call" {
			u.ToolCall = &acp.SessionUpdateToolCall{Content: cs, Kind: acp.ToolKind(toolKind), SessionUpdate: kind,
				Status: acp.ToolCallStatus(status), Title: title, ToolCallId: acp.ToolCallId(toolCallID)}
			break
		}
		tu := &acp.SessionToolCallUpdate{Content: cs, SessionUpdate: kind, ToolCallId: acp.ToolCallId(toolCallID)}
		if seen&acpUKindField != 0 {
			k := acp.ToolKind(toolKind)
			tu.Kind = &k
		}
		if seen&acpUStatus != 0 {
			s := acp.ToolCallStatus(status)
			tu.Status = &s
		}
		if seen&acpUTitle != 0 {
			tu.Title = &title
		}
		u.ToolCallUpdate = tu
	default:
		return false
	}
	d.i = end
	return true
}

// textBlock decodes a text content block: type "text" and text.
func (d *acpDec) textBlock(c *acp.ContentBlock) bool {
	var typ, text string
	seen, ok := d.object(func(k []byte) uint32 {
		dst, bit := &typ, uint32(1)
		switch string(k) {
		case "type":
		case "text":
			dst, bit = &text, 2
		default:
			return 0
		}
		s, ok := d.str()
		if !ok {
			return 0
		}
		*dst = s
		return bit
	})
	if !ok || seen != 3 || typ != "text" {
		return false
	}
	c.Text = &acp.ContentBlockText{Text: text, Type: typ}
	return true
}

// toolContents decodes a tool call's content list.
func (d *acpDec) toolContents() ([]acp.ToolCallContent, bool) {
	if !d.is('[') {
		return nil, false
	}
	out := []acp.ToolCallContent{} // an empty list is not absent
	if d.is(']') {
		return out, true
	}
	for {
		var c acp.ToolCallContent
		if !d.toolContent(&c) {
			return nil, false
		}
		out = append(out, c)
		if d.is(',') {
			continue
		}
		if d.is(']') {
			return out, true
		}
		return nil, false
	}
}

// toolContent decodes one entry of a tool call's content: a text content
// block, a diff or a terminal.
func (d *acpDec) toolContent(c *acp.ToolCallContent) bool {
	const (
		bType = 1 << iota
		bContent
		bPath
		bOld
		bNew
		bTerminal
	)
	var typ, path, old, nw, term string
	var block acp.ContentBlock
	seen, ok := d.object(func(k []byte) uint32 {
		var dst *string
		var bit uint32
		switch string(k) {
		case "type":
			dst, bit = &typ, bType
		case "path":
			dst, bit = &path, bPath
		case "oldText":
			dst, bit = &old, bOld
		case "newText":
			dst, bit = &nw, bNew
		case "terminalId":
			dst, bit = &term, bTerminal
		case "content":
			if d.textBlock(&block) {
				return bContent
			}
			return 0
		default:
			return 0
		}
		s, ok := d.str()
		if !ok {
			return 0
		}
		*dst = s
		return bit
	})
	if !ok {
		return false
	}
	switch {
	case typ == "content" && seen == bType|bContent:
		c.Content = &acp.ToolCallContentContent{Content: block, Type: typ}
	case typ == "diff" && seen&^bOld == bType|bPath|bNew:
		diff := &acp.ToolCallContentDiff{NewText: nw, Path: path, Type: typ}
		if seen&bOld != 0 {
			diff.OldText = &old
		}
		c.Diff = diff
	case typ == "terminal" && seen == bType|bTerminal:
		c.Terminal = &acp.ToolCallContentTerminal{TerminalId: term, Type: typ}
	default:
		return false
	}
	return true
}
