package chips

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/chipchat/chipchat/contextref"
)

// painter holds the built-in renderers of the known kinds (each kind's
// surfaces come from its KindView) and of the unresolved chip.
type painter struct{ th *Theme }

// renderer is the built-in renderer of surface s; it serves every kind (the
// registry has already checked that the record fits the chip's kind).
func (p *painter) renderer(s Surface) Renderer {
	switch s {
	case Compact:
		return p.compact
	case Details:
		return func(c Chip, width int) string { return p.view(c, width, false) }
	}
	return func(c Chip, width int) string { return p.view(c, width, true) }
}

// ---- compact ----

// compact draws "<glyph> <label>" as a pill in the kind's colour. A mention
// shows its path (cut at the start, keeping the file name); a review comment
// with a pull request shows "#<number>" in the tone of the PR's state.
func (p *painter) compact(c Chip, width int) string {
	ks := p.th.kind(c.Kind)
	tone := ks.Tone
	lbl := chipLabel(c)
	keepEnd := false
	if v, ok := viewByKind[c.Kind]; ok && contextref.RecordOfKind(c.Record, c.Kind) {
		lbl, tone, keepEnd = v.compact(p, c, lbl, tone)
	}
	return p.pill(tone.Chip, ks.Glyph, lbl, width, c.Selected, keepEnd)
}

// pill lays out caps, glyph and label in at most width columns: the label
// is cut first, then the caps go, and at last the glyph stands alone.
func (p *painter) pill(style lipgloss.Style, glyph, label string, width int, selected, keepEnd bool) string {
	if selected {
		style = p.th.Selected.Inherit(style)
	}
	lc, rc := p.th.CapLeft, p.th.CapRight
	sep := " "
	if label == "" || glyph == "" {
		sep = ""
	}
	full := lc + glyph + sep + label + rc
	if width <= 0 || ansi.StringWidth(full) <= width {
		return style.Render(full)
	}
	cut := Truncate
	if keepEnd {
		cut = truncateLeft
	}
	gw := ansi.StringWidth(glyph) + len(sep)
	if room := width - ansi.StringWidth(lc) - gw - ansi.StringWidth(rc); room >= 1 {
		return style.Render(lc + glyph + sep + cut(label, room) + rc)
	}
	if room := width - gw; room >= 1 {
		return style.Render(glyph + sep + cut(label, room))
	}
	if g := Truncate(glyph, width); g != "" {
		return style.Render(g)
	}
	return style.Render(Truncate(label, width))
}

// chipLabel is the label a chip shows: its own, on one line, or a name
// taken from its record, or its kind's title.
func chipLabel(c Chip) string {
	if l := oneLine(c.Label); l != "" {
		return l
	}
	if l := recordName(c.Record); l != "" {
		return l
	}
	return kindTitle(c.Kind)
}

// recordName is a short name for a record from its own fields.
func recordName(r contextref.Record) string {
	if isNil(r) {
		return ""
	}
	kind := r.RecordBase().Kind
	if v, ok := viewByKind[kind]; ok && contextref.RecordOfKind(r, kind) {
		return oneLine(v.name(r))
	}
	return ""
}

// kindTitle is the kind as a title ("Review comment"), "Context" for none.
func kindTitle(kind string) string {
	if t := oneLine(contextref.KindTitle(kind)); t != "" {
		return t
	}
	return "Context"
}

// ---- details and expanded ----

// view draws the details (full false) or expanded (full true) view of a
// resolved chip.
func (p *painter) view(c Chip, width int, full bool) string {
	d := &doc{th: p.th, width: width, full: full}
	ks := p.th.kind(c.Kind)
	d.heading(ks.Text, c.Selected, ks.Glyph, kindTitle(c.Kind), chipLabel(c))
	if v, ok := viewByKind[c.Kind]; ok && contextref.RecordOfKind(c.Record, c.Kind) {
		v.body(p, d, c.Record)
	} else if u, ok := c.Record.(*contextref.UnknownRecord); ok {
		// A registered kind outside the table without its own view.
		p.payload(d, u)
	}
	if full {
		d.field("ref", c.Kind+"/"+c.ContextID, p.th.Muted)
	}
	return d.String()
}

func (p *painter) attachment(d *doc, r *contextref.AttachmentRecord) {
	plain := lipgloss.NewStyle()
	d.field("name", r.Name, plain)
	if !d.full {
		d.segs(seg{"type: ", p.th.Key}, seg{SanitizeLine(r.MimeType), plain},
			seg{" · " + humanSize(r.SizeBytes), p.th.Muted})
		return
	}
	d.field("type", r.MimeType, plain)
	d.field("size", humanSize(r.SizeBytes)+" ("+strconv.FormatInt(r.SizeBytes, 10)+" bytes)", plain)
	d.field("attachment", r.AttachmentID, p.th.Muted)
}

