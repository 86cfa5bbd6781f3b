package agent

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/chipchat/chipchat/contextref"
	"github.com/chipchat/chipchat/fragment"
)

// OpenAI is the openai:<base-url>#<model> backend: an OpenAI-compatible
// Chat Completions endpoint, streamed. chipchat is the harness here, so it
// assembles the runtime fragments itself (package fragment) around the
// conversation, and puts the user's payload in the request:
//
//  1. the fragments of this turn, binned by the fragment assembler: the
//     environment context (cwd = Turn.Dir, shell from $SHELL, today's date
//     and the time zone, computed here), the project's AGENTS.md (Turn.Dir)
//     when present, and one skill instruction per skill that any message
//     of the thread references (HistoryMessage.Skills and this message)
//     whose SKILL.md is found;
//  2. the thread's earlier messages: Turn.History (or, when it is empty,
//     what this process recorded for Turn.ThreadID), each user message
//     with its payload (below) while the payload of the newer ones fits
//     Limits.HistoryBytes — the older ones get one <attachments_omitted>
//     line naming what is no longer sent — and a <turn_aborted> user
//     message right after each reply marked Interrupted;
//  3. the user's message: the projected prompt's words and its
//     <t3_context> envelope as two text parts, then one part per
//     attachment in first-reference order: a text file (by MIME type, or
//     valid UTF-8 with no NUL in its first 8000 bytes), a pasted-text chip
//     or an @ mention's snapshot as an <attached_file> fragment cut at
//     Limits.InlineFileBytes and what is left of Limits.InlineTurnBytes
//     ("(truncated: N of M bytes)"); a PNG, JPEG, GIF or WebP image as an
//     image part (a base64 data URL, at most 20 MiB); anything else as an
//     <attached_file> holding a one-line notice; then one
//     <thread_history> fragment per referenced thread.
//
// A Turn with Compact asks for a summary instead: the request is the same
// conversation with every earlier payload replaced by an
// <attachments_omitted> line naming it (the model is told what was
// attached, the summary input is not flooded), then CompactInstruction.
//
// Developer-role messages go out as "system": every OpenAI-compatible
// server knows that role, and OpenAI treats it as developer. A user message
// of one text part is sent as a plain string.
//
// The key is APIKey, else $OPENAI_API_KEY; with neither, no Authorization
// header is sent (local servers need none).
type OpenAI struct {
	BaseURL string
	Model   string
	APIKey  string

	// Optional; zero values mean the defaults.
	HTTPClient *http.Client        // the SDK's default client
	Registry   *fragment.Registry  // fragment.Standard()
	Now        func() time.Time    // time.Now
	Getenv     func(string) string // os.Getenv
	MaxRetries int                 // retries of a failed request; < 0 means none, 0 means 1

	mu      sync.Mutex
	threads map[string]*openAIThread
}

// openAIThread is what this process recorded of a thread: used when a turn
// comes without Turn.History.
type openAIThread struct {
	history []HistoryMessage
}

// Limits on what is read from disk for a turn.
const (
	openAIMaxInstructions = 64 << 10 // AGENTS.md, SKILL.md
)

// NewOpenAI returns the backend for an "openai:<base-url>#<model>" spec's
// parts.
func NewOpenAI(baseURL, model string) (*OpenAI, error) {
	u, err := url.Parse(baseURL)
	switch {
	case err != nil:
		return nil, fmt.Errorf("openai: base URL %q: %v", baseURL, err)
	case u.Scheme != "http" && u.Scheme != "https":
		return nil, fmt.Errorf("openai: base URL %q must start with http:// or https://", baseURL)
	case u.Host == "":
		return nil, fmt.Errorf("openai: base URL %q has no host", baseURL)
	case strings.TrimSpace(model) == "":
		return nil, fmt.Errorf("openai: no model: write openai:<base-url>#<model>")
	}
	return &OpenAI{BaseURL: baseURL, Model: strings.TrimSpace(model)}, nil
}

// Name is "openai:<model>".
func (o *OpenAI) Name() string { return "openai:" + o.Model }

