package main

// `chipchat codec <op>`: a scripting surface over the wire-contract codecs of
// package contextref. Each op reads all of stdin, writes its result to stdout
// and exits 0; on unusable input it writes nothing to stdout, one line to
// stderr and exits 1; on a bad command line it exits 2. Other tools rely on
// the formats below, so they are kept exactly (README.md shows each one).
//
// Decisions where the issue is silent:
//   - stdin must be valid UTF-8 for every op (the contract is defined over
//     JavaScript strings, which cannot hold other bytes; JSON must be UTF-8
//     too), and at most 64 MiB.
//   - warnings (dropped records) go to stderr only when the op succeeds; a
//     failing op prints exactly one line, its error.
//   - in the {"text", ...} envelopes of project and fragment-html, unknown
//     keys are ignored; a missing or null "records" means no records.
//   - "--kind" may not be empty; it is otherwise passed through unchecked
//     (it only names the fallback label).

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/chipchat/chipchat/contextref"
)

// maxCodecInput is the most stdin any codec op reads.
const maxCodecInput = 64 << 20

// codecOp is one `chipchat codec` operation.
type codecOp struct {
	name     string
	args     string // argument synopsis after the op name
	summary  string // one line for the ops list
	help     string // the op's own --help text, after its usage line
	takeKind bool   // accepts --kind KIND (required)
	run      func(c *codecCall) error
}

// codecCall is what an op works with: the whole of stdin, a buffer for its
// output (written to stdout only on success) and its warnings.
type codecCall struct {
	in       []byte
	kind     string
	out      bytes.Buffer
	warnings []string
}

func (c *codecCall) warn(format string, args ...any) {
	c.warnings = append(c.warnings, fmt.Sprintf(format, args...))
}

// codecOps lists the ops in the order the usage shows them. Tests may add to
// it (see codecOpByName).
var codecOps = []*codecOp{
	{
		name:    "context-id",
		summary: "producer id (stdin, byte for byte) -> context id and \\n",
		help:    "Reads a producer id (taken byte for byte, nothing trimmed) and writes\nthe context id ToContextID makes of it, then a newline.\n",
		run:     codecContextID,
	},
	{
		name:     "label",
		args:     "--kind KIND",
		summary:  "raw label (stdin) -> sanitized link label and \\n",
		help:     "Reads a raw label (nothing trimmed) and writes the label as a reference\nlink carries it, then a newline. An empty result is KIND.\n",
		takeKind: true,
		run:      codecLabel,
	},
	{
		name:    "parse",
		summary: "text -> JSON array of references (byte offsets) and \\n",
		help:    "Reads a message text and writes the reference links in it as a JSON array\nof {\"kind\",\"contextId\",\"label\",\"image\",\"start\",\"end\"}, start and end\nbeing byte offsets into stdin, then a newline. No references: [].\n",
		run:     codecParse,
	},
	{
		name:    "project",
		summary: "{\"text\",\"records\"} -> what the provider reads, exactly",
		help:    "Reads {\"text\": string, \"records\": [record, ...]} and writes what the\nprovider reads, exactly (nothing appended): the projection of the text (its\nreferences as markers and a <t3_context> envelope), then the expansion of\nits assistant citations into [assistant-quote-N] and an\n<assistant_citations> block. Each record is decoded on its own; an\nundecodable one is dropped with a warning on stderr.\n",
		run:     codecProject,
	},
	{
		name:    "citation-parse",
		summary: "citation href -> decoded citation JSON and \\n",
		help:    "Reads an assistant citation href (t3-citation://v1/...; taken as is, the\nURL rules drop tabs and newlines and trailing spaces) and writes the\ndecoded citation as JSON, keys in the order version, environmentId,\nthreadId, messageId, text, comment (when present), start, end, prefix,\nsuffix, then a newline. Exit 1 when the href does not parse.\n",
		run:     codecCitationParse,
	},
	{
		name:    "decode",
		summary: "message context -> normalized context JSON and \\n",
		help:    "Reads a message context {\"version\": 1, \"records\": [...]} and writes it\nnormalized (values trimmed, unknown properties dropped, undecodable records\ndropped with a warning on stderr), then a newline. Exit 1 when the whole\ncontext fails.\n",
		run:     codecDecode,
	},
	{
		name:    "upgrade",
		summary: "legacy message text -> {\"text\",\"records\"} JSON and \\n",
		help:    "Reads a message text that may carry legacy context blocks and writes\n{\"text\": string, \"records\": [...]} with the blocks turned into reference\nlinks, then a newline. Text without legacy blocks comes back unchanged.\n",
		run:     codecUpgrade,
	},
	{
		name:    "fragment-decode",
		summary: "fragment JSON or HTML carrier -> fragment JSON and \\n",
		help:    "Reads a clipboard fragment, as its JSON or as an HTML carrier (the first\ndata-t3-context-fragment=\"...\" attribute, on a <div> or a <pre>), and writes\nthe normalized fragment JSON, then a newline. Exit 1 when there is no valid\nfragment.\n",
		run:     codecFragmentDecode,
	},
	{
		name:    "fragment-html",
		summary: "{\"text\",\"html\"?,\"fragment\"} -> HTML carrier, exactly",
		help:    "Reads {\"text\": string, \"html\"?: string, \"fragment\": {...}} and writes the\nHTML carrier of the fragment exactly (nothing appended): with a non-empty\n\"html\" (the copy's own HTML rendering) <div data-t3-context-fragment=\"...\">\naround that HTML, unchanged; otherwise <pre data-t3-context-fragment=\"...\">\naround the plain text, escaped.\n",
		run:     codecFragmentHTML,
	},
}

