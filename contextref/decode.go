package contextref

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Limits of the contract (DESIGN.md 3.1 and 3.2), in UTF-16 units unless
// said otherwise.
const (
	MaxLabelLen          = 200
	MaxTerminalTextLen   = 64000
	MaxUnknownPayloadLen = 64000
	MaxContextRecords    = 200
	MaxContextJSONLen    = 16_000_000
	maxSafeInteger       = 1<<53 - 1
)

// FieldError says which field of a record broke which rule.
type FieldError struct {
	Kind  string // the record's kind, when known
	Field string // dotted path of the field, e.g. "source.lineNumber"
	Rule  string // the rule it broke, e.g. "must be at most 255 characters"
}

func (e *FieldError) Error() string {
	if e.Kind != "" {
		return fmt.Sprintf("%s record: %s: %s", e.Kind, e.Field, e.Rule)
	}
	return fmt.Sprintf("record: %s: %s", e.Field, e.Rule)
}

// object is one decoded JSON object whose fields are read by rule. The first
// rule broken is kept in err; later reads become no-ops.
type object struct {
	kind   string
	prefix string
	fields map[string]json.RawMessage
	err    *FieldError
}

func newObject(raw json.RawMessage, kind, prefix string) (*object, error) {
	o := &object{kind: kind, prefix: prefix}
	if !isJSONObject(raw) {
		return nil, &FieldError{Kind: kind, Field: strings.TrimSuffix(prefix, "."), Rule: "must be an object"}
	}
	if err := json.Unmarshal(raw, &o.fields); err != nil {
		return nil, &FieldError{Kind: kind, Field: strings.TrimSuffix(prefix, "."), Rule: "must be an object"}
	}
	return o, nil
}

func isJSONObject(raw []byte) bool {
	raw = bytes.TrimLeft(raw, " \t\r\n")
	return len(raw) > 0 && raw[0] == '{'
}

func (o *object) fail(field, rule string) {
	if o.err == nil {
		if field == "" {
			field = strings.TrimSuffix(o.prefix, ".")
		} else {
			field = o.prefix + field
		}
		o.err = &FieldError{Kind: o.kind, Field: field, Rule: rule}
	}
}

// raw returns a field's JSON, or nil with present=false when it is absent.
func (o *object) raw(name string) (json.RawMessage, bool) {
	r, ok := o.fields[name]
	return r, ok
}

func isNull(raw json.RawMessage) bool { return string(bytes.TrimSpace(raw)) == "null" }

// strRule is how a string field is checked.
type strRule struct {
	trim     bool // trimmed (JavaScript trim) before the checks
	nonEmpty bool
	max      int // in UTF-16 units; 0 means no limit
}

var (
	anyStr       = strRule{}
	trimmed255   = strRule{trim: true, nonEmpty: true, max: 255}
	trimmed2048  = strRule{trim: true, nonEmpty: true, max: 2048}
	trimmed100   = strRule{trim: true, nonEmpty: true, max: 100}
	upTo2048     = strRule{max: 2048}
	upTo8000     = strRule{max: 8000}
	nonEmptyEver = strRule{trim: true, nonEmpty: true}
)

func (o *object) checkStr(name string, raw json.RawMessage, rule strRule) (string, bool) {
	var s string
	if len(raw) == 0 || raw[0] != '"' || json.Unmarshal(raw, &s) != nil {
		o.fail(name, "must be a string")
		return "", false
	}
	if rule.trim {
		s = TrimJS(s)
	}
	if rule.nonEmpty && s == "" {
		o.fail(name, "must not be empty")
		return "", false
	}
	if rule.max > 0 && !utf16LenAtMost(s, rule.max) {
		o.fail(name, fmt.Sprintf("must be at most %d characters", rule.max))
		return "", false
	}
	return s, true
}

// str reads a required string field.
func (o *object) str(name string, rule strRule) string {
	if o.err != nil {
		return ""
	}
	raw, ok := o.raw(name)
	if !ok {
		o.fail(name, "is required")
		return ""
	}
	s, _ := o.checkStr(name, raw, rule)
	return s
}

// nullableStr reads a required field that is null or a string.
func (o *object) nullableStr(name string, rule strRule) *string {
	if o.err != nil {
		return nil
	}
	raw, ok := o.raw(name)
	if !ok {
		o.fail(name, "is required (null allowed)")
		return nil
	}
	if isNull(raw) {
		return nil
	}
	s, ok := o.checkStr(name, raw, rule)
	if !ok {
		return nil
	}
	return &s
}