func (o *OpenAI) registry() *fragment.Registry {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.Registry == nil {
		o.Registry = fragment.Standard()
	}
	return o.Registry
}

// harness is what building a request needs besides the turn: the registry,
// the clock and the environment. The openai and echo backends share it.
type harness struct {
	reg    *fragment.Registry
	now    func() time.Time
	getenv func(string) string
	// fake: the environment is injected (a test): /etc/localtime is not read.
	fake bool
}

func (o *OpenAI) harness() harness {
	h := harness{reg: o.registry(), now: o.Now, getenv: o.Getenv, fake: o.Getenv != nil}
	return h.withDefaults()
}

func (h harness) withDefaults() harness {
	if h.reg == nil {
		h.reg = fragment.Standard()
	}
	if h.now == nil {
		h.now = time.Now
	}
	if h.getenv == nil {
		h.getenv = os.Getenv
	}
	return h
}

// Fragments are the runtime fragments of turn t: environment, AGENTS.md and
// the instructions of the skills the thread's messages reference.
func (o *OpenAI) Fragments(t Turn) []fragment.Fragment {
	return o.harness().fragments(t, o.historyFor(t))
}

func (h harness) fragments(t Turn, history []HistoryMessage) []fragment.Fragment {
	now := h.now()
	cwd := t.Dir
	if cwd == "" {
		cwd, _ = os.Getwd()
	}
	shell := h.getenv("SHELL")
	if shell != "" {
		shell = filepath.Base(shell)
	}
	frags := []fragment.Fragment{fragment.EnvironmentContext{
		Cwd: cwd, Shell: shell, CurrentDate: now.Format("2006-01-02"), Timezone: h.timezone(now),
	}}
	if t.Dir != "" {
		if text, ok := readInstructions(filepath.Join(t.Dir, "AGENTS.md")); ok && strings.TrimSpace(text) != "" {
			frags = append(frags, fragment.UserInstructions{Dir: t.Dir, Text: strings.TrimRight(text, "\n")})
		}
	}
	for _, name := range threadSkills(t, history) {
		if path, text, ok := findSkill(t.Dir, h.getenv("HOME"), name); ok {
			frags = append(frags, fragment.SkillInstructions{Name: name, Path: path, Contents: strings.TrimRight(text, "\n")})
		}
	}
	return frags
}

// threadSkills are the skills the thread still references: those of the
// earlier user messages, then this message's, in first-reference order.
func threadSkills(t Turn, history []HistoryMessage) []string {
	var names []string
	seen := map[string]bool{}
	add := func(ns []string) {
		for _, n := range ns {
			if n = strings.TrimSpace(n); n != "" && !seen[n] {
				seen[n] = true
				names = append(names, n)
			}
		}
	}
	for _, h := range history {
		if h.Role == "user" {
			add(h.Skills)
		}
	}
	add(SkillNames(t.Text, t.Records))
	return names
}

// timezone names now's zone: $TZ when set, else the IANA name
// /etc/localtime links to, else the location's name, else its abbreviation.
func (h harness) timezone(now time.Time) string {
	if tz := strings.TrimPrefix(h.getenv("TZ"), ":"); tz != "" {
		return tz
	}
	if !h.fake {
		if target, err := os.Readlink("/etc/localtime"); err == nil {
			if _, name, ok := strings.Cut(target, "zoneinfo/"); ok && name != "" {
				return name
			}
		}
	}
	if name := now.Location().String(); name != "Local" && name != "" {
		return name
	}
	return now.Format("MST")
}

// WantsHistory asks the app for the thread's stored conversation.
func (o *OpenAI) WantsHistory() bool { return true }

// Capabilities: the harness keeps no session (it wants the history), can
// be cancelled, sends images and text files itself and compacts.
func (o *OpenAI) Capabilities() Capabilities {
	return Capabilities{History: true, Cancel: true, Images: true, Files: true, Compact: true, InlinePayload: true}
}

// reqPart is one part of a request message: a text (a rendered fragment or
// the user's words) or an image attachment (read when the request is sent).
type reqPart struct {
	Text  string
	Image *Attachment
}

