package agent

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chipchat/chipchat/contextref"
	"github.com/chipchat/chipchat/fragment"
)

// chatServer speaks the Chat Completions streaming wire format.
type chatServer struct {
	t      *testing.T
	srv    *httptest.Server
	mu     sync.Mutex
	bodies []map[string]any
	auth   []string
	paths  []string
	// reply is streamed as one chunk per element; hang makes the server
	// stop after the first chunk until the client goes away.
	reply []string
	hang  bool
	fail  int // status to answer with instead of a stream
	// noUsage: the server ignores stream_options.include_usage (else it
	// sends a usage chunk when asked, as OpenAI does).
	noUsage bool
}

func newChatServer(t *testing.T, reply ...string) *chatServer {
	s := &chatServer{t: t, reply: reply}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.srv.Close)
	return s
}

func (s *chatServer) serve(w http.ResponseWriter, r *http.Request) {
	var body map[string]any
	if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
		s.t.Errorf("request body: %v", err)
	}
	s.mu.Lock()
	s.bodies = append(s.bodies, body)
	s.auth = append(s.auth, r.Header.Get("Authorization"))
	s.paths = append(s.paths, r.URL.Path)
	reply, hang, fail, noUsage := s.reply, s.hang, s.fail, s.noUsage
	s.mu.Unlock()
	if fail != 0 {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(fail)
		fmt.Fprint(w, `{"error":{"message":"Incorrect API key provided","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}`)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	fl := w.(http.Flusher)
	chunk := func(delta string, finish string) {
		fin := "null"
		if finish != "" {
			fin = `"` + finish + `"`
		}
		fmt.Fprintf(w, "data: {\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"created\":1700000000,\"model\":\"test-model\",\"system_fingerprint\":null,\"choices\":[{\"index\":0,\"delta\":%s,\"logprobs\":null,\"finish_reason\":%s}]}\n\n", delta, fin)
		fl.Flush()
	}
	chunk(`{"role":"assistant","content":""}`, "")
	for i, part := range reply {
		b, _ := json.Marshal(part)
		chunk(`{"content":`+string(b)+`}`, "")
		if hang && i == 0 {
			<-r.Context().Done()
			return
		}
	}
	chunk(`{}`, "stop")
	if so, _ := body["stream_options"].(map[string]any); so["include_usage"] == true && !noUsage {
		fmt.Fprint(w, "data: {\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"created\":1700000000,\"model\":\"test-model\",\"choices\":[],\"usage\":{\"prompt_tokens\":1200,\"completion_tokens\":34,\"total_tokens\":1234}}\n\n")
	}
	fmt.Fprint(w, "data: [DONE]\n\n")
	fl.Flush()
}

func (s *chatServer) request(i int) map[string]any {
	s.mu.Lock()
	defer s.mu.Unlock()
	if i >= len(s.bodies) {
		s.t.Fatalf("no request %d", i)
	}
	return s.bodies[i]
}

// wireMsg is a request message: role and its text parts / image URLs.
type wireMsg struct {
	role   string
	texts  []string
	images []string
	plain  bool // content was a string
}

func messagesOf(t *testing.T, body map[string]any) []wireMsg {
	t.Helper()
	raw, _ := body["messages"].([]any)
	var out []wireMsg
	for _, m := range raw {
		mm := m.(map[string]any)
		w := wireMsg{role: mm["role"].(string)}
		switch c := mm["content"].(type) {
		case string:
			w.texts, w.plain = []string{c}, true
		case []any:
			for _, p := range c {
				pm := p.(map[string]any)
				switch pm["type"] {
				case "text":
					w.texts = append(w.texts, pm["text"].(string))
				case "image_url":
					w.images = append(w.images, pm["image_url"].(map[string]any)["url"].(string))
				default:
					t.Fatalf("part type %v", pm["type"])
				}
			}
		default:
			t.Fatalf("content %T", c)
		}
		out = append(out, w)
	}
	return out
}

type openAIFixture struct {
	dir, home string
	png       []byte
	turn      Turn
	env       map[string]string
}

