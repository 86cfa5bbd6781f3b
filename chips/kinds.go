package chips

import (
	"path"
	"strconv"
	"strings"

	"charm.land/lipgloss/v2"

	"github.com/chipchat/chipchat/contextref"
)

// KindView is the one chips-side definition of a known kind: its glyph and
// colour, and what its three surfaces show. Default, DefaultTheme,
// NoColorTheme, Glyph and the built-in renderers consult this table and
// nothing else (TestKindViewsCoverEveryKind fails when a kind of
// contextref.KnownKinds lacks an entry or a surface).
type KindView struct {
	// Kind is the kind name.
	Kind string
	// Glyph is drawn before the label: one column wide, not of East Asian
	// ambiguous width.
	Glyph string
	// Colour is the kind's pill background and accent in DefaultTheme.
	Colour string
	// compact picks the compact chip's label (and tone, and whether the
	// label is cut at its start) from the record.
	compact func(p *painter, c Chip, label string, tone Tone) (string, Tone, bool)
	// name is a short name from the record's own fields, for a chip whose
	// label is empty.
	name func(r contextref.Record) string
	// body draws the details (d.full false) and expanded (d.full true)
	// views below the heading.
	body func(p *painter, d *doc, r contextref.Record)
}

// HasSurfaces reports whether the entry has every surface: a glyph, a
// colour, a compact label rule, a name and a details/expanded body.
func (v *KindView) HasSurfaces() bool {
	return v.Glyph != "" && v.Colour != "" && v.compact != nil && v.name != nil && v.body != nil
}

func plainCompact(_ *painter, _ Chip, label string, tone Tone) (string, Tone, bool) {
	return label, tone, false
}

var kindViews = []*KindView{
	{
		Kind: contextref.KindImage, Glyph: "⊡", Colour: "#F9A8D4", // U+22A1 squared dot: a picture frame; pink
		compact: plainCompact,
		name:    func(r contextref.Record) string { return r.(*contextref.ImageRecord).Name },
		body: func(p *painter, d *doc, r contextref.Record) {
			p.attachment(d, &r.(*contextref.ImageRecord).AttachmentRecord)
		},
	},
	{
		Kind: contextref.KindFile, Glyph: "⎘", Colour: "#93C5FD", // U+2398 next page: a document; blue
		compact: plainCompact,
		name:    func(r contextref.Record) string { return r.(*contextref.FileRecord).Name },
		body: func(p *painter, d *doc, r contextref.Record) {
			p.attachment(d, &r.(*contextref.FileRecord).AttachmentRecord)
		},
	},
	{
		Kind: contextref.KindTerminal, Glyph: "❯", Colour: "#FDE68A", // U+276F: a shell prompt; amber
		compact: plainCompact,
		name:    func(r contextref.Record) string { return r.(*contextref.TerminalRecord).TerminalLabel },
		body:    func(p *painter, d *doc, r contextref.Record) { p.terminal(d, r.(*contextref.TerminalRecord)) },
	},
	{
		Kind: contextref.KindElement, Glyph: "⟡", Colour: "#99F6E4", // U+27E1 concave diamond: a picked element; teal
		compact: plainCompact,
		name:    func(r contextref.Record) string { return "<" + r.(*contextref.ElementRecord).TagName + ">" },
		body: func(p *painter, d *doc, r contextref.Record) {
			p.element(d, &r.(*contextref.ElementRecord).ElementDetails)
		},
	},
	{
		Kind: contextref.KindPreviewAnnotation, Glyph: "◉", Colour: "#C4B5FD", // U+25C9 fisheye: a mark on a preview; violet
		compact: plainCompact,
		name: func(r contextref.Record) string {
			pa := r.(*contextref.PreviewAnnotationRecord)
			if pa.PageTitle != nil && strings.TrimSpace(*pa.PageTitle) != "" {
				return *pa.PageTitle
			}
			return pa.PageURL
		},
		body: func(p *painter, d *doc, r contextref.Record) { p.preview(d, r.(*contextref.PreviewAnnotationRecord)) },
	},
	{
		Kind: contextref.KindReviewComment, Glyph: "✎", Colour: "#FDBA74", // U+270E pencil: a review note; orange
		compact: func(p *painter, c Chip, label string, tone Tone) (string, Tone, bool) {
			if pr := c.Record.(*contextref.ReviewCommentRecord).PullRequest; pr != nil {
				return "#" + strconv.FormatInt(pr.Number, 10), p.th.prTone(pr), false
			}
			return label, tone, false
		},
		name: func(r contextref.Record) string {
			rc := r.(*contextref.ReviewCommentRecord)
			return path.Base(rc.FilePath) + " " + rc.RangeLabel
		},
		body: func(p *painter, d *doc, r contextref.Record) { p.review(d, r.(*contextref.ReviewCommentRecord)) },
	},
	{
		Kind: contextref.KindMention, Glyph: "@", Colour: "#BAE6FD", // sky
		compact: func(_ *painter, c Chip, label string, tone Tone) (string, Tone, bool) {
			if pth := oneLine(c.Record.(*contextref.MentionRecord).Path); pth != "" {
				label = pth
			}
			return label, tone, true
		},
		name: func(r contextref.Record) string { return r.(*contextref.MentionRecord).Path },
		body: func(_ *painter, d *doc, r contextref.Record) {
			d.field("path", r.(*contextref.MentionRecord).Path, lipgloss.NewStyle())
		},
	},
	{
		Kind: contextref.KindSkill, Glyph: "$", Colour: "#BEF264", // lime
		compact: func(_ *painter, _ Chip, label string, tone Tone) (string, Tone, bool) {
			if t := strings.TrimPrefix(label, "$"); t != "" {
				label = t
			}
			return label, tone, false
		},
		name: func(r contextref.Record) string { return r.(*contextref.SkillRecord).Name },
		body: func(_ *painter, d *doc, r contextref.Record) {
			d.field("skill", r.(*contextref.SkillRecord).Name, lipgloss.NewStyle())
		},
	},
	{
		Kind: contextref.KindThread, Glyph: "#", Colour: "#A5B4FC", // indigo
		compact: func(_ *painter, c Chip, label string, tone Tone) (string, Tone, bool) {
			if t := oneLine(c.Record.(*contextref.ThreadRecord).Title); t != "" {
				label = t
			}
			return label, tone, false
		},
		name: func(r contextref.Record) string { return r.(*contextref.ThreadRecord).Title },
		body: func(p *painter, d *doc, r contextref.Record) { p.thread(d, r.(*contextref.ThreadRecord)) },
	},
}

var viewByKind = func() map[string]*KindView {
	m := make(map[string]*KindView, len(kindViews))
	for _, v := range kindViews {
		m[v.Kind] = v
	}
	return m
}()

// ViewOf returns the chips-side table entry of a known kind.
func ViewOf(kind string) (*KindView, bool) {
	v, ok := viewByKind[kind]
	return v, ok
}

// thread draws a thread chip's details: its title, thread id and
// environment. Expanded adds nothing the record does not hold (the thread's
// messages are the caller's to show, through a renderer of its own).
func (p *painter) thread(d *doc, r *contextref.ThreadRecord) {
	plain := lipgloss.NewStyle()
	title := r.Title
	if strings.TrimSpace(title) == "" {
		title = "(untitled)"
	}
	d.field("title", title, plain)
	d.field("thread", r.ThreadID, p.th.Muted)
	d.field("environment", r.EnvironmentID, p.th.Muted)
}
