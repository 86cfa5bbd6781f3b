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
// conversation:
//
//  1. the fragments of this turn, binned by the fragment assembler: the
//     environment context (cwd = Turn.Dir, shell from $SHELL, today's date
//     and the time zone, computed here), the project's AGENTS.md (Turn.Dir)
//     when present, one skill instruction per skill the message references
//     whose SKILL.md is found, and a turn-aborted notice when the previous
//     turn of the thread was cancelled;
//  2. the thread's earlier messages (kept in memory per Turn.ThreadID,
//     stripped of their runtime fragments so stale ones are never resent);
//  3. the user's message: the projected prompt's words and its
//     <t3_context> envelope as two text parts, then one image part (a
//     base64 data URL) per image attachment whose bytes can be read.
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

type openAIThread struct {
	history []fragment.Message // user words (+ envelope) and assistant replies
	aborted bool               // the last turn was cancelled
}

// Limits on what is read from disk for a turn.
const (
	openAIMaxInstructions = 64 << 10 // AGENTS.md, SKILL.md
	openAIMaxImage        = 20 << 20
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

func (o *OpenAI) getenv(k string) string {
	if o.Getenv != nil {
		return o.Getenv(k)
	}
	return os.Getenv(k)
}

func (o *OpenAI) now() time.Time {
	if o.Now != nil {
		return o.Now()
	}
	return time.Now()
}

// Fragments are the runtime fragments of turn t (without the thread's
// turn-aborted notice).
func (o *OpenAI) Fragments(t Turn) []fragment.Fragment {
	now := o.now()
	cwd := t.Dir
	if cwd == "" {
		cwd, _ = os.Getwd()
	}
	shell := o.getenv("SHELL")
	if shell != "" {
		shell = filepath.Base(shell)
	}
	frags := []fragment.Fragment{fragment.EnvironmentContext{
		Cwd: cwd, Shell: shell, CurrentDate: now.Format("2006-01-02"), Timezone: o.timezone(now),
	}}
	if t.Dir != "" {
		if text, ok := readInstructions(filepath.Join(t.Dir, "AGENTS.md")); ok && strings.TrimSpace(text) != "" {
			frags = append(frags, fragment.UserInstructions{Dir: t.Dir, Text: strings.TrimRight(text, "\n")})
		}
	}
	for _, name := range referencedSkills(t) {
		if path, text, ok := findSkill(t.Dir, o.getenv("HOME"), name); ok {
			frags = append(frags, fragment.SkillInstructions{Name: name, Path: path, Contents: strings.TrimRight(text, "\n")})
		}
	}
	return frags
}

// timezone names now's zone: $TZ when set, else the IANA name
// /etc/localtime links to, else the location's name, else its abbreviation.
func (o *OpenAI) timezone(now time.Time) string {
	if tz := strings.TrimPrefix(o.getenv("TZ"), ":"); tz != "" {
		return tz
	}
	if o.Getenv == nil {
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

// WantsHistory asks the app for the thread's stored conversation, used
// when this process has none of its own for the thread.
func (o *OpenAI) WantsHistory() bool { return true }

// Capabilities: the harness keeps no session (it wants the history), can
// be cancelled, sends images and compacts.
func (o *OpenAI) Capabilities() Capabilities {
	return Capabilities{History: true, Cancel: true, Images: true, Compact: true}
}

// Messages builds the conversation for turn t: the assembled fragments,
// the thread's history stripped of runtime fragments, and the user's
// message (text parts only; images are added on the wire).
func (o *OpenAI) Messages(t Turn) ([]fragment.Message, error) {
	reg := o.registry()
	frags := o.Fragments(t)
	var history []fragment.Message
	o.mu.Lock()
	if th := o.threads[t.ThreadID]; th != nil && t.ThreadID != "" {
		history = append(history, th.history...)
		if th.aborted {
			frags = append(frags, fragment.TurnAborted{})
		}
	} else {
		// Nothing in memory for this thread (a restart): the stored
		// conversation, as the app handed it over.
		history = storedHistory(t)
	}
	o.mu.Unlock()
	msgs, err := reg.Fork(history, frags)
	if err != nil {
		return nil, err
	}
	if t.Compact {
		return append(msgs, fragment.Message{Role: fragment.RoleUser, Parts: []string{CompactInstruction}}), nil
	}
	return append(msgs, fragment.Message{Role: fragment.RoleUser, Parts: o.promptParts(t)}), nil
}

// storedHistory is Turn.History as conversation messages.
func storedHistory(t Turn) []fragment.Message {
	var history []fragment.Message
	for _, h := range t.History {
		role := fragment.RoleUser
		if h.Role == "assistant" {
			role = fragment.RoleAssistant
		}
		if strings.TrimSpace(h.Text) != "" {
			history = append(history, fragment.Message{Role: role, Parts: []string{h.Text}})
		}
	}
	return history
}

// compact replaces the thread's history by the user's words and the
// summary (the current fragments are assembled afresh at every turn).
func (o *OpenAI) compact(t Turn, summary string) error {
	reg := o.registry() // before the lock: registry takes it too
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.threads == nil {
		o.threads = map[string]*openAIThread{}
	}
	th := o.threads[t.ThreadID]
	base := storedHistory(t)
	if th != nil {
		base = th.history
	} else {
		th = &openAIThread{}
		o.threads[t.ThreadID] = th
	}
	h, err := reg.Compact(base, summary, nil)
	if err != nil {
		return fmt.Errorf("openai: compact: %w", err)
	}
	th.history, th.aborted = h, false
	return nil
}

// promptParts splits the projected prompt into the user's words and the
// context envelope, which the registry claims (no hand-written tag test).
// The envelope is the last "\n\n"-separated tail claimed as T3ContextKind;
// inside it every "<t3_context" is escaped, so the rightmost candidate is
// the real one.
func (o *OpenAI) promptParts(t Turn) []string {
	p := t.Prompt
	if contextref.HasReferences(t.Text) {
		reg := o.registry()
		for i := strings.LastIndex(p, "\n\n"); i >= 0; i = strings.LastIndex(p[:i], "\n\n") {
			if k, ok := reg.Claim(p[i+2:]); ok && k == fragment.T3ContextKind && strings.TrimSpace(p[:i]) != "" {
				return []string{p[:i], p[i+2:]}
			}
		}
	}
	return []string{p}
}

// Stream sends the turn and streams the reply.
// Run answers t with text deltas.
func (o *OpenAI) Run(ctx context.Context, t Turn, emit func(Event)) error {
	return o.stream(ctx, t, func(s string) { emit(TextDelta{s}) })
}

func (o *OpenAI) stream(ctx context.Context, t Turn, emit func(delta string)) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	msgs, err := o.Messages(t)
	if err != nil {
		return fmt.Errorf("openai: %w", err)
	}
	wire := make([]openai.ChatCompletionMessageParamUnion, 0, len(msgs))
	for i, m := range msgs {
		var images []openai.ChatCompletionContentPartUnionParam
		if i == len(msgs)-1 {
			images = imageParts(t.Attachments)
		}
		wire = append(wire, wireMessage(m, images))
	}
	client := openai.NewClient(o.options()...)
	stream := client.Chat.Completions.NewStreaming(ctx, openai.ChatCompletionNewParams{
		Model:    o.Model,
		Messages: wire,
	})
	defer stream.Close()
	var reply strings.Builder
	for stream.Next() {
		chunk := stream.Current()
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
			return o.compact(t, reply.String())
		}
		return err
	}
	o.record(t, msgs[len(msgs)-1], reply.String(), errors.Is(err, context.Canceled))
	return err
}

// record appends the turn to its thread's history.
func (o *OpenAI) record(t Turn, user fragment.Message, reply string, aborted bool) {
	if t.ThreadID == "" {
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.threads == nil {
		o.threads = map[string]*openAIThread{}
	}
	th := o.threads[t.ThreadID]
	if th == nil {
		th = &openAIThread{}
		o.threads[t.ThreadID] = th
	}
	th.history = append(th.history, user)
	if reply != "" {
		th.history = append(th.history, fragment.Message{Role: fragment.RoleAssistant, Parts: []string{reply}})
	}
	th.aborted = aborted
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

// wireMessage maps an assembled message to Chat Completions.
func wireMessage(m fragment.Message, images []openai.ChatCompletionContentPartUnionParam) openai.ChatCompletionMessageParamUnion {
	switch m.Role {
	case fragment.RoleDeveloper:
		return openai.SystemMessage(m.Text())
	case fragment.RoleAssistant:
		return openai.AssistantMessage(m.Text())
	}
	if len(m.Parts) == 1 && len(images) == 0 {
		return openai.UserMessage(m.Parts[0])
	}
	parts := make([]openai.ChatCompletionContentPartUnionParam, 0, len(m.Parts)+len(images))
	for _, p := range m.Parts {
		parts = append(parts, openai.TextContentPart(p))
	}
	return openai.UserMessage(append(parts, images...))
}

// imageParts reads each image attachment into a data-URL image part;
// attachments without readable bytes are left to the envelope's metadata.
func imageParts(atts []Attachment) []openai.ChatCompletionContentPartUnionParam {
	var out []openai.ChatCompletionContentPartUnionParam
	for _, a := range atts {
		if !a.IsImage() || a.Path == "" {
			continue
		}
		data, ok := readRegular(a.Path, openAIMaxImage)
		if !ok || len(data) > openAIMaxImage {
			continue
		}
		url := "data:" + strings.ToLower(strings.TrimSpace(a.MimeType)) + ";base64," + base64.StdEncoding.EncodeToString(data)
		out = append(out, openai.ImageContentPart(openai.ChatCompletionContentPartImageImageURLParam{URL: url}))
	}
	return out
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

// referencedSkills lists the names of the skill records the message's text
// references, in first-reference order, once each.
func referencedSkills(t Turn) []string {
	if !contextref.HasReferences(t.Text) {
		return nil
	}
	byID := map[string]*contextref.SkillRecord{}
	dup := map[string]bool{}
	for _, r := range t.Records {
		id := r.RecordBase().ContextID
		if _, ok := byID[id]; ok {
			dup[id] = true
		}
		s, _ := r.(*contextref.SkillRecord)
		byID[id] = s
	}
	var names []string
	seen := map[string]bool{}
	for _, occ := range contextref.Scan(t.Text) {
		s := byID[occ.ContextID]
		if s == nil || dup[occ.ContextID] {
			continue
		}
		name := strings.TrimSpace(s.Name)
		if name != "" && !seen[name] {
			seen[name] = true
			names = append(names, name)
		}
	}
	return names
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