func newOpenAIFixture(t *testing.T) *openAIFixture {
	f := &openAIFixture{dir: t.TempDir(), home: t.TempDir(), png: []byte("\x89PNG\r\n\x1a\nfake")}
	write := func(path, data string) {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(f.dir, "AGENTS.md"), "Use tabs.\nRun go test.\n")
	write(filepath.Join(f.dir, ".agents/skills/review/SKILL.md"), "---\nname: review\n---\nReview carefully.\n")
	// Found by its front-matter name in the home skills folder.
	write(filepath.Join(f.home, ".agents/skills/pinch-folder/SKILL.md"), "---\nname: \"pinchtab\"\ndescription: x\n---\nPinch tabs.\n")
	imgPath := filepath.Join(t.TempDir(), "blob")
	if err := os.WriteFile(imgPath, f.png, 0o644); err != nil {
		t.Fatal(err)
	}
	img := image("ctx_i", "sha256-aa", "shot.png")
	fl := file("ctx_f", "sha256-bb", "notes.txt")
	review := &contextref.SkillRecord{Base: contextref.NewBase(contextref.KindSkill, "ctx_s", "$review"), Name: "review"}
	pinch := &contextref.SkillRecord{Base: contextref.NewBase(contextref.KindSkill, "ctx_p", "$pinchtab"), Name: "pinchtab"}
	missing := &contextref.SkillRecord{Base: contextref.NewBase(contextref.KindSkill, "ctx_x", "$nope"), Name: "nope"}
	unref := &contextref.SkillRecord{Base: contextref.NewBase(contextref.KindSkill, "ctx_u", "$unref"), Name: "pinchtab2"}
	text := "Use " + contextref.LinkFor(review) + " and " + contextref.LinkFor(pinch) + " and " + contextref.LinkFor(missing) +
		" on " + contextref.LinkFor(img) + " and " + contextref.LinkFor(fl) + ", again " + contextref.LinkFor(review) + "."
	f.turn = Prepare(text, []contextref.Record{review, pinch, missing, unref, img, fl}, func(id string) (string, bool) {
		if id == "sha256-aa" {
			return imgPath, true
		}
		return "", false
	})
	f.turn.Dir = f.dir
	f.turn.ThreadID = "th1"
	f.env = map[string]string{"SHELL": "/usr/bin/zsh", "TZ": "Europe/Paris", "HOME": f.home, "OPENAI_API_KEY": "sk-test"}
	return f
}

func (f *openAIFixture) backend(s *chatServer) *OpenAI {
	o, err := NewOpenAI(s.srv.URL+"/v1", "test-model")
	if err != nil {
		panic(err)
	}
	o.Now = func() time.Time { return time.Date(2026, 5, 4, 14, 3, 0, 0, time.UTC) }
	o.Getenv = func(k string) string { return f.env[k] }
	o.MaxRetries = -1
	return o
}

func TestOpenAIStreamsWithFragments(t *testing.T) {
	f := newOpenAIFixture(t)
	s := newChatServer(t, "Hel", "lo, ", "wörld")
	o := f.backend(s)
	var c collect
	if err := o.stream(context.Background(), f.turn, c.emit); err != nil {
		t.Fatal(err)
	}
	if c.text() != "Hello, wörld" || len(c.chunks) != 3 {
		t.Fatalf("streamed %q", c.chunks)
	}
	body := s.request(0)
	if s.paths[0] != "/v1/chat/completions" || s.auth[0] != "Bearer sk-test" || body["model"] != "test-model" || body["stream"] != true {
		t.Fatalf("request: path %s auth %q model %v stream %v", s.paths[0], s.auth[0], body["model"], body["stream"])
	}
	msgs := messagesOf(t, body)
	if len(msgs) != 2 || msgs[0].role != "user" || msgs[1].role != "user" {
		t.Fatalf("messages %+v", msgs)
	}
	env := "<environment_context>\n  <cwd>" + f.dir + "</cwd>\n  <shell>zsh</shell>\n  <current_date>2026-05-04</current_date>\n  <timezone>Europe/Paris</timezone>\n</environment_context>"
	wantCtx := []string{
		env,
		"# AGENTS.md instructions for " + f.dir + "\n\n<INSTRUCTIONS>\nUse tabs.\nRun go test.\n</INSTRUCTIONS>",
		"<skill>\n<name>review</name>\n<path>" + filepath.Join(f.dir, ".agents/skills/review/SKILL.md") + "</path>\n---\nname: review\n---\nReview carefully.\n</skill>",
		"<skill>\n<name>pinchtab</name>\n<path>" + filepath.Join(f.home, ".agents/skills/pinch-folder/SKILL.md") + "</path>\n---\nname: \"pinchtab\"\ndescription: x\n---\nPinch tabs.\n</skill>",
	}
	if strings.Join(msgs[0].texts, "\x00") != strings.Join(wantCtx, "\x00") || len(msgs[0].images) != 0 {
		t.Fatalf("contextual user message:\n%q\nwant\n%q", msgs[0].texts, wantCtx)
	}
	// The user's message: words, then the envelope, then the image.
	reg := fragment.Standard()
	user := msgs[1]
	if len(user.texts) != 3 || user.texts[0]+"\n\n"+user.texts[1] != f.turn.Prompt {
		t.Fatalf("user parts %q", user.texts)
	}
	// notes.txt has no bytes here: a notice in its place, after the text.
	if k, ok := reg.Claim(user.texts[2]); !ok || k != fragment.AttachedFileKind || !strings.Contains(user.texts[2], "not available") {
		t.Fatalf("notice %q", user.texts[2])
	}
	if _, ok := reg.Claim(user.texts[0]); ok || !strings.HasPrefix(user.texts[0], "Use [Skill: $review; ref=ctx_s]") {
		t.Fatalf("words %q", user.texts[0])
	}
	if k, ok := reg.Claim(user.texts[1]); !ok || k != fragment.T3ContextKind {
		t.Fatalf("envelope %q", user.texts[1])
	}
	if len(user.images) != 1 || user.images[0] != "data:image/png;base64,"+base64.StdEncoding.EncodeToString(f.png) {
		t.Fatalf("images %q", user.images)
	}
}

