package transcript

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"

	"github.com/chipchat/chipchat/chips"
	"github.com/chipchat/chipchat/message"
)

// The tool item: one tool call. Compact is its line (kind glyph, title,
// status, elapsed) and its content collapsed to its first lines with
// "+N lines"; Expanded shows the content (up to expandedMaxLines);
// Details adds what was asked (locations, raw input) and shows all of it
// (up to detailsMaxLines; o opens the rest in the pager). The content is
// drawn by RenderToolContent, which the app's permission prompt reuses.

func init() {
	registerKind(message.ItemTool, itemKind{
		Compact:  func(it message.Item, c ItemContext) []string { return renderTool(it, c, collapsedLines) },
		Expanded: func(it message.Item, c ItemContext) []string { return renderTool(it, c, expandedMaxLines) },
		Details:  renderToolDetails,
		Title: func(it message.Item) string {
			if it.Tool != nil && it.Tool.Title != "" {
				return "Tool: " + chips.SanitizeLine(it.Tool.Title)
			}
			return "Tool call"
		},
		Pager: func(it message.Item) string {
			if it.Tool == nil {
				return it.Text
			}
			return toolText(*it.Tool)
		},
		Inline: true})
}

const (
	collapsedLines   = 5
	expandedMaxLines = 400
)

var toolGlyphs = map[string]string{
	"read": "▤", "edit": "✎", "delete": "✖", "move": "⇄", "search": "⌕",
	"execute": "$", "think": "✻", "fetch": "⇣", "other": "⚙",
}

// toolGlyph is the glyph of a tool kind.
func toolGlyph(kind string) string {
	if g, ok := toolGlyphs[kind]; ok {
		return g
	}
	return "⚙"
}

// ToolLine is a tool call's one line: kind glyph, title, status and, once
// it ended, how long it took.
func ToolLine(t message.Tool, width int, l *ItemLooks) string {
	if l == nil {
		l = newItemLooks(false)
	}
	title := chips.SanitizeLine(strings.TrimSpace(t.Title))
	if title == "" && len(t.Locations) > 0 {
		title = chips.SanitizeLine(t.Locations[0].Path)
	}
	if title == "" {
		title = "tool call"
	}
	var st string
	switch t.Status {
	case message.ToolCompleted:
		st = l.OK.Render("✓ done")
	case message.ToolFailed:
		st = l.Bad.Render("✗ failed")
	case message.ToolCancelled:
		st = l.Faint.Render("⊘ cancelled")
	case message.ToolInProgress:
		st = l.Running.Render("◐ running")
	case message.ToolPending, "":
		st = l.Faint.Render("○ pending")
	default:
		st = l.Faint.Render(chips.SanitizeLine(t.Status))
	}
	if !t.Started.IsZero() && !t.Ended.IsZero() && !t.Ended.Before(t.Started) {
		st += l.Faint.Render(" " + elapsed(t.Ended.Sub(t.Started)))
	}
	head := l.Glyph.Render(toolGlyph(t.Kind)) + " "
	tail := "  " + st
	room := width - ansi.StringWidth(head) - ansi.StringWidth(tail)
	if room < 4 {
		return ansi.Truncate(head+l.Title.Render(title)+tail, width, "…")
	}
	return head + l.Title.Render(ansi.Truncate(title, room, "…")) + tail
}

// elapsed writes a duration briefly: 0.4s, 12.3s, 2m05s, 1h02m.
func elapsed(d time.Duration) string {
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%.1fs", d.Seconds())
	case d < time.Hour:
		return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
	}
	return fmt.Sprintf("%dh%02dm", int(d.Hours()), int(d.Minutes())%60)
}

func renderTool(it message.Item, c ItemContext, maxLines int) []string {
	if it.Tool == nil {
		return fallbackItem(it, "tool item without its call", c)
	}
	out := []string{ToolLine(*it.Tool, c.Width, c.Looks)}
	if r := it.Tool.Reason; r != "" {
		out = append(out, "  "+c.Looks.Faint.Render(ansi.Truncate(chips.SanitizeLine(r), max(c.Width-2, 1), "…")))
	}
	if p := it.Tool.Permission; p != nil {
		out = append(out, "  "+permissionLine(*p, c.Width-2, c.Looks))
	}
	opts := []ContentOption{ContentMaxLines(maxLines), contentLooks(c)}
	if _, ok := it.Tool.MCP(); ok {
		opts = append(opts, ContentInput()) // what the call was given is the point of it
	}
	body := RenderToolContent(*it.Tool, c.Width-2, opts...)
	for _, l := range body {
		out = append(out, "  "+l)
	}
	return out
}