// reqMessage is one message of a request.
type reqMessage struct {
	Role  fragment.Role
	Parts []reqPart
}

func textParts(ss ...string) []reqPart {
	out := make([]reqPart, len(ss))
	for i, s := range ss {
		out[i] = reqPart{Text: s}
	}
	return out
}

// Messages builds the conversation for turn t, as text: image parts are
// left out (they are added on the wire).
func (o *OpenAI) Messages(t Turn) ([]fragment.Message, error) {
	req, err := o.harness().request(t, o.historyFor(t))
	if err != nil {
		return nil, err
	}
	out := make([]fragment.Message, 0, len(req))
	for _, m := range req {
		fm := fragment.Message{Role: m.Role}
		for _, p := range m.Parts {
			if p.Image == nil {
				fm.Parts = append(fm.Parts, p.Text)
			}
		}
		out = append(out, fm)
	}
	return out, nil
}

// historyFor is the conversation before t: Turn.History when the app
// handed one, else what this process recorded for the thread.
func (o *OpenAI) historyFor(t Turn) []HistoryMessage {
	if len(t.History) > 0 {
		return t.History
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if th := o.threads[t.ThreadID]; th != nil && t.ThreadID != "" {
		return append([]HistoryMessage(nil), th.history...)
	}
	return nil
}

// Reasons of <attachments_omitted> lines.
const (
	omittedOverBudget = "sent with this message earlier; not resent (over the history budget)"
	omittedInSummary  = "attached to this message; contents left out of this summary request"
)

// request builds the whole request for turn t after history.
func (h harness) request(t Turn, history []HistoryMessage) ([]reqMessage, error) {
	head, err := h.reg.Assemble(h.fragments(t, history)...)
	if err != nil {
		return nil, err
	}
	out := make([]reqMessage, 0, len(head)+len(history)+1)
	for _, m := range head {
		out = append(out, reqMessage{Role: m.Role, Parts: textParts(m.Parts...)})
	}
	lim := t.Limits.withDefaults()
	plans, omitted := historyPayload(history, lim, t.Compact)
	for i, hm := range history {
		if hm.Role != "user" {
			if strings.TrimSpace(hm.Text) != "" {
				out = append(out, reqMessage{Role: fragment.RoleAssistant, Parts: textParts(hm.Text)})
			}
			if hm.Interrupted {
				out = append(out, reqMessage{Role: fragment.RoleUser, Parts: textParts(fragment.Render(fragment.TurnAborted{}))})
			}
			continue
		}
		if strings.TrimSpace(hm.Text) == "" && len(hm.Attachments) == 0 && len(hm.Threads) == 0 {
			continue
		}
		parts := textParts(h.splitPrompt(hm.Text)...)
		parts = append(parts, deliveredParts(deliver(plans[i], nil))...)
		if len(omitted[i]) > 0 {
			reason := omittedOverBudget
			if t.Compact {
				reason = omittedInSummary
			}
			parts = append(parts, reqPart{Text: fragment.Render(fragment.AttachmentsOmitted{Names: omitted[i], Reason: reason})})
		}
		out = append(out, reqMessage{Role: fragment.RoleUser, Parts: parts})
	}
	if t.Compact {
		return append(out, reqMessage{Role: fragment.RoleUser, Parts: textParts(CompactInstruction)}), nil
	}
	words := []string{t.Prompt}
	if contextref.HasReferences(t.Text) {
		words = h.splitPrompt(t.Prompt)
	}
	parts := textParts(words...)
	parts = append(parts, deliveredParts(deliver(planPayload(t.Attachments, t.Threads, lim), nil))...)
	return append(out, reqMessage{Role: fragment.RoleUser, Parts: parts}), nil
}

func deliveredParts(ds []deliveredPart) []reqPart {
	out := make([]reqPart, len(ds))
	for i, d := range ds {
		out[i] = reqPart{Text: d.text, Image: d.image}
	}
	return out
}

// historyPayload plans the payload of the earlier user messages: newest
// first, each part kept while the kept parts' cost fits lim.HistoryBytes;
// from the first that does not fit, it and every older part are omitted
// (named in omitted). Notices cost nothing and stay. For a compaction
// every part is omitted.
func historyPayload(history []HistoryMessage, lim Limits, compact bool) (plans [][]plannedPart, omitted [][]string) {
	plans = make([][]plannedPart, len(history))
	omitted = make([][]string, len(history))
	budget, over := lim.HistoryBytes, compact
	for i := len(history) - 1; i >= 0; i-- {
		hm := history[i]
		if hm.Role != "user" || len(hm.Attachments)+len(hm.Threads) == 0 {
			continue
		}
		if over {
			omitted[i] = payloadNames(hm)
			continue
		}
		all := planPayload(hm.Attachments, hm.Threads, lim)
		keep := make([]bool, len(all))
		for j := len(all) - 1; j >= 0; j-- {
			p := all[j]
			if !over && p.cost <= budget {
				budget -= p.cost
				keep[j] = true
				continue
			}
			over = true
		}
		for j, p := range all {
			if keep[j] {
				plans[i] = append(plans[i], p)
			} else {
				omitted[i] = append(omitted[i], p.name())
			}
		}
	}
	return plans, omitted
}

// payloadNames names a message's attachments and threads.
func payloadNames(hm HistoryMessage) []string {
	var names []string
	for _, a := range hm.Attachments {
		names = append(names, a.Name)
	}
	for i := range hm.Threads {
		names = append(names, plannedPart{payloadSource: payloadSource{thread: &hm.Threads[i]}}.name())
	}
	return names
}

// splitPrompt splits a projected prompt into the user's words and the
// context envelope, which the registry claims (no hand-written tag test).
// The envelope is the last "\n\n"-separated tail claimed as T3ContextKind;
// inside it every "<t3_context" is escaped, so the rightmost candidate is
// the real one.
func (h harness) splitPrompt(p string) []string {
	for i := strings.LastIndex(p, "\n\n"); i >= 0; i = strings.LastIndex(p[:i], "\n\n") {
		if k, ok := h.reg.Claim(p[i+2:]); ok && k == fragment.T3ContextKind && strings.TrimSpace(p[:i]) != "" {
			return []string{p[:i], p[i+2:]}
		}
	}
	return []string{p}
}

// compacted is the history that replaces a compacted one: each user
// message's own words (no claimed fragment: no envelope, no payload, no
// earlier summary) with its skills, then the summary.
func (h harness) compacted(history []HistoryMessage, summary string) []HistoryMessage {
	var out []HistoryMessage
	for _, hm := range history {
		if hm.Role != "user" {
			continue
		}
		var words []string
		for _, p := range h.splitPrompt(hm.Text) {
			if _, claimed := h.reg.Claim(p); !claimed && strings.TrimSpace(p) != "" {
				words = append(words, p)
			}
		}
		if len(words) > 0 {
			out = append(out, HistoryMessage{Role: "user", Text: strings.Join(words, "\n\n"), Skills: hm.Skills})
		}
	}
	return append(out, HistoryMessage{Role: "user", Text: fragment.Render(fragment.ConversationSummary{Text: summary})})
}

// Run answers t with text deltas.
func (o *OpenAI) Run(ctx context.Context, t Turn, emit func(Event)) error {
	return o.streamUsage(ctx, t, func(s string) { emit(TextDelta{s}) }, func(u Usage) { emit(u) })
}

func (o *OpenAI) stream(ctx context.Context, t Turn, emit func(delta string)) error {
	return o.streamUsage(ctx, t, emit, func(Usage) {})
}

// streamUsage streams the reply's text to emit and, when the server sends
// it (stream_options.include_usage), the request's usage to usage.
func (o *OpenAI) streamUsage(ctx context.Context, t Turn, emit func(delta string), usage func(Usage)) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	h := o.harness()
	history := o.historyFor(t)
	req, err := h.request(t, history)
	if err != nil {
		return fmt.Errorf("openai: %w", err)
	}
	wire := make([]openai.ChatCompletionMessageParamUnion, 0, len(req))
	for _, m := range req {
		wire = append(wire, wireMessage(m))
	}
	client := openai.NewClient(o.options()...)
	stream := client.Chat.Completions.NewStreaming(ctx, openai.ChatCompletionNewParams{
		Model:         o.Model,
		Messages:      wire,
		StreamOptions: openai.ChatCompletionStreamOptionsParam{IncludeUsage: openai.Bool(true)},
	})
	defer stream.Close()
	var reply strings.Builder
	for stream.Next() {
		chunk := stream.Current()
		if u := chunk.Usage; u.TotalTokens > 0 || u.PromptTokens > 0 {
			usage(Usage{InputTokens: u.PromptTokens, OutputTokens: u.CompletionTokens, ContextUsed: u.PromptTokens + u.CompletionTokens})
		}
		for _, c := range chunk.Choices {
			if c.Index != 0 {
				continue
			}
			d := c.Delta.Content + c.Delta.Refusal
			if d != "" {
				reply.WriteString(d)
				emit(d)
			}
		}
	}
	err = stream.Err()
	if ctx.Err() != nil {
		err = ctx.Err()
	} else if err != nil {
		err = fmt.Errorf("openai: %w", err)
	}
	if t.Compact {
		if err == nil && t.ThreadID != "" && strings.TrimSpace(reply.String()) != "" {
			o.setHistory(t.ThreadID, h.compacted(history, reply.String()))
		}
		return err
	}
	o.record(t, history, reply.String(), errors.Is(err, context.Canceled))
	return err
}

