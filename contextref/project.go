package contextref

import (
	"strconv"
	"strings"
)

// Project writes the provider projection of a message (DESIGN.md 3.5): each
// reference becomes a readable marker "[<Kind>: <label>; ref=<id>]" and one
// <t3_context> envelope after the text holds an entry per distinct referenced
// id, in first-reference order. A text without references comes back
// unchanged. Records are indexed by exact context id; an id held by two
// records counts as missing. Labels and bodies are data: nothing in them can
// open, forge or close an entry.
func Project(text string, records []Record) string {
	if !HasReferences(text) {
		return text
	}
	byID := make(map[string]Record, len(records))
	dup := map[string]bool{}
	for _, r := range records {
		id := r.RecordBase().ContextID
		if _, ok := byID[id]; ok {
			dup[id] = true
		}
		byID[id] = r
	}
	for id := range dup {
		delete(byID, id)
	}

	type ref struct{ id, kind string }
	var order []ref
	seen := map[string]bool{}
	var b strings.Builder
	last := 0
	scan(text, func(o Occurrence) {
		if last == 0 {
			b.Grow(len(text) + len(text)/8 + 4096)
		}
		kind := o.Kind
		if r, ok := byID[o.ContextID]; ok {
			kind = r.RecordBase().Kind
		}
		if !seen[o.ContextID] {
			seen[o.ContextID] = true
			order = append(order, ref{o.ContextID, o.Kind})
		}
		b.WriteString(text[last:o.Start])
		b.WriteByte('[')
		b.WriteString(KindTitle(kind))
		b.WriteString(": ")
		b.WriteString(markerLabel(o.Label))
		b.WriteString("; ref=")
		b.WriteString(o.ContextID)
		b.WriteByte(']')
		last = o.End
	})
	if len(order) == 0 {
		return text
	}
	b.WriteString(text[last:])

	wrote := false
	for _, rf := range order {
		r, ok := byID[rf.id]
		if ok {
			if spec, known := specByKind[r.RecordBase().Kind]; known && !spec.Entry {
				continue
			}
		}
		if !wrote {
			b.WriteString("\n\n<t3_context version=\"1\">\n")
			wrote = true
		} else {
			b.WriteByte('\n')
		}
		if !ok {
			b.WriteString(`<context kind="` + escapeAttr(rf.kind) + `" id="` + escapeAttr(rf.id) + `" unavailable="true"/>`)
			continue
		}
		b.WriteString(`<context kind="` + escapeAttr(r.RecordBase().Kind) + `" id="` + escapeAttr(rf.id) + "\">\n")
		b.WriteString(escapeContextTags(recordBody(r)))
		b.WriteString("\n</context>")
	}
	if wrote {
		b.WriteString("\n</t3_context>")
	}
	return b.String()
}

// KindTitle is how a kind reads in a marker: '-' becomes a space and the
// first letter is upper-cased ("review-comment" → "Review comment").
func KindTitle(kind string) string {
	s := strings.ReplaceAll(kind, "-", " ")
	if s != "" && s[0] >= 'a' && s[0] <= 'z' {
		s = string(s[0]-'a'+'A') + s[1:]
	}
	return s
}

// markerLabel makes a link label safe inside a marker: CR, LF, ';' and ']'
// become spaces, white space folds, the result is trimmed and escaped.
func markerLabel(label string) string {
	s := strings.Map(func(r rune) rune {
		switch r {
		case '\r', '\n', ';', ']':
			return ' '
		}
		return r
	}, label)
	return escapeContextTags(TrimJS(foldJSSpace(s)))
}

var attrEscaper = strings.NewReplacer("&", "&amp;", `"`, "&quot;", "<", "&lt;", ">", "&gt;")

func escapeAttr(s string) string { return attrEscaper.Replace(s) }

// escapeContextTags turns every '<' that starts a t3_context or context tag
// (optionally a closing one; ASCII case-insensitive; followed by a non-word
// character or the end) into "&lt;".
func escapeContextTags(s string) string {
	if strings.IndexByte(s, '<') < 0 {
		return s
	}
	var b strings.Builder
	last := 0
	for i := 0; i < len(s); i++ {
		if s[i] != '<' || !startsContextTag(s[i+1:]) {
			continue
		}
		if last == 0 {
			b.Grow(len(s) + 16)
		}
		b.WriteString(s[last:i])
		b.WriteString("&lt;")
		last = i + 1
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

func startsContextTag(s string) bool {
	s = strings.TrimPrefix(s, "/")
	for _, name := range [...]string{"t3_context", "context"} {
		if len(s) >= len(name) && strings.EqualFold(s[:len(name)], name) {
			if len(s) == len(name) || !isWordByte(s[len(name)]) {
				return true
			}
		}
	}
	return false
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

// recordBody is the entry body of a record, lines joined by "\n", before
// tag escaping: the kind table's body, or the payload of an unknown record.
func recordBody(r Record) string {
	if spec, ok := specByKind[r.RecordBase().Kind]; ok && spec.owns(r) {
		return spec.Body(r)
	}
	if u, ok := r.(*UnknownRecord); ok {
		s, err := JSStringify(u.Payload)
		if err != nil {
			s = "null"
		}
		return s
	}
	return ""
}

func attachmentBody(r *AttachmentRecord) []string {
	return []string{
		"name: " + r.Name,
		"mimeType: " + r.MimeType,
		"sizeBytes: " + strconv.FormatInt(r.SizeBytes, 10),
		"attachmentId: " + r.AttachmentID,
	}
}

func elementBody(d *ElementDetails) []string {
	lines := []string{"url: " + d.PageURL, "tag: " + d.TagName}
	if d.PageTitle != nil && *d.PageTitle != "" {
		lines = append(lines, "title: "+*d.PageTitle)
	}
	if d.Selector != nil && *d.Selector != "" {
		lines = append(lines, "selector: "+*d.Selector)
	}
	if d.ComponentName != nil && *d.ComponentName != "" {
		lines = append(lines, "component: "+*d.ComponentName)
	}
	if d.Source != nil && d.Source.FileName != nil && *d.Source.FileName != "" {
		src := *d.Source.FileName
		if d.Source.LineNumber != nil {
			src += ":" + strconv.FormatInt(*d.Source.LineNumber, 10)
			if d.Source.ColumnNumber != nil {
				src += ":" + strconv.FormatInt(*d.Source.ColumnNumber, 10)
			}
		}
		lines = append(lines, "source: "+src)
	}
	if h := TrimJS(d.HTMLPreview); h != "" {
		lines = append(lines, "html:")
		lines = append(lines, indent(h)...)
	}
	if s := TrimJS(d.Styles); s != "" {
		lines = append(lines, "styles:")
		lines = append(lines, indent(s)...)
	}
	return lines
}

// indent splits s into lines and puts two spaces before each.
func indent(s string) []string {
	parts := strings.Split(s, "\n")
	for i, p := range parts {
		parts[i] = "  " + p
	}
	return parts
}
