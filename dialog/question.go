package dialog

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/chipchat/chipchat/chat"
	"github.com/chipchat/chipchat/chips"
	"github.com/chipchat/chipchat/message"
	"github.com/chipchat/chipchat/transcript"
)

// Question is a question of the agent waiting for the user: a permission or a
// sign-in.
type Question struct {
	ID         int64
	ThreadID   string
	Permission *chat.PermissionAsked
	SignIn     *chat.Question
}

// QuestionKeys are the prompt's keys, as the key table binds them.
type QuestionKeys struct {
	Interrupt, Cancel, Up, Down, PageUp, PageDown, Choose key.Binding
}

// QuestionBox is the prompt. Digits pick an option, up/down move, Choose picks the
// highlighted one, the page keys scroll the content, Cancel rejects (the
// agent's reject option; a sign-in is dismissed), Interrupt cancels the
// turn. A list longer than the prompt's room scrolls with the highlight
// (top is its first shown option) and says "n of m".
type QuestionBox struct {
	k      QuestionKeys
	ask    Question
	sel    int
	scroll int
	top    int
	// body is the tool call's content and input as drawn at bodyWidth:
	// made once per question and width, not on every frame.
	body      []string
	bodyWidth int
	bodyMade  bool
	looks     []transcript.ContentOption // the theme's (SetContentOptions)
}

// Answered is the user's answer to the agent's question: the option picked
// (outcome "selected" or "rejected"), or none ("cancelled").
type Answered struct {
	Ask               Question
	OptionID, Outcome string
}

// Interrupted is Interrupt in the prompt: the app cancels the turn.
type Interrupted struct{}

var faint = lipgloss.NewStyle().Faint(true)

// NewQuestionBox is the prompt for a; a permission highlights message.FirstOption.
func NewQuestionBox(k QuestionKeys, a Question) *QuestionBox {
	b := &QuestionBox{k: k, ask: a}
	if a.Permission != nil {
		b.sel = message.FirstOption(b.Options())
	}
	return b
}

// SetContentOptions draws the tool call's content in the theme's looks
// (transcript.Model.ContentOptions).
func (b *QuestionBox) SetContentOptions(opts ...transcript.ContentOption) {
	b.looks, b.bodyMade = opts, false
}

// Ask is the question the prompt asks.
func (b *QuestionBox) Ask() Question { return b.ask }

// Options are the question's answers as the prompt lists them.
func (b *QuestionBox) Options() []message.PermissionOption {
	if p := b.ask.Permission; p != nil {
		return p.Request.Options
	}
	var out []message.PermissionOption
	for _, o := range b.ask.SignIn.Options {
		out = append(out, message.PermissionOption{ID: o.ID, Name: o.Label, Kind: o.Kind})
	}
	return out
}

// Key takes a key: the prompt's result (Answered, Interrupted) and done
// when it closes.
func (b *QuestionBox) Key(msg tea.KeyPressMsg) (res any, done bool) {
	opts := b.Options()
	answer := func(id, outcome string) (any, bool) { return Answered{b.ask, id, outcome}, true }
	k := b.k
	switch s := msg.String(); {
	case key.Matches(msg, k.Interrupt):
		return Interrupted{}, true
	case key.Matches(msg, k.Cancel):
		if b.ask.Permission == nil {
			return answer("", "cancelled")
		}
		if id, ok := message.RejectOption(opts); ok {
			return answer(id, "rejected")
		}
		return answer("", "cancelled")
	case key.Matches(msg, k.Up):
		b.sel = max(0, b.sel-1)
	case key.Matches(msg, k.Down):
		b.sel = max(0, min(len(opts)-1, b.sel+1))
	case key.Matches(msg, k.PageDown):
		b.scroll += 5
	case key.Matches(msg, k.PageUp):
		b.scroll = max(0, b.scroll-5)
	case key.Matches(msg, k.Choose) && len(opts) > 0:
		return answer(opts[b.sel].ID, "selected")
	case len(s) == 1 && s[0] >= '1' && s[0] <= '9' && int(s[0]-'1') < len(opts):
		return answer(opts[s[0]-'1'].ID, "selected")
	}
	return nil, false
}