// optStr reads an optional string field: absent gives nil.
func (o *object) optStr(name string, rule strRule) *string {
	if o.err != nil {
		return nil
	}
	raw, ok := o.raw(name)
	if !ok {
		return nil
	}
	s, ok := o.checkStr(name, raw, rule)
	if !ok {
		return nil
	}
	return &s
}

// contextID reads a field that must be a context id (trimmed first).
func (o *object) contextID(name string) string {
	s := o.str(name, strRule{trim: true, nonEmpty: true, max: MaxContextIDLen})
	if o.err == nil && !IsContextID(s) {
		o.fail(name, "must match ^[a-z0-9_-]{1,128}$")
	}
	return s
}

func (o *object) checkInt(name string, raw json.RawMessage, min int64) (int64, bool) {
	f, ok := parseJSONNumber(raw)
	if !ok {
		o.fail(name, "must be a number")
		return 0, false
	}
	if f != math.Trunc(f) || math.Abs(f) > maxSafeInteger {
		o.fail(name, "must be a safe integer")
		return 0, false
	}
	if int64(f) < min {
		o.fail(name, fmt.Sprintf("must be at least %d", min))
		return 0, false
	}
	return int64(f), true
}

// parseJSONNumber reads a JSON number literal the way JavaScript does (as a
// double). It refuses anything that is not a number.
func parseJSONNumber(raw json.RawMessage) (float64, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || !(raw[0] == '-' || raw[0] >= '0' && raw[0] <= '9') || !json.Valid(raw) {
		return 0, false
	}
	f, err := strconv.ParseFloat(string(raw), 64)
	if err != nil {
		var ne *strconv.NumError
		if errors.As(err, &ne) && ne.Err == strconv.ErrRange {
			return f, true // ±Inf or a denormal rounding: still a number
		}
		return 0, false
	}
	if f == 0 {
		f = 0 // -0 is 0
	}
	return f, true
}

// integer reads a required safe integer ≥ min.
func (o *object) integer(name string, min int64) int64 {
	if o.err != nil {
		return 0
	}
	raw, ok := o.raw(name)
	if !ok {
		o.fail(name, "is required")
		return 0
	}
	n, _ := o.checkInt(name, raw, min)
	return n
}

func (o *object) nullableInt(name string, min int64) *int64 {
	if o.err != nil {
		return nil
	}
	raw, ok := o.raw(name)
	if !ok {
		o.fail(name, "is required (null allowed)")
		return nil
	}
	if isNull(raw) {
		return nil
	}
	n, ok := o.checkInt(name, raw, min)
	if !ok {
		return nil
	}
	return &n
}

func (o *object) optInt(name string, min int64) *int64 {
	if o.err != nil {
		return nil
	}
	raw, ok := o.raw(name)
	if !ok {
		return nil
	}
	n, ok := o.checkInt(name, raw, min)
	if !ok {
		return nil
	}
	return &n
}

func (o *object) boolean(name string) bool {
	if o.err != nil {
		return false
	}
	raw, ok := o.raw(name)
	if !ok {
		o.fail(name, "is required")
		return false
	}
	switch string(bytes.TrimSpace(raw)) {
	case "true":
		return true
	case "false":
		return false
	}
	o.fail(name, "must be a boolean")
	return false
}

// array reads a JSON array field into its raw elements, at most max of them.
func (o *object) array(name string, max int, required bool) ([]json.RawMessage, bool) {
	if o.err != nil {
		return nil, false
	}
	raw, ok := o.raw(name)
	if !ok {
		if required {
			o.fail(name, "is required")
		}
		return nil, false
	}
	t := bytes.TrimSpace(raw)
	var items []json.RawMessage
	if len(t) == 0 || t[0] != '[' || json.Unmarshal(t, &items) != nil {
		o.fail(name, "must be an array")
		return nil, false
	}
	if len(items) > max {
		o.fail(name, fmt.Sprintf("must have at most %d items", max))
		return nil, false
	}
	if items == nil {
		items = []json.RawMessage{}
	}
	return items, true
}