func TestOpenAIThreadHistoryAndAbort(t *testing.T) {
	f := newOpenAIFixture(t)
	s := newChatServer(t, "first ", "reply")
	o := f.backend(s)
	if err := o.stream(context.Background(), f.turn, func(string) {}); err != nil {
		t.Fatal(err)
	}
	// Second turn: the fragments are fresh at the head, the history has
	// the user's words (and envelope) and the reply, and no stale fragment.
	s.mu.Lock()
	s.reply, s.hang = []string{"partial", " never"}, true
	s.mu.Unlock()
	f.env["SHELL"] = "/bin/bash"
	second := Prepare("plain question", nil, nil)
	second.Dir, second.ThreadID = f.dir, "th1"
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	var c collect
	go func() {
		done <- o.stream(ctx, second, func(d string) { c.emit(d); cancel() })
	}()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("err %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Stream did not return after cancel")
	}
	if c.text() != "partial" {
		t.Fatalf("got %q", c.text())
	}
	msgs := messagesOf(t, s.request(1))
	roles := []string{}
	for _, m := range msgs {
		roles = append(roles, m.role)
	}
	if strings.Join(roles, ",") != "user,user,assistant,user" {
		t.Fatalf("roles %v", roles)
	}
	// Fresh environment; the skills of the first message are still
	// referenced by the thread, so their instructions are still sent.
	if !strings.Contains(msgs[0].texts[0], "<shell>bash</shell>") || len(msgs[0].texts) != 4 ||
		!strings.HasPrefix(msgs[0].texts[2], "<skill>\n<name>review</name>") {
		t.Fatalf("fresh fragments %q", msgs[0].texts)
	}
	// The first message keeps its payload: the notice and the image.
	if len(msgs[1].texts) != 3 || msgs[1].texts[0]+"\n\n"+msgs[1].texts[1] != f.turn.Prompt || len(msgs[1].images) != 1 {
		t.Fatalf("history user %q, %d images", msgs[1].texts, len(msgs[1].images))
	}
	if msgs[2].texts[0] != "first reply" || !msgs[3].plain || msgs[3].texts[0] != "plain question" {
		t.Fatalf("history %+v", msgs[2:])
	}
	// Third turn: the cancel is told with a turn_aborted fragment, and the
	// partial reply is in the history.
	s.mu.Lock()
	s.reply, s.hang = []string{"ok"}, false
	s.mu.Unlock()
	third := Prepare("go on", nil, nil)
	third.Dir, third.ThreadID = f.dir, "th1"
	if err := o.stream(context.Background(), third, func(string) {}); err != nil {
		t.Fatal(err)
	}
	// The notice sits right after the turn it marks, not at the top.
	msgs = messagesOf(t, s.request(2))
	for _, p := range msgs[0].texts {
		if fragment.TurnAbortedKind.Matches(p) {
			t.Fatalf("turn_aborted in the head: %q", msgs[0].texts)
		}
	}
	if len(msgs) != 7 || msgs[3].texts[0] != "plain question" || msgs[4].role != "assistant" || msgs[4].texts[0] != "partial" ||
		!fragment.TurnAbortedKind.Matches(msgs[5].texts[0]) || msgs[5].role != "user" || msgs[6].texts[0] != "go on" {
		t.Fatalf("history after cancel: %+v", msgs)
	}
	// Another thread starts clean.
	other := Prepare("hi", nil, nil)
	other.ThreadID = "th2"
	if err := o.stream(context.Background(), other, func(string) {}); err != nil {
		t.Fatal(err)
	}
	if msgs := messagesOf(t, s.request(3)); len(msgs) != 2 {
		t.Fatalf("th2: %+v", msgs)
	}
}

