package chat

import (
	"strings"

	"github.com/chipchat/chipchat/chips"
)

// ElicitState is a form being filled in (the UI's elicitation prompt):
// the inputs, the focused field, each choice field's cursor and, once
// Accept was tried, each field's message (refreshed as the field changes).
type ElicitState struct {
	Form    ElicitForm
	Inputs  []ElicitInput
	Cursor  []int
	Errs    []error
	Focus   int
	checked bool
}

// NewElicitState is f filled with its defaults.
func NewElicitState(f ElicitForm) *ElicitState {
	s := &ElicitState{Form: f, Inputs: f.Inputs(), Cursor: make([]int, len(f.Fields)), Errs: make([]error, len(f.Fields))}
	for i, in := range s.Inputs {
		if len(in.Picked) > 0 {
			s.Cursor[i] = in.Picked[0]
		}
	}
	return s
}

// Move focuses the next (d 1) or previous (d -1) field, round.
func (s *ElicitState) Move(d int) {
	if n := len(s.Form.Fields); n > 0 {
		s.Focus = (s.Focus + d%n + n) % n
	}
}

// Choice moves the focused choice field's cursor by d.
func (s *ElicitState) Choice(d int) {
	if s.Focus < len(s.Form.Fields) {
		s.Cursor[s.Focus] = max(0, min(len(s.Form.Fields[s.Focus].Choices)-1, s.Cursor[s.Focus]+d))
	}
}

// Editable: the focused field is typed into (text, number, integer).
func (s *ElicitState) Editable() bool {
	if s.Focus >= len(s.Form.Fields) {
		return false
	}
	k := s.Form.Fields[s.Focus].Kind
	return k == ElicitText || k == ElicitNumber || k == ElicitInteger
}

// SetText is the focused field's text as edited (cut to ElicitMaxInput).
func (s *ElicitState) SetText(t string) {
	if r := []rune(t); len(r) > ElicitMaxInput {
		t = string(r[:ElicitMaxInput])
	}
	s.Inputs[s.Focus].Text = t
	s.recheck()
}

// Toggle switches a yes/no field, picks the choice at the cursor (again:
// unpicks it, unless required) or toggles it in a multi-select.
func (s *ElicitState) Toggle() {
	if s.Focus >= len(s.Form.Fields) {
		return
	}
	f, in, c := s.Form.Fields[s.Focus], &s.Inputs[s.Focus], s.Cursor[s.Focus]
	switch f.Kind {
	case ElicitBool:
		in.On = !in.On
	case ElicitChoice:
		if len(in.Picked) == 1 && in.Picked[0] == c && !f.Required {
			in.Picked = nil
		} else {
			in.Picked = []int{c}
		}
	case ElicitMulti:
		i := indexOf(in.Picked, c)
		if i >= 0 {
			in.Picked = append(in.Picked[:i:i], in.Picked[i+1:]...)
		} else {
			in.Picked = append(in.Picked, c)
		}
	}
	s.recheck()
}

func indexOf(xs []int, x int) int {
	for i, y := range xs {
		if y == x {
			return i
		}
	}
	return -1
}

func (s *ElicitState) recheck() {
	if s.checked {
		_, s.Errs[s.Focus] = s.Form.Fields[s.Focus].Value(s.Inputs[s.Focus])
	}
}

// Accept checks every field: the content and true, or false with the
// messages set and the first wrong field focused.
func (s *ElicitState) Accept() (map[string]any, bool) {
	content, errs, ok := s.Form.Content(s.Inputs)
	if ok {
		return content, true
	}
	s.Errs, s.checked = errs, true
	for i, err := range errs {
		if err != nil {
			s.Focus = i
			break
		}
	}
	return nil, false
}

// ElicitRowKind says how a form row is drawn.
type ElicitRowKind int

const (
	RowField ElicitRowKind = iota // a field's label and value
	RowHelp                       // the focused field's description
	RowError                      // a field's message
)

// ElicitRow is one row of the form as drawn, sanitized. A focused text
// field's row is its Label; the UI draws the field's editor after it.
type ElicitRow struct {
	Kind    ElicitRowKind
	Field   int
	Focused bool
	Label   string // "> Title*: "
	Value   string
}

// Rows are the form's rows.
func (s *ElicitState) Rows() []ElicitRow {
	var out []ElicitRow
	for i, f := range s.Form.Fields {
		in, foc := s.Inputs[i], i == s.Focus
		mark := "  "
		if foc {
			mark = "> "
		}
		label := mark + chips.SanitizeLine(f.Title)
		if f.Required {
			label += "*"
		}
		r := ElicitRow{Kind: RowField, Field: i, Focused: foc, Label: label + ": "}
		switch f.Kind {
		case ElicitBool:
			r.Value = map[bool]string{false: "[ ] no", true: "[x] yes"}[in.On]
		case ElicitChoice, ElicitMulti:
			var parts []string
			for j, c := range f.Choices {
				box := map[bool]string{false: "( ) ", true: "(•) "}
				if f.Kind == ElicitMulti {
					box = map[bool]string{false: "[ ] ", true: "[x] "}
				}
				cur := " "
				if foc && j == s.Cursor[i] {
					cur = "›"
				}
				parts = append(parts, cur+box[indexOf(in.Picked, j) >= 0]+chips.SanitizeLine(c.Label))
			}
			r.Value = strings.Join(parts, " ")
		default:
			r.Value = chips.SanitizeLine(in.Text)
		}
		out = append(out, r)
		if foc && f.Description != "" {
			out = append(out, ElicitRow{Kind: RowHelp, Field: i, Value: "    " + chips.SanitizeLine(f.Description)})
		}
		if s.Errs[i] != nil {
			out = append(out, ElicitRow{Kind: RowError, Field: i, Value: "    " + chips.SanitizeLine(f.Title) + ": " + s.Errs[i].Error()})
		}
	}
	return out
}
