package agent

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/mail"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Elicitation (ACP's elicitation/create, unstable in acp-go-sdk v0.13.0):
// the agent asks the user for structured input, a form (a flat JSON Schema
// object of string, number, integer, boolean, enum and multi-select
// properties) or a URL to open. The types here are what the UI draws and
// validates against; acp_elicit.go decodes the request and answers it.
//
// Decisions:
//   - A form keeps its properties in the order the agent sent them (the
//     decoder walks the object; a Go map would shuffle them).
//   - Bounds: at most ElicitMaxFields fields and ElicitMaxChoices choices a
//     field; the message, titles and descriptions are cut to
//     ElicitMaxText runes. A request over a bound, with a property of an
//     unknown type, a value of the wrong JSON type, a duplicate property,
//     a required name that is no property, or a URL that is not http(s), is
//     refused with an error (invalid params) and the user told.
//   - A pattern is compiled with Go's regexp (RE2: no backtracking blow-up);
//     one it cannot compile is not checked.

// Elicitation bounds.
const (
	ElicitMaxFields  = 32
	ElicitMaxChoices = 256
	ElicitMaxText    = 2000
	elicitMaxPattern = 512
)

// ElicitKind is a form field's kind.
type ElicitKind string

const (
	ElicitText    ElicitKind = "text"    // a string
	ElicitNumber  ElicitKind = "number"  // a float
	ElicitInteger ElicitKind = "integer" // an int64
	ElicitBool    ElicitKind = "boolean" // on or off
	ElicitChoice  ElicitKind = "choice"  // one of Choices (a string enum)
	ElicitMulti   ElicitKind = "multi"   // some of Choices (an array of string enum)
)

// ElicitOption is one value a choice or multi-select field takes.
type ElicitOption struct {
	Value string // what is answered
	Label string // what is shown (Value when the agent gave no title)
}

// ElicitField is one property of the form.
type ElicitField struct {
	Name        string // the property's key, answered as is
	Title       string // shown (Name when the agent gave none)
	Description string
	Kind        ElicitKind
	Required    bool
	Choices     []ElicitOption
	// Default is the field's first input (from the schema's default).
	Default ElicitInput
	// Bounds; nil or zero-length when the schema sets none.
	MinLength, MaxLength *int
	Minimum, Maximum     *float64
	MinItems, MaxItems   *int
	Format               string // email, uri, date, date-time
	Pattern              string
	pattern              *regexp.Regexp
}

// ElicitForm is a form elicitation's schema.
type ElicitForm struct {
	Title, Description string
	Fields             []ElicitField
}

// ElicitRequest is an elicitation the agent sent: Mode "form" (Form) or
// "url" (URL, ElicitationID: the id elicitation/complete names).
type ElicitRequest struct {
	SessionID     string
	ToolCallID    string
	Mode          string
	Message       string
	Form          ElicitForm
	URL           string
	ElicitationID string
}

// ElicitInput is the user's input to one field: Text for text, number and
// integer fields, On for a boolean, Picked (indexes into Choices) for a
// choice (at most one) or multi-select.
type ElicitInput struct {
	Text   string
	On     bool
	Picked []int
}

// ElicitAnswer is the user's answer: Action "accept" (with Content, the
// values by property name), "decline" or "cancel".
type ElicitAnswer struct {
	Action  string
	Content map[string]any
}

// Inputs are the form's first inputs (its defaults).
func (f ElicitForm) Inputs() []ElicitInput {
	out := make([]ElicitInput, len(f.Fields))
	for i, fl := range f.Fields {
		out[i] = ElicitInput{Text: fl.Default.Text, On: fl.Default.On, Picked: append([]int(nil), fl.Default.Picked...)}
	}
	return out
}

// Content validates ins (one a field) and builds the answer's content:
// errs has one entry a field (nil: valid), ok when all are.
func (f ElicitForm) Content(ins []ElicitInput) (content map[string]any, errs []error, ok bool) {
	content = map[string]any{}
	errs = make([]error, len(f.Fields))
	ok = true
	for i, fl := range f.Fields {
		var in ElicitInput
		if i < len(ins) {
			in = ins[i]
		}
		v, err := fl.Value(in)
		if err != nil {
			errs[i], ok = err, false
			continue
		}
		if v != nil {
			content[fl.Name] = v
		}
	}
	return content, errs, ok
}