func TestOpenAIErrorsAndKey(t *testing.T) {
	f := newOpenAIFixture(t)
	s := newChatServer(t)
	s.fail = http.StatusUnauthorized
	o := f.backend(s)
	err := o.stream(context.Background(), Turn{Prompt: "hi"}, func(string) {})
	if err == nil || !strings.Contains(err.Error(), "401") || !strings.HasPrefix(err.Error(), "openai: ") {
		t.Fatalf("err %v", err)
	}
	// No key anywhere: no Authorization header at all.
	s.fail = 0
	delete(f.env, "OPENAI_API_KEY")
	if err := o.stream(context.Background(), Turn{Prompt: "hi"}, func(string) {}); err != nil {
		t.Fatal(err)
	}
	if s.auth[1] != "" {
		t.Fatalf("auth %q", s.auth[1])
	}
	o.APIKey = "sk-config"
	_ = o.stream(context.Background(), Turn{Prompt: "hi"}, func(string) {})
	if s.auth[2] != "Bearer sk-config" {
		t.Fatalf("auth %q", s.auth[2])
	}
	// Pre-cancelled: no request.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := o.stream(ctx, Turn{Prompt: "hi"}, func(string) {}); !errors.Is(err, context.Canceled) || len(s.bodies) != 3 {
		t.Fatalf("pre-cancelled: %v", err)
	}
	if o.Name() != "openai:test-model" {
		t.Fatal(o.Name())
	}
}

func TestOpenAIWithoutDirOrKnownFiles(t *testing.T) {
	o := &OpenAI{Model: "m", Getenv: func(string) string { return "" }, Now: func() time.Time { return time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC) }}
	msgs, err := o.Messages(Turn{Prompt: "hi", Text: "hi"})
	if err != nil || len(msgs) != 2 {
		t.Fatalf("%v %+v", err, msgs)
	}
	env := msgs[0].Parts[0]
	if len(msgs[0].Parts) != 1 || !strings.Contains(env, "<current_date>2026-01-02</current_date>") ||
		!strings.Contains(env, "<timezone>UTC</timezone>") || strings.Contains(env, "<shell>") {
		t.Fatalf("env %q", env)
	}
}

func TestNewSpecs(t *testing.T) {
	b, err := New("exec: cat -n ")
	if e, ok := b.(Exec); err != nil || !ok || e.Command != "cat -n" {
		t.Fatalf("exec: %#v %v", b, err)
	}
	if b, err := New("EXEC:cat"); err != nil || b.Name() != "exec:cat" {
		t.Fatalf("EXEC: %v %v", b, err)
	}
	b, err = New("openai:http://localhost:11434/v1#llama3.2:3b")
	if o, ok := b.(*OpenAI); err != nil || !ok || o.BaseURL != "http://localhost:11434/v1" || o.Model != "llama3.2:3b" {
		t.Fatalf("openai: %#v %v", b, err)
	}
	for spec, want := range map[string]string{
		"exec:":                   "no command",
		"exec:   ":                "no command",
		"openai:http://x/v1":      "no model",
		"openai:http://x/v1#":     "no model",
		"openai:http://x/v1#  ":   "no model",
		"openai:localhost:8080#m": "must start with http:// or https://",
		"openai:#m":               "must start with http:// or https://",
		"openai:http:///v1#m":     "has no host",
		"openai:http://a b/#m":    "base URL",
		"nope:x":                  "unknown agent",
	} {
		_, err := New(spec)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("New(%q) = %v, want an error with %q", spec, err, want)
		}
	}
}