func codecOpByName(name string) *codecOp {
	for _, op := range codecOps {
		if op.name == name {
			return op
		}
	}
	return nil
}

func codecUsage() string {
	var b strings.Builder
	b.WriteString("Usage: chipchat codec <op> [args] < input > output\n\n")
	b.WriteString("Each op reads all of stdin (UTF-8, at most 64 MiB) and writes stdout.\n")
	b.WriteString("Exit 0 on success, 1 on unusable input (one line on stderr says what is\n")
	b.WriteString("wrong), 2 on a bad command line.\n\nOps:\n")
	for _, op := range codecOps {
		syn := op.name
		if op.args != "" {
			syn += " " + op.args
		}
		fmt.Fprintf(&b, "  %-19s %s\n", syn, op.summary)
	}
	b.WriteString("\nRun \"chipchat codec <op> --help\" for one op.\n")
	return b.String()
}

func (op *codecOp) usage() string {
	syn := "chipchat codec " + op.name
	if op.args != "" {
		syn += " " + op.args
	}
	return "Usage: " + syn + " < input > output\n\n" + op.help
}

// runCodec runs `chipchat codec` with args (what follows "codec") and
// returns the exit code.
func runCodec(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, "chipchat codec: missing op")
		fmt.Fprint(stderr, codecUsage())
		return 2
	}
	switch args[0] {
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, codecUsage())
		return 0
	}
	op := codecOpByName(args[0])
	if op == nil {
		fmt.Fprintf(stderr, "chipchat codec: unknown op %s (run \"chipchat codec --help\" for the list)\n", quoteArg(args[0]))
		return 2
	}
	prefix := "chipchat codec " + op.name + ": "

	c := &codecCall{}
	fs := flag.NewFlagSet(op.name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	if op.takeKind {
		fs.StringVar(&c.kind, "kind", "", "kind of the referenced record")
	}
	if err := fs.Parse(args[1:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, op.usage())
			return 0
		}
		fmt.Fprintf(stderr, "%s%s (usage: %s)\n", prefix, oneLine(err.Error()), opSynopsis(op))
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "%sunexpected argument %s (usage: %s)\n", prefix, quoteArg(fs.Arg(0)), opSynopsis(op))
		return 2
	}
	if op.takeKind && c.kind == "" {
		fmt.Fprintf(stderr, "%s--kind KIND is required (usage: %s)\n", prefix, opSynopsis(op))
		return 2
	}

	in, err := readCodecInput(stdin)
	if err == nil {
		c.in = in
		err = op.call(c)
	}
	if err != nil {
		fmt.Fprintf(stderr, "%s%s\n", prefix, oneLine(err.Error()))
		return 1
	}
	for _, w := range c.warnings {
		fmt.Fprintf(stderr, "%swarning: %s\n", prefix, oneLine(w))
	}
	if _, err := stdout.Write(c.out.Bytes()); err != nil {
		fmt.Fprintf(stderr, "%swriting stdout: %s\n", prefix, oneLine(err.Error()))
		return 1
	}
	return 0
}