// Value is the field's answer for in, validated against the schema: nil
// when it is left empty and not required.
func (fl ElicitField) Value(in ElicitInput) (any, error) {
	text := strings.TrimSpace(in.Text)
	switch fl.Kind {
	case ElicitBool:
		return in.On, nil
	case ElicitChoice:
		if len(in.Picked) == 0 {
			return nil, fl.missing()
		}
		if p := in.Picked[0]; p >= 0 && p < len(fl.Choices) {
			return fl.Choices[p].Value, nil
		}
		return nil, errors.New("pick one of the choices")
	case ElicitMulti:
		vals := []string{}
		for _, p := range in.Picked {
			if p >= 0 && p < len(fl.Choices) {
				vals = append(vals, fl.Choices[p].Value)
			}
		}
		if len(vals) == 0 && fl.Required {
			return nil, errors.New("required: pick at least one")
		}
		if fl.MinItems != nil && len(vals) < *fl.MinItems {
			return nil, fmt.Errorf("pick at least %d", *fl.MinItems)
		}
		if fl.MaxItems != nil && len(vals) > *fl.MaxItems {
			return nil, fmt.Errorf("pick at most %d", *fl.MaxItems)
		}
		if len(vals) == 0 {
			return nil, nil
		}
		return vals, nil
	case ElicitNumber, ElicitInteger:
		if text == "" {
			return nil, fl.missing()
		}
		var x float64
		var v any
		if fl.Kind == ElicitInteger {
			n, err := strconv.ParseInt(text, 10, 64)
			if err != nil {
				return nil, errors.New("a whole number")
			}
			x, v = float64(n), n
		} else {
			f, err := strconv.ParseFloat(text, 64)
			if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
				return nil, errors.New("a number")
			}
			x, v = f, f
		}
		if fl.Minimum != nil && x < *fl.Minimum {
			return nil, fmt.Errorf("at least %s", elicitNum(*fl.Minimum))
		}
		if fl.Maximum != nil && x > *fl.Maximum {
			return nil, fmt.Errorf("at most %s", elicitNum(*fl.Maximum))
		}
		return v, nil
	}
	// Text: as typed (not trimmed), empty counts as not given.
	if text == "" {
		return nil, fl.missing()
	}
	n := utf8.RuneCountInString(in.Text)
	if fl.MinLength != nil && n < *fl.MinLength {
		return nil, fmt.Errorf("at least %d characters", *fl.MinLength)
	}
	if fl.MaxLength != nil && n > *fl.MaxLength {
		return nil, fmt.Errorf("at most %d characters", *fl.MaxLength)
	}
	if err := elicitFormat(fl.Format, in.Text); err != nil {
		return nil, err
	}
	if fl.pattern != nil && !fl.pattern.MatchString(in.Text) {
		return nil, errors.New("does not match the pattern " + fl.Pattern)
	}
	return in.Text, nil
}

func (fl ElicitField) missing() error {
	if fl.Required {
		return errors.New("required")
	}
	return nil
}