func (o *OpenAI) setHistory(threadID string, history []HistoryMessage) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.threads == nil {
		o.threads = map[string]*openAIThread{}
	}
	o.threads[threadID] = &openAIThread{history: history}
}

// record keeps the conversation after turn t: history, the user's message
// and the reply (marked Interrupted when the turn was cancelled).
func (o *OpenAI) record(t Turn, history []HistoryMessage, reply string, aborted bool) {
	if t.ThreadID == "" {
		return
	}
	h := append(append([]HistoryMessage(nil), history...), t.UserMessage())
	if reply != "" || aborted {
		h = append(h, HistoryMessage{Role: "assistant", Text: reply, Interrupted: aborted})
	}
	o.setHistory(t.ThreadID, h)
}

func (o *OpenAI) getenv(k string) string {
	if o.Getenv != nil {
		return o.Getenv(k)
	}
	return os.Getenv(k)
}

func (o *OpenAI) options() []option.RequestOption {
	opts := []option.RequestOption{option.WithBaseURL(o.BaseURL)}
	key := o.APIKey
	if key == "" {
		key = o.getenv("OPENAI_API_KEY")
	}
	if key != "" {
		opts = append(opts, option.WithAPIKey(key))
	}
	if o.HTTPClient != nil {
		opts = append(opts, option.WithHTTPClient(o.HTTPClient))
	}
	switch {
	case o.MaxRetries < 0:
		opts = append(opts, option.WithMaxRetries(0))
	case o.MaxRetries == 0:
		opts = append(opts, option.WithMaxRetries(1))
	default:
		opts = append(opts, option.WithMaxRetries(o.MaxRetries))
	}
	return opts
}