// detailsLines is how many lines of a text the details view shows.
const detailsLines = 3

func (p *painter) terminal(d *doc, r *contextref.TerminalRecord) {
	plain := lipgloss.NewStyle()
	lines, extra := excerpt(r)
	rng := lineRange(r.LineStart, r.LineEnd)
	if !d.full {
		d.segs(seg{"terminal: ", p.th.Key}, seg{oneLine(r.TerminalLabel), plain}, seg{" · " + rng, p.th.Muted})
		shown := lines
		if len(shown) > detailsLines {
			shown = shown[:detailsLines]
		}
		d.numbered(r.LineStart, shown)
		if n := len(lines) - len(shown); n > 0 {
			d.note(moreLines(n))
		}
		return
	}
	d.field("terminal", r.TerminalLabel, plain)
	d.field("id", r.TerminalID, p.th.Muted)
	d.field("range", rng, plain)
	d.numbered(r.LineStart, lines)
	if extra > 0 {
		d.note("… " + plural(extra, "more line") + " of text past line " + strconv.FormatInt(r.LineEnd, 10))
	}
}

// excerpt splits a terminal record's text into its lines, at most
// lineEnd-lineStart+1 as the provider projection does; extra counts the
// lines of text past that.
func excerpt(r *contextref.TerminalRecord) (lines []string, extra int) {
	raw := strings.Split(r.Text, "\n")
	n := r.LineEnd - r.LineStart + 1
	if n < 1 {
		n = 1
	}
	if int64(len(raw)) > n {
		extra = len(raw) - int(n)
		raw = raw[:n]
	}
	lines = make([]string, len(raw))
	for i, l := range raw {
		lines[i] = SanitizeLine(ExpandTabs(l))
	}
	return lines, extra
}

func lineRange(a, b int64) string {
	if a == b {
		return "line " + strconv.FormatInt(a, 10)
	}
	return "lines " + strconv.FormatInt(a, 10) + "–" + strconv.FormatInt(b, 10) +
		" (" + strconv.FormatInt(b-a+1, 10) + ")"
}

// element draws an element's details; the preview view reuses it for each
// of its elements.
func (p *painter) element(d *doc, e *contextref.ElementDetails) {
	plain := lipgloss.NewStyle()
	tag := "<" + oneLine(e.TagName) + ">"
	comp := optional(e.ComponentName)
	if !d.full {
		parts := []seg{{tag, plain}}
		if comp != "" {
			parts = append(parts, seg{" · " + comp, p.th.Muted})
		}
		d.segs(parts...)
		if sel := optional(e.Selector); sel != "" {
			d.field("selector", sel, plain)
		}
		if t := optional(e.PageTitle); t != "" {
			d.field("page", t, plain)
		} else if e.PageURL != "" {
			d.field("page", e.PageURL, plain)
		}
		if src := sourceText(e.Source); src != "" {
			d.field("source", src, plain)
		}
		return
	}
	d.field("url", e.PageURL, plain)
	if t := optional(e.PageTitle); t != "" {
		d.field("title", t, plain)
	}
	d.field("tag", tag, plain)
	if sel := optional(e.Selector); sel != "" {
		d.field("selector", sel, plain)
	}
	if comp != "" {
		d.field("component", comp, plain)
	}
	if src := sourceText(e.Source); src != "" {
		d.field("source", src, plain)
	}
	if e.Source != nil {
		if fn := optional(e.Source.FunctionName); fn != "" {
			d.field("function", fn, plain)
		}
	}
	if strings.TrimSpace(e.HTMLPreview) != "" {
		d.styled("html:", p.th.Key, false)
		d.indented(2, func() { d.block(strings.TrimSpace(e.HTMLPreview), false, 0, nil) })
	}
	if strings.TrimSpace(e.Styles) != "" {
		d.styled("styles:", p.th.Key, false)
		d.indented(2, func() { d.block(strings.TrimSpace(e.Styles), false, 0, nil) })
	}
}

// sourceText is "file[:line[:column]]", or "" without a file name.
func sourceText(s *contextref.ElementSource) string {
	if s == nil {
		return ""
	}
	f := optional(s.FileName)
	if f == "" {
		return ""
	}
	if s.LineNumber != nil {
		f += ":" + strconv.FormatInt(*s.LineNumber, 10)
		if s.ColumnNumber != nil {
			f += ":" + strconv.FormatInt(*s.ColumnNumber, 10)
		}
	}
	return f
}

// optional is an optional string field on one line, "" when absent.
func optional(s *string) string {
	if s == nil {
		return ""
	}
	return oneLine(*s)
}