func elicitNum(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

func elicitFormat(format, s string) error {
	switch format {
	case "email":
		if a, err := mail.ParseAddress(s); err != nil || a.Address != s {
			return errors.New("an email address")
		}
	case "uri":
		if u, err := url.Parse(s); err != nil || u.Scheme == "" {
			return errors.New("a URI (scheme:…)")
		}
	case "date":
		if _, err := time.Parse(time.DateOnly, s); err != nil {
			return errors.New("a date (YYYY-MM-DD)")
		}
	case "date-time":
		if _, err := time.Parse(time.RFC3339, s); err != nil {
			return errors.New("a date and time (RFC 3339)")
		}
	}
	return nil
}

// acpElicitParams is elicitation/create's params as sent (both modes).
type acpElicitParams struct {
	SessionID       string          `json:"sessionId"`
	ToolCallID      *string         `json:"toolCallId"`
	Mode            string          `json:"mode"`
	Message         string          `json:"message"`
	RequestedSchema *acpElicitShape `json:"requestedSchema"`
	ElicitationID   string          `json:"elicitationId"`
	URL             string          `json:"url"`
}

type acpElicitShape struct {
	Type        string          `json:"type"`
	Title       *string         `json:"title"`
	Description *string         `json:"description"`
	Properties  json.RawMessage `json:"properties"`
	Required    []string        `json:"required"`
}

type acpElicitOption struct {
	Const string `json:"const"`
	Title string `json:"title"`
}

type acpElicitProp struct {
	Type        string            `json:"type"`
	Title       *string           `json:"title"`
	Description *string           `json:"description"`
	Default     json.RawMessage   `json:"default"`
	Enum        []string          `json:"enum"`
	EnumNames   []string          `json:"enumNames"`
	OneOf       []acpElicitOption `json:"oneOf"`
	MinLength   *uint32           `json:"minLength"`
	MaxLength   *uint32           `json:"maxLength"`
	Minimum     *float64          `json:"minimum"`
	Maximum     *float64          `json:"maximum"`
	MinItems    *uint32           `json:"minItems"`
	MaxItems    *uint32           `json:"maxItems"`
	Format      *string           `json:"format"`
	Pattern     *string           `json:"pattern"`
	Items       *struct {
		Type  string            `json:"type"`
		Enum  []string          `json:"enum"`
		OneOf []acpElicitOption `json:"oneOf"`
		AnyOf []acpElicitOption `json:"anyOf"`
	} `json:"items"`
}

// acpDecodeElicit decodes elicitation/create's params.
func acpDecodeElicit(params []byte) (ElicitRequest, error) {
	var p acpElicitParams
	if err := json.Unmarshal(params, &p); err != nil {
		return ElicitRequest{}, fmt.Errorf("elicitation: %w", err)
	}
	r := ElicitRequest{SessionID: p.SessionID, Mode: p.Mode, Message: elicitCut(p.Message)}
	if p.ToolCallID != nil {
		r.ToolCallID = *p.ToolCallID
	}
	if r.Mode == "" && p.RequestedSchema != nil {
		r.Mode = "form" // MCP's first elicitation had no mode
	}
	switch r.Mode {
	case "url":
		u, err := url.Parse(p.URL)
		if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
			return ElicitRequest{}, errors.New("elicitation: the URL is not an http(s) URL")
		}
		if p.ElicitationID == "" {
			return ElicitRequest{}, errors.New("elicitation: a URL elicitation without an elicitationId")
		}
		r.URL, r.ElicitationID = u.String(), p.ElicitationID
		return r, nil
	case "form":
	default:
		return ElicitRequest{}, fmt.Errorf("elicitation: unknown mode %.40q", p.Mode)
	}
	s := p.RequestedSchema
	if s == nil {
		return ElicitRequest{}, errors.New("elicitation: a form without a requestedSchema")
	}
	if s.Type != "" && s.Type != "object" {
		return ElicitRequest{}, fmt.Errorf("elicitation: the schema's type is %.40q, not object", s.Type)
	}
	if s.Title != nil {
		r.Form.Title = elicitCut(*s.Title)
	}
	if s.Description != nil {
		r.Form.Description = elicitCut(*s.Description)
	}
	fields, err := acpElicitFields(s.Properties)
	if err != nil {
		return ElicitRequest{}, err
	}
	for _, name := range s.Required {
		i := elicitIndex(fields, name)
		if i < 0 {
			return ElicitRequest{}, fmt.Errorf("elicitation: required %.40q is not a property", name)
		}
		fields[i].Required = true
	}
	r.Form.Fields = fields
	return r, nil
}

func elicitIndex(fs []ElicitField, name string) int {
	for i, f := range fs {
		if f.Name == name {
			return i
		}
	}
	return -1
}

// acpElicitFields decodes the schema's properties in their order.
func acpElicitFields(raw json.RawMessage) ([]ElicitField, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, errors.New("elicitation: the schema's properties are not an object")
	}
	var out []ElicitField
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, fmt.Errorf("elicitation: %w", err)
		}
		name, _ := tok.(string)
		if len(out) == ElicitMaxFields {
			return nil, fmt.Errorf("elicitation: more than %d fields", ElicitMaxFields)
		}
		if elicitIndex(out, name) >= 0 {
			return nil, fmt.Errorf("elicitation: property %.40q twice", name)
		}
		var p acpElicitProp
		if err := dec.Decode(&p); err != nil {
			return nil, fmt.Errorf("elicitation: property %.40q: %w", name, err)
		}
		f, err := acpElicitField(name, p)
		if err != nil {
			return nil, fmt.Errorf("elicitation: property %.40q: %w", name, err)
		}
		out = append(out, f)
	}
	return out, nil
}