func renderToolDetails(it message.Item, c ItemContext) []string {
	if it.Tool == nil {
		return fallbackItem(it, "tool item without its call", c)
	}
	t := *it.Tool
	l := c.Looks
	out := []string{ToolLine(t, c.Width, l)}
	field := func(k, v string) {
		if v != "" {
			out = append(out, l.Faint.Render(k+": ")+chips.SanitizeLine(v))
		}
	}
	field("kind", t.Kind)
	field("call", t.CallID)
	field("reason", t.Reason)
	mcp, isMCP := t.MCP()
	if isMCP {
		field("mcp server", mcp.Server)
		field("mcp tool", mcp.Tool)
	}
	if p := t.Permission; p != nil {
		out = append(out, l.Faint.Render("permission: ")+permissionAnswer(*p, l))
		for _, o := range p.Options {
			out = append(out, "  "+optionRow(o, o.ID == p.Chosen, l))
		}
	}
	if !t.Started.IsZero() {
		field("started", t.Started.Format("15:04:05"))
	}
	if !t.Ended.IsZero() {
		field("ended", t.Ended.Format("15:04:05"))
	}
	for _, loc := range t.Locations {
		p := loc.Path
		if loc.Line > 0 {
			p += fmt.Sprintf(":%d", loc.Line)
		}
		field("location", p)
	}
	in := t.RawInput
	if isMCP {
		in = mcp.Arguments
	}
	if raw := prettyJSON(in); raw != "" && commandOf(t.RawInput) == "" {
		label := "input:"
		if isMCP {
			label = "arguments:"
		}
		out = append(out, l.Faint.Render(label))
		out = append(out, wrapPlain(chips.Sanitize(firstLines(raw, 40)), c.Width-2, noStyle)...)
	}
	out = append(out, "")
	out = append(out, RenderToolContent(t, c.Width, ContentMaxLines(detailsMaxLines), contentLooks(c))...)
	if raw := prettyJSON(t.RawOutput); raw != "" && len(t.Content) == 0 {
		out = append(out, l.Faint.Render("output:"))
		out = append(out, wrapPlain(chips.Sanitize(firstLines(raw, detailsMaxLines)), c.Width-2, noStyle)...)
	}
	return out
}

func prettyJSON(raw json.RawMessage) string {
	if len(bytes.TrimSpace(raw)) == 0 || string(bytes.TrimSpace(raw)) == "null" {
		return ""
	}
	var b bytes.Buffer
	if json.Indent(&b, raw, "", "  ") != nil {
		return string(raw)
	}
	return b.String()
}

// commandOf is the shell command a tool call's raw input names
// ({"command": "…"} or {"command": ["…", …]}), "" for none.
func commandOf(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	var in struct {
		Command json.RawMessage `json:"command"`
		Cmd     json.RawMessage `json:"cmd"`
	}
	if json.Unmarshal(raw, &in) != nil {
		return ""
	}
	for _, c := range []json.RawMessage{in.Command, in.Cmd} {
		var s string
		if json.Unmarshal(c, &s) == nil && s != "" {
			return s
		}
		var parts []string
		if json.Unmarshal(c, &parts) == nil && len(parts) > 0 {
			return strings.Join(parts, " ")
		}
	}
	return ""
}

// ContentOption configures RenderToolContent.
type ContentOption func(*contentOpts)

type contentOpts struct {
	maxLines int
	looks    *ItemLooks
	noColor  bool
	style    string
	input    bool
}

// ContentInput draws, before the content, what the call was given when
// it is not a command (which is drawn anyway): an MCP call's server, tool
// and arguments, else its raw input, as indented, sanitized JSON folded
// like the rest (RenderToolInput). The permission prompt and an MCP
// call's item draw it.
func ContentInput() ContentOption { return func(o *contentOpts) { o.input = true } }

// ContentMaxLines collapses the content to its first n rows, then one
// "+N lines" row (n ≤ 0: no limit).
func ContentMaxLines(n int) ContentOption { return func(o *contentOpts) { o.maxLines = n } }

// ContentNoColor draws without colour (diff signs and attributes only).
func ContentNoColor() ContentOption { return func(o *contentOpts) { o.noColor = true } }