func (p *painter) preview(d *doc, r *contextref.PreviewAnnotationRecord) {
	plain := lipgloss.NewStyle()
	title := optional(r.PageTitle)
	nElems := 0
	if r.Elements != nil {
		nElems = len(*r.Elements)
	}
	if !d.full {
		page := title
		if page == "" {
			page = r.PageURL
		}
		d.field("page", page, plain)
		if c := firstLine(r.Comment); c != "" {
			d.field("comment", c, plain)
		}
		if t := oneLine(r.TargetSummary); t != "" {
			d.field("targets", t, plain)
		}
		var counts []string
		if n := len(r.StyleChanges); n > 0 {
			counts = append(counts, plural(n, "visual change"))
		}
		if nElems > 0 {
			counts = append(counts, plural(nElems, "element"))
		}
		if r.ScreenshotContextID != nil {
			counts = append(counts, "screenshot")
		}
		if len(counts) > 0 {
			d.note(strings.Join(counts, " · "))
		}
		return
	}
	d.field("annotation", r.AnnotationID, p.th.Muted)
	if title != "" {
		d.field("page", title, plain)
	}
	d.field("url", r.PageURL, plain)
	if strings.TrimSpace(r.Comment) != "" {
		d.styled("comment:", p.th.Key, false)
		d.indented(2, func() { d.block(strings.TrimSpace(r.Comment), true, 0, nil) })
	}
	if r.TargetSummary != "" {
		d.field("targets", r.TargetSummary, plain)
	}
	if len(r.StyleChanges) > 0 {
		d.styled("requested visual changes:", p.th.Key, false)
		d.indented(2, func() {
			for _, ch := range r.StyleChanges {
				d.bullet(SanitizeLine(ch))
			}
		})
	}
	if r.StyleChangeDetails != nil && len(*r.StyleChangeDetails) > 0 {
		d.styled("style changes:", p.th.Key, false)
		d.indented(2, func() {
			for _, ch := range *r.StyleChangeDetails {
				target := optional(ch.Selector)
				if target == "" {
					target = oneLine(ch.TargetID)
				}
				d.bullet(target + " " + SanitizeLine(ch.Property) + ": " +
					SanitizeLine(ch.PreviousValue) + " → " + SanitizeLine(ch.Value))
			}
		})
	}
	if r.ElementIDs != nil && len(*r.ElementIDs) > 0 {
		ids := make([]string, len(*r.ElementIDs))
		for i, id := range *r.ElementIDs {
			ids[i] = oneLine(id)
		}
		d.field("element ids", strings.Join(ids, ", "), plain)
	}
	if r.RegionCount != nil {
		d.field("regions", strconv.FormatInt(*r.RegionCount, 10), plain)
	}
	if r.StrokeCount != nil {
		d.field("strokes", strconv.FormatInt(*r.StrokeCount, 10), plain)
	}
	if r.ScreenshotContextID != nil {
		d.field("screenshot", "ref="+*r.ScreenshotContextID, p.th.Muted)
	}
	if r.Elements != nil {
		for i := range *r.Elements {
			d.styled("element "+strconv.Itoa(i+1)+":", p.th.Key, false)
			d.indented(2, func() { p.element(d, &(*r.Elements)[i]) })
		}
	}
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}

func (p *painter) review(d *doc, r *contextref.ReviewCommentRecord) {
	plain := lipgloss.NewStyle()
	rng := oneLine(r.RangeLabel)
	if !d.full {
		parts := []seg{{"file: ", p.th.Key}, {SanitizeLine(r.FilePath), plain}}
		if rng != "" {
			parts = append(parts, seg{" · " + rng, p.th.Muted})
		}
		d.segs(parts...)
		if t := oneLine(r.SectionTitle); t != "" {
			d.field("section", t, plain)
		}
		p.reviewSource(d, r)
		if pr := r.PullRequest; pr != nil {
			tone := p.th.prTone(pr).Text
			d.segs(seg{"#" + strconv.FormatInt(pr.Number, 10), tone},
				seg{" " + oneLine(pr.Title), plain},
				seg{" (" + prState(pr) + ")", tone},
				seg{" " + oneLine(pr.HeadBranch) + " → " + oneLine(pr.BaseBranch), p.th.Muted})
		}
		if c := firstLine(r.Text); c != "" {
			d.styled(c, plain, true)
		}
		return
	}
	d.field("file", r.FilePath, plain)
	d.field("range", strings.TrimSpace(rng+" ("+strconv.FormatInt(r.StartIndex, 10)+"-"+strconv.FormatInt(r.EndIndex, 10)+")"), plain)
	section := oneLine(r.SectionTitle)
	if id := oneLine(r.SectionID); id != "" && id != section {
		section = strings.TrimSpace(section + " (" + id + ")")
	}
	d.field("section", section, plain)
	p.reviewSource(d, r)
	if pr := r.PullRequest; pr != nil {
		tone := p.th.prTone(pr).Text
		d.field("pull request", "#"+strconv.FormatInt(pr.Number, 10)+" "+pr.Title, plain)
		d.field("state", prState(pr), tone)
		d.field("branches", oneLine(pr.HeadBranch)+" → "+oneLine(pr.BaseBranch), plain)
		if pr.URL != "" {
			d.field("url", pr.URL, p.th.Muted)
		}
	}
	if strings.TrimSpace(r.Text) != "" {
		d.styled("comment:", p.th.Key, false)
		d.indented(2, func() { d.block(strings.TrimSpace(r.Text), true, 0, nil) })
	}
	if strings.TrimSpace(r.Diff) != "" {
		lang := "diff"
		if r.FenceLanguage != nil {
			lang = oneLine(*r.FenceLanguage)
		}
		colour := lang == "" || lang == "diff" || lang == "patch"
		if lang == "" {
			lang = "code"
		}
		d.styled(lang+":", p.th.Key, false)
		diff := strings.TrimRight(r.Diff, " \t\r\n")
		d.indented(2, func() {
			d.block(diff, false, 0, func(l string) lipgloss.Style {
				if !colour {
					return plain
				}
				return p.diffStyle(l)
			})
		})
	}
}

