package transcript

import (
	"charm.land/glamour/v2"
	"charm.land/lipgloss/v2"

	"github.com/chipchat/chipchat/chips"
	"github.com/chipchat/chipchat/contextref"
	"github.com/chipchat/chipchat/message"
)

// entry is one message with its caches. Nothing in it is computed before
// the message is first drawn or navigated to.
type entry struct {
	msg Message
	gen uint64 // bumped by every change of text or status

	// msg.RawContext has been decoded into msg.Context (or found not to
	// decode).
	decoded bool

	// The resolved context (user messages), valid while rgen == gen.
	rok     bool
	rgen    uint64
	text    string
	records []contextref.Record
	chips   []chipRef

	// The rendered head (header and, for a user message, body; no gutter,
	// no separator) for one width and generation.
	head     part
	chipRows []int // row of each chip in the head (user messages)

	// The reply's item views, made on first use (views). synth: one text
	// item made from Text (a reply without items). owned: msg.Items is a
	// copy of the caller's slice.
	items        []*itemView
	built, synth bool
	owned        bool

	// The reply's text mode, once decided (replyMode).
	mode    int
	modeSet bool
}

// chipRef is one reference of a user message and the record it resolves to
// (nil when missing).
type chipRef struct {
	occ contextref.Occurrence
	rec contextref.Record
	cit *contextref.Citation // an assistant quote (occ.Kind "citation"); no record
}

// compact draws the chip inline.
func (c chipRef) compact(reg *chips.Registry, selected bool, w int) string {
	if c.cit != nil {
		return reg.RenderCitation(chips.Compact, c.cit, selected, w)
	}
	return reg.Render(chips.Compact, c.chip(selected), w)
}

func (c chipRef) chip(selected bool) chips.Chip {
	return chips.Chip{Kind: c.occ.Kind, ContextID: c.occ.ContextID, Label: c.occ.Label, Record: c.rec, Selected: selected}
}

// Model is the transcript: a scrollable list of a thread's messages.
// See the package documentation for how it scrolls and what it caches.
type Model struct {
	// Keys are the bindings the model answers to while focused.
	Keys KeyMap

	reg        *chips.Registry
	itemReg    *ItemRegistry
	style      string // glamour standard style
	noColor    bool
	light      bool        // WithLight
	sLooks     streamLooks // the streaming open block's styles (stream.go)
	streamed   int         // open blocks drawn by the cheap path (tests count them)
	fullBudget int         // completed streaming blocks this frame may still render in full
	grown      int         // bytes the text grew by since the last frame (stream.go)
	sty        looks
	ilooks     *ItemLooks
	replyBytes int

	width, height int

	ents []entry
	ids  map[string]int // message id → index; built on first use

	focused bool
	sel     int // focused message, -1 none
	selIt   int // focused item of sel, -1: the message's head
	chip    int // focused chip of sel, -1 none

	// The anchor: the viewport's first row is row off of part top (its gap
	// included). When follow is set the view sticks to the bottom and the
	// anchor is recomputed from the last part.
	top    ppos
	off    int
	follow bool

	pop popover

	// glamour renderers: the content width's, and tables' (glamourFor);
	// those of the narrower widths short blocks are drawn at (fitWidth),
	// and whether this style draws them as at the full width (fitOK: 0
	// not yet known, 1 yes, -1 no).
	gl    *glamour.TermRenderer
	glW   int
	gls   map[int]*glamour.TermRenderer
	glFit map[int]*glamour.TermRenderer
	fitOK int8
	plain plainLook // plain blocks drawn without glamour (plainfast.go)

	// The focused message drawn with its focused chip selected.
	fc struct {
		idx, w, chip int
		gen          uint64
		lines        []string
	}

	sel2 selection   // the selection mode (select.go)
	srch searchState // the search in the thread (search.go)
	ring renderRing  // the text blocks that keep their rendered lines

	renders int // parts rendered, for tests
}

// Option configures a Model.
type Option func(*Model)

// WithGlamourStyle sets the glamour standard style of assistant messages
// ("dark" by default; "light", "dracula", "tokyo-night", "pink", "ascii",
// "notty"). An unknown name falls back to "dark".
func WithGlamourStyle(name string) Option {
	return func(m *Model) { m.style = name }
}

// WithNoColor draws without colour: headers and the gutter use attributes
// only and assistant Markdown uses glamour's "notty" style. Pair it with a
// registry made with chips.NoColorTheme.
func WithNoColor() Option {
	return func(m *Model) { m.noColor = true; m.style = "notty" }
}

// WithItemRegistry draws reply items through r instead of DefaultItems().
func WithItemRegistry(r *ItemRegistry) Option {
	return func(m *Model) { m.itemReg = r }
}

// WithReplyBytes sets how much of one text item is shown in full (default
// DefaultReplyBytes, the config's [limits] reply_bytes); beyond it the
// item shows its head and its tail around an elision line, and o opens the
// whole text in the pager.
func WithReplyBytes(n int) Option {
	return func(m *Model) {
		if n > 0 {
			m.replyBytes = n
		}
	}
}