func opSynopsis(op *codecOp) string {
	if op.args == "" {
		return "chipchat codec " + op.name
	}
	return "chipchat codec " + op.name + " " + op.args
}

// call runs the op, turning a panic into an error so that the user sees one
// line and never a stack trace.
func (op *codecOp) call(c *codecCall) (err error) {
	defer func() {
		if r := recover(); r != nil {
			c.out.Reset()
			c.warnings = nil
			err = fmt.Errorf("internal error: %v", r)
		}
	}()
	return op.run(c)
}

// readCodecInput reads all of stdin, refusing more than maxCodecInput bytes
// and anything that is not UTF-8.
func readCodecInput(r io.Reader) ([]byte, error) {
	if r == nil {
		return nil, errors.New("no stdin")
	}
	in, err := io.ReadAll(io.LimitReader(r, maxCodecInput+1))
	if err != nil {
		return nil, fmt.Errorf("reading stdin: %v", err)
	}
	if len(in) > maxCodecInput {
		return nil, fmt.Errorf("stdin is larger than %d MiB; refusing it", maxCodecInput>>20)
	}
	if !utf8.Valid(in) {
		return nil, fmt.Errorf("stdin is not valid UTF-8 (first bad byte at offset %d)", firstInvalidUTF8(in))
	}
	return in, nil
}

func firstInvalidUTF8(b []byte) int {
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n <= 1 {
			return i
		}
		i += n
	}
	return len(b)
}

// writeJSON appends v as JSON with <, > and & left literal, and a newline.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

func codecContextID(c *codecCall) error {
	c.out.WriteString(contextref.ToContextID(string(c.in)))
	c.out.WriteByte('\n')
	return nil
}

func codecLabel(c *codecCall) error {
	c.out.WriteString(contextref.SanitizeLabel(string(c.in), c.kind))
	c.out.WriteByte('\n')
	return nil
}

func codecParse(c *codecCall) error {
	occ := contextref.Scan(string(c.in))
	if occ == nil {
		occ = []contextref.Occurrence{}
	}
	return writeJSON(&c.out, occ)
}

func codecProject(c *codecCall) error {
	env, err := decodeEnvelope(c.in, `{"text": string, "records": [record, ...]}`)
	if err != nil {
		return err
	}
	text, err := envelopeString(env, "text")
	if err != nil {
		return err
	}
	raws, err := envelopeArray(env, "records")
	if err != nil {
		return err
	}
	records := make([]contextref.Record, 0, len(raws))
	for i, raw := range raws {
		r, err := contextref.DecodeRecord(raw)
		if err != nil {
			c.warn("dropped records[%d]: %v", i, err)
			continue
		}
		records = append(records, r)
	}
	c.out.WriteString(contextref.ProjectForProvider(text, records))
	return nil
}

func codecCitationParse(c *codecCall) error {
	cit, err := contextref.ParseCitationHref(string(c.in))
	if err != nil {
		return err
	}
	b, err := contextref.MarshalCitation(cit)
	if err != nil {
		return fmt.Errorf("encoding the citation: %v", err)
	}
	c.out.Write(b)
	c.out.WriteByte('\n')
	return nil
}

func codecDecode(c *codecCall) error {
	ctx, dropped, err := contextref.DecodeContext(c.in)
	if err != nil {
		return err
	}
	if ctx == nil {
		return errors.New("no message context")
	}
	for _, d := range dropped {
		c.warn("dropped %v", d)
	}
	b, err := ctx.Marshal()
	if err != nil {
		return fmt.Errorf("encoding the context: %v", err)
	}
	c.out.Write(b)
	c.out.WriteByte('\n')
	return nil
}