// reviewSource shows the revision the comment's source was read at and,
// when the captured location is stale, says so (as the projection tells the
// agent).
func (p *painter) reviewSource(d *doc, r *contextref.ReviewCommentRecord) {
	if r.SourceRevision != nil && *r.SourceRevision != "" {
		d.field("revision", *r.SourceRevision, p.th.Muted)
	}
	if r.SourceStale != nil && *r.SourceStale {
		d.field("source", "outdated: the file changed since this excerpt was taken", p.th.Why)
	}
}

// diffStyle colours a diff line by its first characters.
func (p *painter) diffStyle(l string) lipgloss.Style {
	switch {
	case strings.HasPrefix(l, "@@"):
		return p.th.DiffHunk
	case strings.HasPrefix(l, "+++"), strings.HasPrefix(l, "---"):
		return p.th.Key
	case strings.HasPrefix(l, "+"):
		return p.th.DiffAdd
	case strings.HasPrefix(l, "-"):
		return p.th.DiffDel
	}
	return lipgloss.NewStyle()
}

// payload draws an unknown record's payload as JavaScript's JSON.stringify
// writes it (what the agent reads): on one line in details, indented two
// spaces per level when expanded.
func (p *painter) payload(d *doc, r *contextref.UnknownRecord) {
	s, err := contextref.JSStringify(r.Payload)
	if err != nil {
		s = string(r.Payload)
	}
	if !d.full {
		d.field("payload", s, p.th.Muted)
		return
	}
	var buf bytes.Buffer
	if json.Indent(&buf, []byte(s), "", "  ") == nil {
		s = buf.String()
	}
	d.styled("payload:", p.th.Key, false)
	d.indented(2, func() { d.block(s, false, 0, nil) })
}

// ---- unresolved ----

// unresolved draws the unresolved chip on surface s: "? <label>" in its own
// style when compact ("? <kind>: <label>" for a kind chipchat does not know,
// so the chip says what it is); the kind, label and reason (and for an
// unknown record its payload, when expanded) otherwise.
func (p *painter) unresolved(s Surface, c Chip, why string, width int) string {
	us := p.th.Unresolved
	lbl := oneLine(c.Label)
	if lbl == "" {
		lbl = kindTitle(c.Kind)
	}
	if s == Compact {
		if kind := oneLine(c.Kind); kind != "" && !contextref.IsKnownKind(c.Kind) && !strings.EqualFold(lbl, kind) && lbl != kindTitle(c.Kind) {
			lbl = kind + ": " + lbl
		}
		return p.pill(us.Chip, us.Glyph, lbl, width, c.Selected, false)
	}
	d := &doc{th: p.th, width: width, full: s == Expanded}
	d.heading(us.Text, c.Selected, us.Glyph, "Unresolved "+strings.ToLower(kindTitle(c.Kind)), lbl)
	d.field("why", why, p.th.Why)
	d.field("ref", c.Kind+"/"+c.ContextID, p.th.Muted)
	if u, ok := c.Record.(*contextref.UnknownRecord); ok && u != nil && d.full {
		p.payload(d, u)
	}
	return d.String()
}

// humanSize writes a byte count in binary units ("12.1 KiB").
func humanSize(n int64) string {
	if n < 1024 {
		return strconv.FormatInt(n, 10) + " B"
	}
	units := [...]string{"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}
	f := float64(n)
	i := -1
	for f >= 1024 && i < len(units)-1 {
		f /= 1024
		i++
	}
	return strconv.FormatFloat(f, 'f', 1, 64) + " " + units[i]
}