// WithKeyMap replaces the default keymap.
func WithKeyMap(k KeyMap) Option {
	return func(m *Model) { m.Keys = k }
}

// New returns an empty transcript drawing chips through reg (a default
// registry with the default theme when nil).
func New(reg *chips.Registry, opts ...Option) *Model {
	if reg == nil {
		reg = chips.Default(chips.DefaultTheme())
	}
	m := &Model{Keys: DefaultKeyMap(), reg: reg, style: "dark", sel: -1, selIt: -1, chip: -1, follow: true,
		replyBytes: DefaultReplyBytes}
	for _, o := range opts {
		o(m)
	}
	if m.itemReg == nil {
		m.itemReg = DefaultItems()
	}
	m.sty = newLooks(m.noColor)
	m.ilooks = newItemLooks(m.noColor)
	if m.light && !m.noColor {
		m.sty, m.ilooks = lightLooks(), lightItemLooks()
	}
	m.fc.idx = -1
	return m
}

// looks are the styles of the transcript's own parts.
type looks struct {
	user, agent, status, bad, border, title lipgloss.Style
	gutter                                  string // the focused message's gutter, styled
	selGutter                               string // the gutter of what a selection covers
	hitOn, hitOff                           string // a search match's look (search.go)
}

func newLooks(noColor bool) looks {
	b := lipgloss.NewStyle().Bold(true)
	if noColor {
		return looks{
			user: b, agent: b, title: b,
			status:    lipgloss.NewStyle().Faint(true),
			bad:       lipgloss.NewStyle().Bold(true),
			border:    lipgloss.NewStyle(),
			gutter:    gutterMark + " ",
			selGutter: selMark + " ",
			hitOn:     hitOn, hitOff: hitOff,
		}
	}
	return looks{
		user:      b.Foreground(lipgloss.Color("117")),
		agent:     b.Foreground(lipgloss.Color("183")),
		status:    lipgloss.NewStyle().Foreground(lipgloss.Color("245")),
		bad:       lipgloss.NewStyle().Foreground(lipgloss.Color("203")),
		border:    lipgloss.NewStyle().Foreground(lipgloss.Color("240")),
		title:     b.Foreground(lipgloss.Color("252")),
		gutter:    lipgloss.NewStyle().Foreground(lipgloss.Color("75")).Render(gutterMark) + " ",
		selGutter: lipgloss.NewStyle().Foreground(lipgloss.Color("221")).Render(selMark) + " ",
		hitOn:     hitOn, hitOff: hitOff,
	}
}

const (
	gutterMark = "┃"
	selMark    = "▌"
)

// SetSize sets the size the transcript is drawn at. Rendered blocks of
// another width are re-rendered lazily, only when they are drawn again.
func (m *Model) SetSize(width, height int) {
	if width < 0 {
		width = 0
	}
	if height < 0 {
		height = 0
	}
	if width == m.width && height == m.height {
		return
	}
	m.width, m.height = width, height
	if m.pop.open {
		m.renderPop()
	}
}

// SetMessages replaces the thread's messages. The view is anchored at the
// bottom (newest), the last message focused, no chip selected, the popover
// closed. Nothing is rendered or measured here.
func (m *Model) SetMessages(msgs []Message) {
	m.ents = make([]entry, len(msgs))
	for i := range msgs {
		m.ents[i].msg = msgs[i]
	}
	m.ids = nil
	m.sel, m.selIt, m.chip = len(msgs)-1, -1, -1
	m.top, m.off, m.follow = ppos{}, 0, true
	m.pop = popover{}
	m.sel2 = selection{}
	m.srch = searchState{gen: m.srch.gen + 1, at: -1}
	m.ring = renderRing{}
	m.fc.idx = -1
}

// Append adds a message at the end. A view at the bottom stays at the
// bottom; otherwise it stays where it is.
func (m *Model) Append(msg Message) {
	m.ents = append(m.ents, entry{msg: msg})
	if m.ids != nil {
		m.ids[msg.ID] = len(m.ents) - 1
	}
	if m.sel < 0 {
		m.sel, m.selIt = len(m.ents)-1, -1
	}
}

// SetText updates the text and status of the message with that id (a
// streaming update). Only that message is rendered again, and only when it
// is drawn. An unknown id is ignored.
func (m *Model) SetText(id, text string, status message.Status) {
	i, ok := m.index(id)
	if !ok {
		return
	}
	e := &m.ents[i]
	m.grew(len(text) - len(e.msg.Text))
	if e.msg.Text == text && e.msg.Status == status {
		return
	}
	if e.msg.Status != status {
		e.msg.Status = status
		e.gen++
	}
	if e.msg.Text != text {
		e.msg.Text = text
		if e.msg.Role == message.RoleUser {
			e.gen++
		} else if e.built && e.synth {
			e.items[0].set(message.Item{Kind: message.ItemText, Text: text})
		}
	}
	if i == m.sel && m.chip >= 0 {
		m.resolve(e)
		if m.chip >= len(e.chips) {
			m.chip = -1
			m.pop = popover{}
		} else if m.pop.open {
			m.pop.chip, m.pop.cit = e.chips[m.chip].chip(false), e.chips[m.chip].cit
			m.renderPop()
		}
	}
}