func (o *object) strings(name string, max int, required bool, rule strRule) *[]string {
	items, ok := o.array(name, max, required)
	if !ok {
		return nil
	}
	out := make([]string, 0, len(items))
	for i, it := range items {
		s, ok := o.checkStr(fmt.Sprintf("%s[%d]", name, i), it, rule)
		if !ok {
			return nil
		}
		out = append(out, s)
	}
	return &out
}

// child decodes a nested object with its own field rules.
func (o *object) child(name string, raw json.RawMessage, read func(*object)) bool {
	if o.err != nil {
		return false
	}
	c, err := newObject(raw, o.kind, o.prefix+name+".")
	if err != nil {
		o.err = err.(*FieldError)
		return false
	}
	read(c)
	if c.err != nil {
		o.err = c.err
		return false
	}
	return true
}

// DecodeRecord decodes and validates one record (DESIGN.md 3.1). Trimmed
// fields come back trimmed; unknown properties are dropped. A record of a
// known kind whose fields break the schema fails with a *FieldError naming
// the field; it never falls through to an unknown record.
func DecodeRecord(raw []byte) (Record, error) {
	o, err := newObject(raw, "", "")
	if err != nil {
		return nil, &FieldError{Field: "(record)", Rule: "must be a JSON object"}
	}
	kindRaw, ok := o.raw("kind")
	if !ok {
		return nil, &FieldError{Field: "kind", Rule: "is required"}
	}
	var kind string
	if json.Unmarshal(kindRaw, &kind) != nil || len(bytes.TrimSpace(kindRaw)) == 0 || bytes.TrimSpace(kindRaw)[0] != '"' {
		return nil, &FieldError{Field: "kind", Rule: "must be a string"}
	}
	o.kind = kind
	if !IsKnownKind(kind) {
		o.kind = TrimJS(kind)
	}
	base := readBase(o)
	var rec Record
	if spec, ok := specByKind[kind]; ok {
		rec = spec.decode(o, base)
	} else {
		name := TrimJS(kind)
		switch {
		case !isKindName(name):
			o.fail("kind", "must match ^[a-z][a-z0-9-]{0,39}$")
		case IsKnownKind(name):
			o.fail("kind", "must be exactly \""+name+"\" for a known kind")
		}
		base.Kind = name
		r := &UnknownRecord{Base: base}
		payload, ok := o.raw("payload")
		if !ok {
			o.fail("payload", "is required (null allowed)")
		} else if o.err == nil {
			var buf bytes.Buffer
			if err := json.Compact(&buf, payload); err != nil {
				o.fail("payload", "must be JSON")
			} else {
				r.Payload = json.RawMessage(buf.Bytes())
				if s, err := JSStringify(r.Payload); err != nil {
					o.fail("payload", "must be JSON")
				} else if !utf16LenAtMost(s, MaxUnknownPayloadLen) {
					o.fail("payload", fmt.Sprintf("must encode to at most %d characters", MaxUnknownPayloadLen))
				}
			}
		}
		rec = r
	}
	if o.err != nil {
		return nil, o.err
	}
	return rec, nil
}

func readBase(o *object) Base {
	b := Base{Kind: o.kind}
	if raw, ok := o.raw("version"); !ok {
		o.fail("version", "is required")
	} else if f, ok := parseJSONNumber(raw); !ok || f != 1 {
		o.fail("version", "must be 1")
	}
	b.Version = 1
	b.ContextID = o.contextID("contextId")
	b.Label = o.str("label", strRule{max: MaxLabelLen})
	return b
}

func readAttachment(o *object, base Base) AttachmentRecord {
	r := AttachmentRecord{Base: base}
	r.AttachmentID = o.contextID("attachmentId")
	r.Name = o.str("name", trimmed255)
	r.MimeType = o.str("mimeType", trimmed100)
	r.SizeBytes = o.integer("sizeBytes", 0)
	return r
}

func readElementDetails(o *object) ElementDetails {
	var d ElementDetails
	d.PageURL = o.str("pageUrl", upTo2048)
	d.PageTitle = o.nullableStr("pageTitle", upTo2048)
	d.TagName = o.str("tagName", trimmed255)
	d.Selector = o.nullableStr("selector", upTo2048)
	d.HTMLPreview = o.str("htmlPreview", upTo8000)
	d.ComponentName = o.nullableStr("componentName", upTo2048)
	if o.err == nil {
		raw, ok := o.raw("source")
		switch {
		case !ok:
			o.fail("source", "is required (null allowed)")
		case isNull(raw):
		default:
			var src ElementSource
			o.child("source", raw, func(c *object) {
				src.FunctionName = c.nullableStr("functionName", upTo2048)
				src.FileName = c.nullableStr("fileName", upTo2048)
				src.LineNumber = c.nullableInt("lineNumber", 0)
				src.ColumnNumber = c.nullableInt("columnNumber", 0)
			})
			d.Source = &src
		}
	}
	d.Styles = o.str("styles", upTo8000)
	return d
}