// ContentLooks draws with these styles.
func ContentLooks(l *ItemLooks) ContentOption { return func(o *contentOpts) { o.looks = l } }

// ContentSyntaxStyle names the chroma style of diffs ("monokai" by
// default; "" for none).
func ContentSyntaxStyle(name string) ContentOption { return func(o *contentOpts) { o.style = name } }

func contentLooks(c ItemContext) ContentOption {
	return func(o *contentOpts) {
		o.looks = c.Looks
		if c.Looks != nil && c.Looks.Syntax != "" {
			o.style = c.Looks.Syntax
		}
		if c.NoColor {
			o.noColor = true
		}
	}
}

// ContentOptions draw a tool call's content outside the transcript (the
// agent's question's diff) as the transcript draws it: in its theme's
// looks and syntax style, or without colour.
func (m *Model) ContentOptions() []ContentOption {
	return []ContentOption{contentLooks(ItemContext{NoColor: m.noColor, Looks: m.ilooks})}
}

// RenderToolContent draws a tool call's content in at most width columns:
// its command (from the raw input), each text (every line kept, wrapped
// with its indentation), each diff as a unified diff with line numbers,
// coloured and with syntax colour from chroma, and each terminal (its
// command, directory, status and the end of its output: tool_terminal.go).
// Every text is sanitized. It is pure and does no I/O.
func RenderToolContent(t message.Tool, width int, opts ...ContentOption) []string {
	o := contentOpts{style: "monokai"}
	for _, fn := range opts {
		fn(&o)
	}
	if o.looks == nil {
		o.looks = newItemLooks(o.noColor)
	}
	if o.noColor {
		o.style = ""
	}
	width = max(4, width)
	b := &lineBudget{max: o.maxLines}
	if cmd := commandOf(t.RawInput); cmd != "" && strings.TrimSpace(cmd) != strings.TrimSpace(t.Title) {
		b.add(wrapPlain(chips.Sanitize("$ "+cmd), width, o.looks.Title)...)
	}
	if o.input {
		b.add(toolInput(t, width, o.looks, o.maxLines > 0 && o.maxLines <= 2*collapsedLines)...)
	}
	for _, c := range t.Content {
		if b.full() {
			b.skipContent(c)
			continue
		}
		switch c.Type {
		case message.ContentText:
			if lang, body, ok := wholeFence(c.Text); ok {
				b.fenced(lang, body, width, o)
			} else {
				b.text(c.Text, width)
			}
		case message.ContentDiff:
			renderDiff(c, width, o, b)
		case message.ContentTerminal:
			renderTerminal(c, t.Title, width, o, b)
		default:
			b.add(o.looks.Faint.Render("▫ " + chips.SanitizeLine(c.Type) + " content"))
		}
	}
	out := b.lines
	if b.hidden > 0 {
		out = append(out, o.looks.Faint.Render(moreLines(b.hidden)))
	}
	return out
}

// RenderToolInput is what a call was given, for a call whose input is not
// a command: an MCP call's "server · tool" line and its arguments, else
// its raw input, as indented, sanitized JSON (every line, wrapped); nil
// when it has none, and for an edit whose content has its diff (the diff
// shows what it was given).
func RenderToolInput(t message.Tool, width int, opts ...ContentOption) []string {
	o := contentOpts{}
	for _, fn := range opts {
		fn(&o)
	}
	if o.looks == nil {
		o.looks = newItemLooks(o.noColor)
	}
	return toolInput(t, max(4, width), o.looks, false)
}

// toolInput is RenderToolInput; folded: the JSON on one line, cut to
// width (a collapsed item).
func toolInput(t message.Tool, width int, l *ItemLooks, folded bool) []string {
	if commandOf(t.RawInput) != "" {
		return nil
	}
	var out []string
	in := t.RawInput
	label := "input:"
	mcp, isMCP := t.MCP()
	if !isMCP && hasDiff(t) {
		// The diff is what the edit was given; its raw input says it
		// again, as JSON (opencode's holds the diff as one escaped string).
		return nil
	}
	if isMCP {
		out = append(out, wrapPlain(l.Faint.Render("mcp: ")+chips.SanitizeLine(mcp.Server)+l.Faint.Render(" · ")+chips.SanitizeLine(mcp.Tool), width, noStyle)...)
		in, label = mcp.Arguments, "arguments:"
	}
	raw := prettyJSON(in)
	if raw == "" || raw == "{}" {
		return out
	}
	if folded {
		var c bytes.Buffer
		if json.Compact(&c, in) == nil {
			raw = c.String()
		}
		line := l.Faint.Render(label+" ") + chips.SanitizeLine(raw)
		return append(out, ansi.Truncate(line, width, "…"))
	}
	out = append(out, l.Faint.Render(label))
	for _, line := range strings.Split(chips.Sanitize(raw), "\n") {
		out = append(out, wrapPlain(line, width, noStyle)...)
	}
	return out
}