// wireMessage maps a request message to Chat Completions, reading images.
func wireMessage(m reqMessage) openai.ChatCompletionMessageParamUnion {
	text := func() string {
		ss := make([]string, 0, len(m.Parts))
		for _, p := range m.Parts {
			if p.Image == nil {
				ss = append(ss, p.Text)
			}
		}
		return strings.Join(ss, "\n\n")
	}
	switch m.Role {
	case fragment.RoleDeveloper:
		return openai.SystemMessage(text())
	case fragment.RoleAssistant:
		return openai.AssistantMessage(text())
	}
	if len(m.Parts) == 1 && m.Parts[0].Image == nil {
		return openai.UserMessage(m.Parts[0].Text)
	}
	parts := make([]openai.ChatCompletionContentPartUnionParam, 0, len(m.Parts))
	for _, p := range m.Parts {
		if p.Image == nil {
			parts = append(parts, openai.TextContentPart(p.Text))
			continue
		}
		if url, ok := imageDataURL(*p.Image); ok {
			parts = append(parts, openai.ImageContentPart(openai.ChatCompletionContentPartImageImageURLParam{URL: url}))
		} else {
			parts = append(parts, openai.TextContentPart(fragment.Render(fragment.AttachedFile{
				Name: p.Image.Name, ID: p.Image.ContextID, Notice: "(not available: its bytes could not be read)"})))
		}
	}
	return openai.UserMessage(parts)
}