func readPreviewAnnotation(o *object, base Base) *PreviewAnnotationRecord {
	r := &PreviewAnnotationRecord{Base: base}
	r.AnnotationID = o.str("annotationId", trimmed2048)
	r.PageURL = o.str("pageUrl", upTo2048)
	r.PageTitle = o.nullableStr("pageTitle", upTo2048)
	r.Comment = o.str("comment", upTo8000)
	r.TargetSummary = o.str("targetSummary", upTo2048)
	if sc := o.strings("styleChanges", 200, true, upTo2048); sc != nil {
		r.StyleChanges = *sc
	}
	if items, ok := o.array("elements", 50, false); ok {
		els := make([]ElementDetails, 0, len(items))
		for i, it := range items {
			var d ElementDetails
			if !o.child(fmt.Sprintf("elements[%d]", i), it, func(c *object) { d = readElementDetails(c) }) {
				break
			}
			els = append(els, d)
		}
		r.Elements = &els
	}
	r.ElementIDs = o.strings("elementIds", 50, false, upTo2048)
	r.RegionCount = o.optInt("regionCount", 0)
	r.StrokeCount = o.optInt("strokeCount", 0)
	if items, ok := o.array("styleChangeDetails", 200, false); ok {
		details := make([]StyleChangeDetail, 0, len(items))
		for i, it := range items {
			var d StyleChangeDetail
			if !o.child(fmt.Sprintf("styleChangeDetails[%d]", i), it, func(c *object) {
				d.TargetID = c.str("targetId", upTo2048)
				d.Selector = c.nullableStr("selector", upTo2048)
				d.Property = c.str("property", upTo2048)
				d.PreviousValue = c.str("previousValue", upTo8000)
				d.Value = c.str("value", upTo8000)
			}) {
				break
			}
			details = append(details, d)
		}
		r.StyleChangeDetails = &details
	}
	if raw, ok := o.raw("screenshotContextId"); ok && o.err == nil {
		s, ok := o.checkStr("screenshotContextId", raw, strRule{trim: true, nonEmpty: true, max: MaxContextIDLen})
		if ok && !IsContextID(s) {
			o.fail("screenshotContextId", "must match ^[a-z0-9_-]{1,128}$")
		}
		r.ScreenshotContextID = &s
	}
	return r
}

var pullRequestStates = map[string]bool{"open": true, "closed": true, "merged": true}

func readReviewComment(o *object, base Base) *ReviewCommentRecord {
	r := &ReviewCommentRecord{Base: base}
	r.SectionID = o.str("sectionId", trimmed255)
	r.SectionTitle = o.str("sectionTitle", upTo2048)
	r.FilePath = o.str("filePath", trimmed2048)
	r.StartIndex = o.integer("startIndex", 0)
	r.EndIndex = o.integer("endIndex", 0)
	if o.err == nil && r.EndIndex < r.StartIndex {
		o.fail("endIndex", "must be at least startIndex")
	}
	r.RangeLabel = o.str("rangeLabel", upTo2048)
	r.Text = o.str("text", strRule{max: 16000})
	r.Diff = o.str("diff", strRule{max: 32000})
	r.FenceLanguage = o.optStr("fenceLanguage", strRule{max: 64})
	r.SourceRevision = o.optStr("sourceRevision", strRule{max: 64})
	if _, ok := o.raw("sourceStale"); ok && o.err == nil {
		v := o.boolean("sourceStale")
		if o.err == nil {
			r.SourceStale = &v
		}
	}
	if raw, ok := o.raw("pullRequest"); ok && o.err == nil {
		var pr PullRequest
		o.child("pullRequest", raw, func(c *object) {
			pr.Number = c.integer("number", 1)
			pr.Title = c.str("title", upTo2048)
			pr.URL = c.str("url", upTo2048)
			pr.HeadBranch = c.str("headBranch", upTo2048)
			pr.BaseBranch = c.str("baseBranch", upTo2048)
			pr.State = c.str("state", anyStr)
			if c.err == nil && !pullRequestStates[pr.State] {
				c.fail("state", `must be "open", "closed" or "merged"`)
			}
			pr.IsDraft = c.boolean("isDraft")
		})
		r.PullRequest = &pr
	}
	return r
}