func acpElicitField(name string, p acpElicitProp) (ElicitField, error) {
	f := ElicitField{Name: name, Title: name, Minimum: p.Minimum, Maximum: p.Maximum,
		MinLength: elicitInt(p.MinLength), MaxLength: elicitInt(p.MaxLength), MinItems: elicitInt(p.MinItems), MaxItems: elicitInt(p.MaxItems)}
	if p.Title != nil && strings.TrimSpace(*p.Title) != "" {
		f.Title = elicitCut(*p.Title)
	}
	if p.Description != nil {
		f.Description = elicitCut(*p.Description)
	}
	if p.Format != nil {
		f.Format = *p.Format
	}
	if p.Pattern != nil && len(*p.Pattern) <= elicitMaxPattern {
		if re, err := regexp.Compile(*p.Pattern); err == nil {
			f.Pattern, f.pattern = *p.Pattern, re
		}
	}
	for _, b := range []*float64{p.Minimum, p.Maximum} {
		if b != nil && (math.IsNaN(*b) || math.IsInf(*b, 0)) {
			return f, errors.New("a bound that is not a number")
		}
	}
	var dflt any
	if len(p.Default) > 0 && !bytes.Equal(p.Default, []byte("null")) {
		if err := json.Unmarshal(p.Default, &dflt); err != nil {
			return f, err
		}
	}
	bad := func() (ElicitField, error) { return f, fmt.Errorf("a %s with a default of another type", p.Type) }
	switch p.Type {
	case "string":
		f.Kind = ElicitText
		switch {
		case len(p.OneOf) > 0:
			f.Kind, f.Choices = ElicitChoice, elicitOptions(p.OneOf)
		case len(p.Enum) > 0:
			f.Kind = ElicitChoice
			for i, v := range p.Enum {
				label := v
				if i < len(p.EnumNames) && p.EnumNames[i] != "" {
					label = p.EnumNames[i]
				}
				f.Choices = append(f.Choices, ElicitOption{Value: v, Label: elicitCut(label)})
			}
		}
		switch d := dflt.(type) {
		case nil:
		case string:
			if f.Kind == ElicitChoice {
				if i := elicitChoiceIndex(f.Choices, d); i >= 0 {
					f.Default.Picked = []int{i}
				}
			} else {
				f.Default.Text = d
			}
		default:
			return bad()
		}
	case "number", "integer":
		f.Kind = ElicitNumber
		if p.Type == "integer" {
			f.Kind = ElicitInteger
		}
		switch d := dflt.(type) {
		case nil:
		case float64:
			f.Default.Text = elicitNum(d)
		default:
			return bad()
		}
	case "boolean":
		f.Kind = ElicitBool
		switch d := dflt.(type) {
		case nil:
		case bool:
			f.Default.On = d
		default:
			return bad()
		}
	case "array":
		f.Kind = ElicitMulti
		it := p.Items
		if it == nil {
			return f, errors.New("a multi-select without items")
		}
		switch {
		case len(it.AnyOf) > 0:
			f.Choices = elicitOptions(it.AnyOf)
		case len(it.OneOf) > 0:
			f.Choices = elicitOptions(it.OneOf)
		default:
			for _, v := range it.Enum {
				f.Choices = append(f.Choices, ElicitOption{Value: v, Label: elicitCut(v)})
			}
		}
		switch d := dflt.(type) {
		case nil:
		case []any:
			for _, v := range d {
				s, ok := v.(string)
				if !ok {
					return bad()
				}
				if i := elicitChoiceIndex(f.Choices, s); i >= 0 {
					f.Default.Picked = append(f.Default.Picked, i)
				}
			}
		default:
			return bad()
		}
	default:
		return f, fmt.Errorf("unknown type %.40q", p.Type)
	}
	if (f.Kind == ElicitChoice || f.Kind == ElicitMulti) && len(f.Choices) == 0 {
		return f, errors.New("no choices")
	}
	if len(f.Choices) > ElicitMaxChoices {
		return f, fmt.Errorf("more than %d choices", ElicitMaxChoices)
	}
	return f, nil
}

func elicitOptions(os []acpElicitOption) []ElicitOption {
	out := make([]ElicitOption, 0, len(os))
	for _, o := range os {
		label := o.Title
		if strings.TrimSpace(label) == "" {
			label = o.Const
		}
		out = append(out, ElicitOption{Value: o.Const, Label: elicitCut(label)})
	}
	return out
}

func elicitChoiceIndex(cs []ElicitOption, v string) int {
	for i, c := range cs {
		if c.Value == v {
			return i
		}
	}
	return -1
}

func elicitInt(p *uint32) *int {
	if p == nil {
		return nil
	}
	n := int(*p)
	return &n
}

// elicitCut is s cut to ElicitMaxText runes (valid UTF-8).
func elicitCut(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	if utf8.RuneCountInString(s) <= ElicitMaxText {
		return s
	}
	n := 0
	for i := range s {
		if n == ElicitMaxText {
			return s[:i] + "…"
		}
		n++
	}
	return s
}
