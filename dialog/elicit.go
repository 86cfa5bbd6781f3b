package dialog

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/chipchat/chipchat/chat"
	"github.com/chipchat/chipchat/chips"
	"github.com/chipchat/chipchat/composer"
	"github.com/chipchat/chipchat/ui/keymap"
)

// Elicit is the agent's request for input (chat.ElicitationAsked), queued
// and Guarded as its other questions. A form (chat.ElicitState: the
// fields, their checks) is filled from the keyboard: text fields edited in
// place, the toggle key switches or picks, left/right move in a choice;
// accept sends it once every field is valid, else the messages show.
// A link: accept opens it (ElicitOpen; the app answers accept, then
// delivers Opened) and the prompt waits for the agent's completion (the
// app removes it) or esc; the copy key copies it. Decline answers no,
// cancel neither.
type Elicit struct {
	k        *keymap.Keys
	ID       int64
	ThreadID string
	req      chat.ElicitRequest
	form     *chat.ElicitState
	field    composer.Field // the focused text field's editor
	waiting  bool
	bad      lipgloss.Style // a field's error (SetStyles: the theme's)
}

// The prompt's results: the answer, the link to open, the link to copy.
type (
	ElicitAnswered struct {
		ID     int64
		Answer chat.ElicitAnswer
	}
	ElicitOpen struct {
		ID  int64
		URL string
	}
	ElicitCopy struct{ URL string }
	// Opened is the app's word that the link was opened and answered.
	Opened struct{}
)

// NewElicit is the prompt for e.
func NewElicit(k *keymap.Keys, e chat.ElicitationAsked) *Elicit {
	p := &Elicit{k: k, ID: e.ID, ThreadID: e.ThreadID, req: e.Request, form: chat.NewElicitState(e.Request.Form), bad: elicitBad}
	p.refocus()
	return p
}

// SetStyles draws a field's error as the theme's pickers draw theirs.
func (p *Elicit) SetStyles(st composer.PickerStyles) { p.bad = st.Error }

func (p *Elicit) Request() chat.ElicitRequest { return p.req }
func (p *Elicit) Waiting() bool               { return p.waiting }
func (p *Elicit) GuardKeys()                  {}
func (p *Elicit) Scope() keymap.Scope         { return keymap.ScopeElicit }

func (p *Elicit) refocus() {
	if p.form.Editable() {
		p.field.Set(p.form.Inputs[p.form.Focus].Text)
	}
}

func (p *Elicit) Hints() string {
	k := p.k
	switch {
	case p.waiting:
		return keymap.Join("waiting for the agent", keymap.Hint(k.ElicitCopy, "copy the link"), keymap.Hint(k.ElicitDecline, "close"))
	case p.req.Mode == "url":
		return keymap.Join(keymap.Hint(k.ElicitAccept, "open the link"), keymap.Hint(k.ElicitCopy, "copy it"),
			keymap.Hint(k.ElicitDecline, "decline"), keymap.Hint(k.ElicitCancel, "cancel"))
	}
	return keymap.Join(keymap.Hint(k.ElicitNext, "next field"), keymap.Hint(k.ElicitToggle, "switch/pick"),
		keymap.Hint(k.ElicitAccept, "send"), keymap.Hint(k.ElicitDecline, "decline"), keymap.Hint(k.ElicitCancel, "cancel"))
}

func (p *Elicit) Update(m tea.Msg) (Overlay, tea.Cmd, any) {
	k, f := p.k, p.form
	answer := func(action string, content map[string]any) (Overlay, tea.Cmd, any) {
		return nil, nil, ElicitAnswered{ID: p.ID, Answer: chat.ElicitAnswer{Action: action, Content: content}}
	}
	msg, isKey := m.(tea.KeyPressMsg)
	switch {
	case m == Opened{}:
		p.waiting = true
	case !isKey:
		if paste, ok := m.(tea.PasteMsg); ok && p.req.Mode == "form" && f.Editable() {
			p.field.Insert(chips.SanitizeLine(paste.Content))
			f.SetText(p.field.String())
		}
	case p.req.Mode == "url" && key.Matches(msg, k.ElicitCopy):
		return p, nil, ElicitCopy{URL: p.req.URL}
	case p.waiting:
		if key.Matches(msg, k.ElicitDecline) || key.Matches(msg, k.ElicitCancel) {
			return nil, nil, nil // answered already
		}
	case key.Matches(msg, k.ElicitDecline):
		return answer("decline", nil)
	case key.Matches(msg, k.ElicitCancel):
		return answer("cancel", nil)
	case key.Matches(msg, k.ElicitAccept) && p.req.Mode == "url":
		return p, nil, ElicitOpen{ID: p.ID, URL: p.req.URL}
	case p.req.Mode == "url":
	case key.Matches(msg, k.ElicitAccept):
		if content, ok := f.Accept(); ok {
			return answer("accept", content)
		}
		p.refocus()
	case key.Matches(msg, k.ElicitNext), key.Matches(msg, k.ElicitPrev):
		f.Move(map[bool]int{true: 1, false: -1}[key.Matches(msg, k.ElicitNext)])
		p.refocus()
	case f.Editable():
		if p.field.Key(k.FieldKeys(), msg) {
			f.SetText(p.field.String())
		}
	case key.Matches(msg, k.ElicitLeft), key.Matches(msg, k.ElicitRight):
		f.Choice(map[bool]int{true: 1, false: -1}[key.Matches(msg, k.ElicitRight)])
	case key.Matches(msg, k.ElicitToggle):
		f.Toggle()
	}
	return p, nil, nil
}

var (
	elicitFaint = lipgloss.NewStyle().Faint(true)
	elicitBad   = lipgloss.NewStyle().Foreground(lipgloss.Color("1"))
	elicitLink  = lipgloss.NewStyle().Underline(true)
)

// View draws the message (at most a third of the room), then the link or
// the form's rows, the focused field kept in view.
func (p *Elicit) View(width, h int) []string {
	who := "The agent asks"
	if t := p.req.Form.Title; t != "" {
		who += " (" + t + ")"
	}
	head := []string{chips.Truncate(chips.SanitizeLine(who+":"), width)}
	for _, l := range strings.Split(chips.Sanitize(p.req.Message+"\n"+p.req.Form.Description), "\n") {
		if strings.TrimSpace(l) != "" {
			head = append(head, chips.Truncate("  "+l, width))
		}
	}
	if n := max(2, h/3); len(head) > n {
		head = append(head[:n-1], "  …")
	}
	head = append(head, "")
	if p.req.Mode == "url" {
		head = append(head, "  "+elicitLink.Render(chips.Truncate(chips.SanitizeLine(p.req.URL), width-2)))
		if p.waiting {
			head = append(head, "", elicitFaint.Render("  opened: waiting for the agent to say it is done"))
		}
		return head
	}
	var rows []string
	at := 0
	for _, r := range p.form.Rows() {
		line := chips.Truncate(r.Label+r.Value, width)
		switch {
		case r.Kind == chat.RowHelp:
			line = elicitFaint.Render(chips.Truncate(r.Value, width))
		case r.Kind == chat.RowError:
			line = p.bad.Render(chips.Truncate(r.Value, width))
		case r.Focused:
			at = len(rows)
			if p.form.Editable() {
				line = p.field.View(r.Label, width)
			}
		}
		rows = append(rows, line)
	}
	if room := max(1, h-len(head)); len(rows) > room {
		first := max(0, min(at-room/3, len(rows)-room))
		rows = rows[first : first+room]
	}
	return append(head, rows...)
}