// MessageContext is the structured context of a message (DESIGN.md 3.2).
type MessageContext struct {
	Version int      `json:"version"`
	Records []Record `json:"records"`
}

// ErrContext is wrapped by every error that fails a whole message context.
var ErrContext = errors.New("message context")

// DecodeContext decodes a message context: more than 200 raw records or a
// compact encoding of the records over 16,000,000 characters fails the whole
// context; then each record is decoded on its own and a bad one is dropped;
// finally two kept records with one context id fail the whole context.
// dropped lists why each dropped record was refused, in input order.
func DecodeContext(raw []byte) (ctx *MessageContext, dropped []error, err error) {
	o, err := newObject(raw, "", "")
	if err != nil {
		return nil, nil, fmt.Errorf("%w: must be a JSON object", ErrContext)
	}
	if v, ok := o.raw("version"); !ok {
		return nil, nil, fmt.Errorf("%w: version is required", ErrContext)
	} else if f, ok := parseJSONNumber(v); !ok || f != 1 {
		return nil, nil, fmt.Errorf("%w: version must be 1", ErrContext)
	}
	recsRaw, ok := o.raw("records")
	if !ok {
		return nil, nil, fmt.Errorf("%w: records is required", ErrContext)
	}
	items, err := splitRecords(recsRaw, MaxContextRecords)
	if err != nil {
		return nil, nil, err
	}
	return decodeRecordList(items)
}

// splitRecords splits a JSON array into its raw elements and applies the
// count and size limits that fail a whole context or fragment.
func splitRecords(raw json.RawMessage, max int) ([]json.RawMessage, error) {
	t := bytes.TrimSpace(raw)
	var items []json.RawMessage
	if len(t) == 0 || t[0] != '[' || json.Unmarshal(t, &items) != nil {
		return nil, fmt.Errorf("%w: records must be an array", ErrContext)
	}
	if len(items) > max {
		return nil, fmt.Errorf("%w: more than %d records (%d)", ErrContext, max, len(items))
	}
	// Cheap bound first: JavaScript's compact encoding of a JSON text is at
	// most about 5.25 times its bytes (a number such as 9e20 is written out
	// as 21 digits; everything else only shrinks), so only an input past a
	// sixth of the limit pays for the exact count.
	if len(t) > MaxContextJSONLen/6 {
		s, err := JSStringify(t)
		if err != nil {
			return nil, fmt.Errorf("%w: records: %v", ErrContext, err)
		}
		if !utf16LenAtMost(s, MaxContextJSONLen) {
			return nil, fmt.Errorf("%w: records encode to more than %d characters", ErrContext, MaxContextJSONLen)
		}
	}
	return items, nil
}

func decodeRecordList(items []json.RawMessage) (*MessageContext, []error, error) {
	ctx := &MessageContext{Version: 1, Records: make([]Record, 0, len(items))}
	var dropped []error
	seen := make(map[string]bool, len(items))
	for i, it := range items {
		rec, err := DecodeRecord(it)
		if err != nil {
			dropped = append(dropped, fmt.Errorf("records[%d]: %w", i, err))
			continue
		}
		id := rec.RecordBase().ContextID
		if seen[id] {
			return nil, dropped, fmt.Errorf("%w: two records have the context id %q", ErrContext, id)
		}
		seen[id] = true
		ctx.Records = append(ctx.Records, rec)
	}
	return ctx, dropped, nil
}

// MarshalRecord encodes a record as compact JSON without HTML escaping,
// fields in the contract's order.
func MarshalRecord(r Record) ([]byte, error) { return marshalNoEscape(r) }

// Marshal encodes the context as compact JSON without HTML escaping.
func (c *MessageContext) Marshal() ([]byte, error) {
	recs := c.Records
	if recs == nil {
		recs = []Record{}
	}
	return marshalNoEscape(struct {
		Version int      `json:"version"`
		Records []Record `json:"records"`
	}{1, recs})
}

func marshalNoEscape(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}