func TestFrontMatterName(t *testing.T) {
	for text, want := range map[string]string{
		"---\nname: a\n---\n":                  "a",
		"---\r\nname: 'b c'\r\n---\r\n":        "b c",
		"---\ndescription: x\n---\nname: no\n": "",
		"name: a\n":                            "",
		"---\n  name: indented\n---\n":         "",
	} {
		if got := frontMatterName(text); got != want {
			t.Errorf("frontMatterName(%q) = %q, want %q", text, got, want)
		}
	}
	// A skill name that is a path never leaves the skills folder.
	dir := t.TempDir()
	if _, _, ok := findSkill(dir, "", "../../etc"); ok {
		t.Fatal("path-like skill name resolved")
	}
}

// After a restart the backend has no history of its own: the stored
// conversation the app passes in Turn.History goes before the new message.
func TestOpenAIUsesStoredHistoryAfterRestart(t *testing.T) {
	f := newOpenAIFixture(t)
	s := newChatServer(t, "ok")
	o := f.backend(s)
	if !o.WantsHistory() {
		t.Fatal("the openai harness wants the stored history")
	}
	turn := Prepare("and now?", nil, nil)
	turn.Dir, turn.ThreadID = f.dir, "restarted"
	turn.History = []HistoryMessage{{Role: "user", Text: "first question"}, {Role: "assistant", Text: "first answer"}, {Role: "assistant", Text: " "}}
	if err := o.stream(context.Background(), turn, func(string) {}); err != nil {
		t.Fatal(err)
	}
	msgs := messagesOf(t, s.request(0))
	var tail []string
	for _, m := range msgs[len(msgs)-3:] {
		tail = append(tail, m.role+":"+strings.Join(m.texts, "|"))
	}
	if strings.Join(tail, " / ") != "user:first question / assistant:first answer / user:and now?" {
		t.Fatalf("conversation tail %v", tail)
	}
}

// /compact: the model is asked for a summary (streamed as the reply); then
// the history is the user's words and the summary, the assistant's earlier
// replies and stale fragments gone, the current fragments re-injected.
func TestOpenAICompact(t *testing.T) {
	f := newOpenAIFixture(t)
	s := newChatServer(t, "first answer")
	o := f.backend(s)
	first := Prepare("question one", nil, nil)
	first.Dir, first.ThreadID = f.dir, "th"
	if err := o.stream(context.Background(), first, func(string) {}); err != nil {
		t.Fatal(err)
	}
	s.mu.Lock()
	s.reply = []string{"SUMMARY: asked one."}
	s.mu.Unlock()
	compact := Prepare(CompactCommand, nil, nil)
	compact.Dir, compact.ThreadID, compact.Compact = f.dir, "th", true
	var got strings.Builder
	if err := o.stream(context.Background(), compact, func(d string) { got.WriteString(d) }); err != nil {
		t.Fatal(err)
	}
	if got.String() != "SUMMARY: asked one." {
		t.Fatalf("the summary is the reply: %q", got.String())
	}
	req := messagesOf(t, s.request(1))
	if last := req[len(req)-1]; last.role != "user" || last.texts[0] != CompactInstruction {
		t.Fatalf("the model is asked to summarize: %+v", last)
	}
	s.mu.Lock()
	s.reply = []string{"ok"}
	s.mu.Unlock()
	next := Prepare("question two", nil, nil)
	next.Dir, next.ThreadID = f.dir, "th"
	if err := o.stream(context.Background(), next, func(string) {}); err != nil {
		t.Fatal(err)
	}
	var all []string
	for _, m := range messagesOf(t, s.request(2)) {
		all = append(all, m.role+":"+strings.Join(m.texts, "|"))
	}
	joined := strings.Join(all, "\n")
	if strings.Contains(joined, "first answer") || !strings.Contains(joined, "question one") ||
		!strings.Contains(joined, "<conversation_summary>\nSUMMARY: asked one.\n</conversation_summary>") ||
		!strings.HasSuffix(joined, "user:question two") || strings.Count(joined, "<environment_context>") != 1 {
		t.Fatalf("after compaction the conversation is:\n%s", joined)
	}
}