func codecUpgrade(c *codecCall) error {
	text, records := contextref.UpgradeLegacy(string(c.in))
	out := struct {
		Text    string            `json:"text"`
		Records []json.RawMessage `json:"records"`
	}{Text: text, Records: make([]json.RawMessage, 0, len(records))}
	for i, r := range records {
		b, err := contextref.MarshalRecord(r)
		if err != nil {
			return fmt.Errorf("encoding records[%d]: %v", i, err)
		}
		out.Records = append(out.Records, b)
	}
	return writeJSON(&c.out, out)
}

func codecFragmentDecode(c *codecCall) error {
	f, err := contextref.DecodeFragment(c.in)
	if err != nil {
		return err
	}
	if f == nil {
		return errors.New("no fragment")
	}
	b, err := f.Marshal()
	if err != nil {
		return fmt.Errorf("encoding the fragment: %v", err)
	}
	c.out.Write(b)
	c.out.WriteByte('\n')
	return nil
}

func codecFragmentHTML(c *codecCall) error {
	env, err := decodeEnvelope(c.in, `{"text": string, "fragment": {...}}`)
	if err != nil {
		return err
	}
	text, err := envelopeString(env, "text")
	if err != nil {
		return err
	}
	raw, ok := env["fragment"]
	if !ok {
		return errors.New(`"fragment" is required`)
	}
	f, err := contextref.DecodeFragment(raw)
	if err != nil {
		return fmt.Errorf("fragment: %v", err)
	}
	if f == nil {
		return errors.New("fragment: no fragment")
	}
	own := ""
	if _, ok := env["html"]; ok {
		if own, err = envelopeString(env, "html"); err != nil {
			return err
		}
	}
	html, err := contextref.FragmentCarrier(text, own, f)
	if err != nil {
		return err
	}
	c.out.WriteString(html)
	return nil
}

// decodeEnvelope reads stdin as one JSON object; shape names the expected
// form in the error.
func decodeEnvelope(in []byte, shape string) (map[string]json.RawMessage, error) {
	var v any
	if err := json.Unmarshal(in, &v); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return nil, fmt.Errorf("stdin is not valid JSON: %v (at byte %d)", se, se.Offset)
		}
		return nil, fmt.Errorf("stdin is not valid JSON: %v", err)
	}
	var env map[string]json.RawMessage
	if json.Unmarshal(in, &env) != nil || env == nil {
		return nil, fmt.Errorf("stdin must be a JSON object %s", shape)
	}
	return env, nil
}

func envelopeString(env map[string]json.RawMessage, key string) (string, error) {
	raw, ok := env[key]
	if !ok {
		return "", fmt.Errorf("%q is required", key)
	}
	var s string
	if !bytes.HasPrefix(raw, []byte(`"`)) || json.Unmarshal(raw, &s) != nil {
		return "", fmt.Errorf("%q must be a string", key)
	}
	return s, nil
}

// envelopeArray returns the raw elements of an array; a missing or null key
// is an empty array.
func envelopeArray(env map[string]json.RawMessage, key string) ([]json.RawMessage, error) {
	raw, ok := env[key]
	if !ok || string(raw) == "null" {
		return nil, nil
	}
	var items []json.RawMessage
	if !bytes.HasPrefix(raw, []byte("[")) || json.Unmarshal(raw, &items) != nil {
		return nil, fmt.Errorf("%q must be an array", key)
	}
	return items, nil
}

// quoteArg quotes a command-line argument for an error line.
func quoteArg(s string) string { return strconv.Quote(s) }

// oneLine escapes control characters and line separators so that a message
// stays on one line and cannot drive the terminal.
func oneLine(s string) string {
	if !strings.ContainsFunc(s, breaksLine) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if breaksLine(r) {
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func breaksLine(r rune) bool {
	return unicode.IsControl(r) || r == '\u2028' || r == '\u2029'
}