// imageDataURL reads an image attachment into a base64 data URL.
func imageDataURL(a Attachment) (string, bool) {
	data, ok := readRegular(a.Path, maxImageBytes)
	if !ok || len(data) > maxImageBytes {
		return "", false
	}
	m := strings.ToLower(strings.TrimSpace(a.MimeType))
	if m == "image/jpg" {
		m = "image/jpeg"
	}
	return "data:" + m + ";base64," + base64.StdEncoding.EncodeToString(data), true
}

// readRegular reads a regular file, at most max+1 bytes.
func readRegular(path string, max int64) ([]byte, bool) {
	info, err := os.Stat(path)
	if err != nil || !info.Mode().IsRegular() {
		return nil, false
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	return data, err == nil
}

// readInstructions reads an instructions file (AGENTS.md, SKILL.md), cut
// at openAIMaxInstructions on a rune boundary.
func readInstructions(path string) (string, bool) {
	data, ok := readRegular(path, openAIMaxInstructions)
	if !ok {
		return "", false
	}
	if len(data) > openAIMaxInstructions {
		data = data[:openAIMaxInstructions]
		if i := lastRuneStart(data); !utf8.FullRune(data[i:]) {
			data = data[:i]
		}
	}
	return string(bytes.TrimPrefix(data, []byte("\ufeff"))), true
}

func lastRuneStart(b []byte) int {
	for i := len(b) - 1; i >= 0 && i >= len(b)-4; i-- {
		if utf8.RuneStart(b[i]) {
			return i
		}
	}
	return len(b)
}

// findSkill finds a skill's SKILL.md where the composer's skill picker
// looks, in the same order: <dir>/.agents/skills, <home>/.agents/skills,
// <dir>/.codex/skills, <dir>/.claude/skills. In each, the folder named
// after the skill comes first, then any folder whose SKILL.md front matter
// has that name.
func findSkill(dir, home, name string) (path, text string, ok bool) {
	var roots []string
	if dir != "" {
		roots = append(roots, filepath.Join(dir, ".agents", "skills"))
	}
	if home != "" {
		roots = append(roots, filepath.Join(home, ".agents", "skills"))
	}
	if dir != "" {
		roots = append(roots, filepath.Join(dir, ".codex", "skills"), filepath.Join(dir, ".claude", "skills"))
	}
	plain := name != "." && name != ".." && !strings.ContainsAny(name, `/\`) && !strings.ContainsRune(name, 0)
	for _, root := range roots {
		if plain {
			p := filepath.Join(root, name, "SKILL.md")
			if text, ok := readInstructions(p); ok {
				return p, text, true
			}
		}
		ents, err := os.ReadDir(root)
		if err != nil {
			continue
		}
		for _, e := range ents {
			p := filepath.Join(root, e.Name(), "SKILL.md")
			if text, ok := readInstructions(p); ok && frontMatterName(text) == name {
				return p, text, true
			}
		}
	}
	return "", "", false
}

// frontMatterName is the `name:` of a SKILL.md's YAML front matter (plain
// or quoted on one line; the composer's picker reads the full YAML forms).
func frontMatterName(text string) string {
	lines := strings.Split(text, "\n")
	if len(lines) == 0 || strings.TrimSpace(lines[0]) != "---" {
		return ""
	}
	for _, l := range lines[1:] {
		l = strings.TrimRight(l, "\r")
		if t := strings.TrimSpace(l); t == "---" || t == "..." {
			return ""
		}
		key, v, ok := strings.Cut(l, ":")
		if !ok || key != "name" {
			continue
		}
		v = strings.TrimSpace(v)
		if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') && v[len(v)-1] == v[0] {
			v = v[1 : len(v)-1]
		}
		return strings.TrimSpace(v)
	}
	return ""
}