// View draws the prompt in h rows at most: the question, the tool call's
// content (scrollable), the options.
func (b *QuestionBox) View(width, h int) []string {
	var head, body []string
	if p := b.ask.Permission; p != nil {
		title := p.Request.Asked
		if title == "" {
			title = p.Tool.Title
		}
		head = append(head, chips.Truncate(chips.SanitizeLine("The agent asks: "+title), width))
		if p.Tool.Kind != "" {
			head = append(head, chips.Truncate("  kind: "+chips.SanitizeLine(p.Tool.Kind), width))
		}
		for _, l := range p.Tool.Locations {
			head = append(head, chips.Truncate("  "+chips.SanitizeLine(l.Path), width))
		}
		body = b.content(width)
	} else {
		q := b.ask.SignIn
		head = append(head, chips.Truncate(chips.SanitizeLine("Sign in: "+q.Title), width))
		for _, l := range strings.Split(chips.Sanitize(q.Detail), "\n") {
			if strings.TrimSpace(l) != "" {
				head = append(head, chips.Truncate("  "+l, width))
			}
		}
	}
	foot := b.optionLines(width, h, len(head), len(body))
	// The options come first: the highlight is never cut off by a long
	// head (the overlay keeps the first h lines).
	if n := h - len(foot) - 1; len(head) > n {
		head = head[:max(n, 0)]
	}
	room := h - len(head) - len(foot) - 2
	if len(body) > room {
		room-- // the line that says which lines are shown
	}
	if len(body) > 0 && room > 0 {
		b.scroll = min(b.scroll, max(0, len(body)-room))
		end := min(len(body), b.scroll+room)
		shown := body[b.scroll:end]
		head = append(head, "")
		for _, l := range shown {
			head = append(head, "  "+l)
		}
		if end < len(body) || b.scroll > 0 {
			head = append(head, faint.Render(fmt.Sprintf("  lines %d-%d of %d · pgup/pgdown scroll", b.scroll+1, end, len(body))))
		}
	}
	return append(append(head, ""), foot...)
}

// content is the permission's tool call content (RenderToolContent) and
// input (transcript.RenderToolInput: an MCP call's server, tool and
// arguments, else its raw input) at width, rendered once per width.
func (b *QuestionBox) content(width int) []string {
	if !b.bodyMade || b.bodyWidth != width {
		p := b.ask.Permission
		w := max(width-2, 10)
		b.body = append(transcript.RenderToolContent(p.Tool, w, b.looks...), transcript.RenderToolInput(p.Tool, w, b.looks...)...)
		b.bodyWidth, b.bodyMade = width, true
	}
	return b.body
}

// optionLines are the prompt's options as they fit: all of them, or a
// window that holds the highlight and a line "n of m". Zero options says so
// and what esc answers. headRows and bodyRows are what the prompt shows
// above them; the body keeps up to half the room.
func (b *QuestionBox) optionLines(width, h, headRows, bodyRows int) []string {
	opts := b.Options()
	if len(opts) == 0 {
		esc := "esc answers cancelled"
		if b.ask.Permission == nil {
			esc = "esc dismisses it"
		}
		return []string{chips.Truncate("  The agent offered no options to pick: "+esc+".", width)}
	}
	room := h - headRows - 1
	if bodyRows > 0 {
		room -= min(bodyRows+2, room/2)
	}
	room = max(room, 2)
	first, n := 0, len(opts)
	if len(opts) > room {
		n = room - 1 // the last line says where the list is
		b.top = min(b.top, b.sel)
		b.top = max(b.top, b.sel-n+1)
		b.top = max(0, min(b.top, len(opts)-n))
		first = b.top
	}
	var out []string
	for i := first; i < first+n; i++ {
		o := opts[i]
		mark := "  "
		if i == b.sel {
			mark = "> "
		}
		line := fmt.Sprintf("%s%d. %s", mark, i+1, chips.SanitizeLine(o.Name))
		if k := o.KindHint(); k != "" { // what its name does not say already
			line += "  (" + k + ")"
		}
		out = append(out, chips.Truncate(line, width))
	}
	if n < len(opts) {
		out = append(out, faint.Render(chips.Truncate(fmt.Sprintf("  %d of %d · ↑/↓ move, enter picks", b.sel+1, len(opts)), width)))
	}
	return out
}