// permissionLine is a permission question as its call's item draws it:
// "? " and the answer (or that it waits), the option's kind when its name
// does not say it.
func permissionLine(p message.Permission, width int, l *ItemLooks) string {
	line := l.Glyph.Render("?") + " " + permissionAnswer(p, l)
	for _, o := range p.Options {
		if o.ID == p.Chosen && p.Outcome != "cancelled" {
			if h := o.KindHint(); h != "" {
				line += l.Faint.Render("  (" + h + ")")
			}
		}
	}
	return ansi.Truncate(line, max(width, 1), "…")
}

// optionRow is one option of a permission question: its name, its kind
// when the name does not say it, marked when chosen.
func optionRow(o message.PermissionOption, chosen bool, l *ItemLooks) string {
	mark := "  "
	if chosen {
		mark = "▸ "
	}
	row := mark + chips.SanitizeLine(o.Name)
	if h := o.KindHint(); h != "" {
		row += l.Faint.Render(" (" + chips.SanitizeLine(h) + ")")
	}
	return row
}

func moreLines(n int) string {
	if n == 1 {
		return "+1 line"
	}
	return fmt.Sprintf("+%d lines", n)
}

// lineBudget collects rows up to max and counts the rest.
type lineBudget struct {
	max    int
	lines  []string
	hidden int
	cut    bool // a line was cut short: nothing after it is shown
}

func (b *lineBudget) full() bool { return b.cut || b.max > 0 && len(b.lines) >= b.max }

// cellBytes bounds the bytes of text one cell of a row can take (a rune
// is at most 4 bytes; combining marks add to a cluster): a line of more
// than rows·width·cellBytes bytes fills rows rows.
const cellBytes = 16

func (b *lineBudget) add(ls ...string) {
	for _, l := range ls {
		if b.full() {
			b.hidden++
			continue
		}
		b.lines = append(b.lines, l)
	}
}

// text adds a text's rows: only the lines that fit are wrapped, the rest
// are counted.
func (b *lineBudget) text(s string, width int) {
	s = strings.TrimRight(s, "\n")
	if s == "" {
		return
	}
	for s != "" {
		if b.full() {
			b.hidden += strings.Count(s, "\n") + 1
			return
		}
		line := s
		if i := strings.IndexByte(s, '\n'); i >= 0 {
			line, s = s[:i], s[i+1:]
		} else {
			s = ""
		}
		if room := b.max - len(b.lines); b.max > 0 && len(line) > room*width*cellBytes {
			// A line far longer than the rows left (a 4 MB line of
			// output): only its start is wrapped, the rest counted as a
			// line, so a frame costs the rows shown, not the line.
			n := room * width * cellBytes
			for n > 0 && !utf8.RuneStart(line[n]) {
				n--
			}
			rows := wrapPlain(chips.Sanitize(chips.ExpandTabs(line[:n])), width, noStyle)
			b.add(rows[:min(len(rows), room)]...)
			b.cut = true
			b.hidden++ // the rest of the line
			if s != "" {
				b.hidden += strings.Count(s, "\n") + 1
			}
			return
		}
		b.add(wrapPlain(chips.Sanitize(chips.ExpandTabs(line)), width, noStyle)...)
	}
}

// skipContent counts the rows of content that does not fit.
func (b *lineBudget) skipContent(c message.ToolContent) {
	switch c.Type {
	case message.ContentText:
		t := strings.TrimRight(c.Text, "\n")
		if _, body, ok := wholeFence(c.Text); ok {
			t = body
		}
		if t != "" {
			b.hidden += strings.Count(t, "\n") + 1
		}
	case message.ContentDiff:
		b.hidden += 1 + diffSize(c)
	default:
		b.hidden++
	}
}

// hasDiff reports whether t's content has a diff.
func hasDiff(t message.Tool) bool {
	for _, c := range t.Content {
		if c.Type == message.ContentDiff {
			return true
		}
	}
	return false
}