// SetItem sets item index of the reply with that id: index == the number
// of its items appends it, a smaller index replaces that item (a tool
// call's update, the plan, a text item that grew). Only that item is drawn
// again, and of a grown text item only its open last block (see
// textView.update). An unknown id or an index past the end is ignored.
func (m *Model) SetItem(msgID string, index int, it message.Item) {
	i, ok := m.index(msgID)
	if !ok {
		return
	}
	e := &m.ents[i]
	if index < 0 || index > len(e.msg.Items) {
		return
	}
	old := 0
	if index < len(e.msg.Items) {
		old = e.msg.Items[index].TextLen()
	}
	m.grew(it.TextLen() - old)
	e.ownItems()
	if index == len(e.msg.Items) {
		e.msg.Items = append(e.msg.Items, it)
	} else {
		e.msg.Items[index] = it
	}
	if !e.built {
		return
	}
	if e.synth { // the reply had only its Text: it has items now
		e.built, e.synth, e.items = false, false, nil
		return
	}
	if index == len(e.items) {
		e.items = append(e.items, &itemView{it: it})
	} else {
		e.items[index].set(it)
	}
	if m.pop.open && m.pop.item && m.pop.at == (stop{i, index}) {
		m.renderPop()
	}
}

// SetStatus sets the status of the message with that id; its header is
// drawn again. An unknown id is ignored.
func (m *Model) SetStatus(msgID string, status message.Status) {
	i, ok := m.index(msgID)
	if !ok {
		return
	}
	e := &m.ents[i]
	if e.msg.Status != status {
		e.msg.Status = status
		e.gen++
	}
}

// Message returns the message with that id, its RawContext decoded into
// Context.
func (m *Model) Message(id string) (Message, bool) {
	i, ok := m.index(id)
	if !ok {
		return Message{}, false
	}
	e := &m.ents[i]
	e.context()
	return e.msg, true
}

// context is the message's structured context, its RawContext decoded on
// first use.
func (e *entry) context() *contextref.MessageContext {
	if !e.decoded {
		e.decoded = true
		if e.msg.Context == nil {
			e.msg.Context = DecodeRawContext(e.msg.RawContext)
		}
	}
	return e.msg.Context
}

// Len is the number of messages.
func (m *Model) Len() int { return len(m.ents) }

// LastUser is the id of the last user message drawn ("" when none): what
// a rewind of the last message forks before.
func (m *Model) LastUser() string {
	for i := len(m.ents) - 1; i >= 0; i-- {
		if m.ents[i].msg.Role == message.RoleUser {
			return m.ents[i].msg.ID
		}
	}
	return ""
}

func (m *Model) index(id string) (int, bool) {
	if m.ids == nil {
		m.ids = make(map[string]int, len(m.ents))
		for i := range m.ents {
			m.ids[m.ents[i].msg.ID] = i
		}
	}
	i, ok := m.ids[id]
	return i, ok
}

// Focus gives the transcript the keyboard. The focused message stays the
// same when it is on screen; otherwise the lowest message on screen takes
// focus.
func (m *Model) Focus() {
	m.focused = true
	if len(m.ents) == 0 {
		return
	}
	if m.sel < 0 || m.sel >= len(m.ents) {
		m.setStop(m.lastStop())
	}
	if m.height > 0 {
		m.normalize()
		first, last := m.visibleStops(m.height)
		if c := m.cur(); stopBefore(c, first) || stopBefore(last, c) {
			m.setStop(last)
		}
	}
}

// Blur takes the keyboard away; the popover closes, a selection ends.
func (m *Model) Blur() {
	m.focused = false
	m.pop = popover{}
	m.sel2 = selection{}
}

// Focused reports whether the transcript has the keyboard.
func (m *Model) Focused() bool { return m.focused }

// PopoverOpen reports whether a chip's popover is open: esc then belongs to
// the transcript.
func (m *Model) PopoverOpen() bool { return m.pop.open }

// Selected returns the focused message's index and its focused chip's index
// (-1 when none).
func (m *Model) Selected() (message, chip int) { return m.sel, m.chip }

// SelectedItem returns the focused message's index and its focused item's
// index (-1: the message itself — a user message, a reply with no item).
func (m *Model) SelectedItem() (message, item int) {
	if len(m.ents) == 0 {
		return -1, -1
	}
	s := m.cur()
	return s.i, s.it
}

// AtBottom reports whether the view sticks to the newest message.
func (m *Model) AtBottom() bool { return m.follow }
