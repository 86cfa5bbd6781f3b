//go:build unix

package agent

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
)

// The elicitation tests run a raw JSON-RPC agent (the SDK's agent side
// cannot send a form elicitation with its session: its type drops the
// sessionId), re-executed from the test binary so the real stdio, the line
// reader's renaming and the SDK's request handling are what is tested.
//
// Its prompts:
//
//	[caps]     replies with the elicitation capabilities initialize offered
//	[form]     asks a form (every field kind, a hostile message); replies
//	           with the JSON-RPC response it got
//	[url]      asks a URL elicitation, then sends elicitation/complete
//	[huge]     asks a form of 100,000 properties
//	[badtype]  asks a form whose property title is a number
//	[late]     ends the turn; the next prompt ([report]) asks, for the
//	           ended turn's session and for no session (request-scoped),
//	           and replies with both responses
//	[die]      asks a form, then exits
const acpElicitAgentEnv = "CHIPCHAT_ACP_ELICIT"

func TestACPElicitAgentProcess(t *testing.T) { runAsAgent(acpElicitAgentEnv, runElicitAgent) }

type elicitAgent struct {
	out     sync.Mutex
	mu      sync.Mutex
	waiting map[string]chan json.RawMessage
	n       int
	caps    json.RawMessage
	late    string // the session whose turn ended ([late])
}

func runElicitAgent() {
	a := &elicitAgent{waiting: map[string]chan json.RawMessage{}}
	in := bufio.NewReaderSize(os.Stdin, 1<<20)
	for {
		line, err := in.ReadBytes('\n')
		if len(line) > 0 {
			a.handle(line)
		}
		if err != nil {
			os.Exit(0)
		}
	}
}

func (a *elicitAgent) send(v any) {
	b, _ := json.Marshal(v)
	a.out.Lock()
	os.Stdout.Write(append(b, '\n'))
	a.out.Unlock()
}

// ask sends a request to the client and waits for its whole response.
func (a *elicitAgent) ask(method string, params any) json.RawMessage {
	a.mu.Lock()
	a.n++
	id := fmt.Sprintf("e%d", a.n)
	ch := make(chan json.RawMessage, 1)
	a.waiting[id] = ch
	a.mu.Unlock()
	a.send(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	return <-ch
}

func (a *elicitAgent) handle(line []byte) {
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params json.RawMessage `json:"params"`
	}
	if json.Unmarshal(line, &m) != nil {
		return
	}
	if m.Method == "" { // a response
		var id string
		_ = json.Unmarshal(m.ID, &id)
		a.mu.Lock()
		ch := a.waiting[id]
		delete(a.waiting, id)
		a.mu.Unlock()
		if ch != nil {
			ch <- append(json.RawMessage(nil), line...)
		}
		return
	}
	reply := func(result any) { a.send(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": result}) }
	switch m.Method {
	case "initialize":
		var p struct {
			Caps struct {
				Elicitation json.RawMessage `json:"elicitation"`
			} `json:"clientCapabilities"`
		}
		_ = json.Unmarshal(m.Params, &p)
		a.caps = p.Caps.Elicitation
		reply(map[string]any{"protocolVersion": 1, "agentCapabilities": map[string]any{}, "authMethods": []any{}})
	case "session/new":
		a.mu.Lock()
		a.n++
		sid := fmt.Sprintf("s%d", a.n)
		a.mu.Unlock()
		reply(map[string]any{"sessionId": sid})
	case "session/prompt":
		var p struct {
			SessionID string `json:"sessionId"`
			Prompt    []struct {
				Text string `json:"text"`
			} `json:"prompt"`
		}
		_ = json.Unmarshal(m.Params, &p)
		text := ""
		if len(p.Prompt) > 0 {
			text = p.Prompt[0].Text
		}
		go a.prompt(p.SessionID, text, reply)
	}
}

func elicitForm(sid string) map[string]any {
	return map[string]any{"sessionId": sid, "mode": "form", "message": "\x1b[31mWho are you?\x1b]0;pwned\x07",
		"requestedSchema": map[string]any{"type": "object", "title": "Profile",
			"properties": json.RawMessage(`{"name":{"type":"string","title":"Your name","minLength":2},` +
				`"age":{"type":"integer","minimum":18,"default":30},` +
				`"color":{"type":"string","oneOf":[{"const":"r","title":"Red"},{"const":"g","title":"Green"}]},` +
				`"agree":{"type":"boolean","default":true},` +
				`"tags":{"type":"array","items":{"type":"string","enum":["a","b","c"]},"default":["b"]}}`),
			"required": []string{"name", "color"}}}
}

func (a *elicitAgent) prompt(sid, text string, reply func(any)) {
	say := func(s string) {
		a.send(map[string]any{"jsonrpc": "2.0", "method": "session/update", "params": map[string]any{"sessionId": sid,
			"update": map[string]any{"sessionUpdate": "agent_message_chunk", "content": map[string]any{"type": "text", "text": s}}}})
	}
	done := func() { reply(map[string]any{"stopReason": "end_turn"}) }
	switch {
	case strings.Contains(text, "[caps]"):
		say(string(a.caps))
	case strings.Contains(text, "[form]"):
		say(string(a.ask("elicitation/create", elicitForm(sid))))
	case strings.Contains(text, "[url]"):
		resp := a.ask("elicitation/create", map[string]any{"sessionId": sid, "mode": "url", "elicitationId": "u1",
			"url": "https://example.com/device?code=AB-12", "message": "Sign in with the code AB-12"})
		a.send(map[string]any{"jsonrpc": "2.0", "method": "elicitation/complete", "params": map[string]any{"elicitationId": "u1"}})
		say(string(resp))
	case strings.Contains(text, "[huge]"):
		var b strings.Builder
		b.WriteString("{")
		for i := range 100000 {
			if i > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, `"f%d":{"type":"string","title":"%s"}`, i, strings.Repeat("x", 40))
		}
		b.WriteString("}")
		say(string(a.ask("elicitation/create", map[string]any{"sessionId": sid, "mode": "form", "message": "huge",
			"requestedSchema": map[string]any{"properties": json.RawMessage(b.String())}})))
	case strings.Contains(text, "[badtype]"):
		say(string(a.ask("elicitation/create", map[string]any{"sessionId": sid, "mode": "form", "message": "bad",
			"requestedSchema": map[string]any{"properties": json.RawMessage(`{"a":{"type":"string","title":5}}`)}})))
	case strings.Contains(text, "[late]"):
		a.mu.Lock()
		a.late = sid
		a.mu.Unlock()
	case strings.Contains(text, "[report]"):
		a.mu.Lock()
		late := a.late
		a.mu.Unlock()
		f := elicitForm(late)
		r1 := a.ask("elicitation/create", f)
		delete(f, "sessionId")
		f["requestId"] = 7
		r2 := a.ask("elicitation/create", f)
		say(string(r1) + "\n" + string(r2))
	case strings.Contains(text, "[die]"):
		a.send(map[string]any{"jsonrpc": "2.0", "id": "d1", "method": "elicitation/create", "params": elicitForm(sid)})
		os.Stdout.Sync()
		os.Exit(3)
	}
	done()
}

// elicitRun runs one turn on the raw agent; answer answers its elicitations.
func elicitRun(t *testing.T, a *ACP, thread, prompt string, answer func(Elicitation) ElicitAnswer) ([]Event, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var evs []Event
	err := a.Run(ctx, Turn{ThreadID: thread, Prompt: prompt, Dir: t.TempDir()}, func(e Event) {
		evs = append(evs, e)
		if el, ok := e.(Elicitation); ok && answer != nil {
			el.Reply <- answer(el)
		}
	})
	return evs, err
}

func newElicitACP(t *testing.T) *ACP {
	return newSelfACP(t, "TestACPElicitAgentProcess", ACPOptions{Env: []string{acpElicitAgentEnv + "=1"}})
}

func TestACPElicitationForm(t *testing.T) {
	a := newElicitACP(t)
	evs, err := elicitRun(t, a, "a", "[caps]", nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := acpText(evs); got != `{"form":{},"url":{}}` {
		t.Errorf("elicitation capabilities = %s", got)
	}

	var asked []ElicitRequest
	var errsBefore []error
	evs, err = elicitRun(t, a, "a", "[form]", func(e Elicitation) ElicitAnswer {
		asked = append(asked, e.Request)
		f := e.Request.Form
		ins := f.Inputs()
		_, errsBefore, _ = f.Content(ins) // the defaults leave name and color empty
		ins[0].Text = "Ada"
		ins[2].Picked = []int{1}
		ins[4].Picked = []int{0, 2}
		content, errs, ok := f.Content(ins)
		if !ok {
			t.Errorf("filled form invalid: %v", errs)
		}
		return ElicitAnswer{Action: "accept", Content: content}
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(asked) != 1 {
		t.Fatalf("%d elicitations, want 1", len(asked))
	}
	r := asked[0]
	if r.Mode != "form" || r.SessionID == "" || r.Form.Title != "Profile" || !strings.Contains(r.Message, "Who are you?") {
		t.Errorf("request = %+v", r)
	}
	var shape []string
	for _, f := range r.Form.Fields {
		shape = append(shape, fmt.Sprintf("%s:%s:%s:%v", f.Name, f.Kind, f.Title, f.Required))
	}
	want := "name:text:Your name:true age:integer:age:false color:choice:color:true agree:boolean:agree:false tags:multi:tags:false"
	if got := strings.Join(shape, " "); got != want {
		t.Errorf("fields (in the agent's order) =\n %s\nwant\n %s", got, want)
	}
	if errsBefore[0] == nil || errsBefore[2] == nil || errsBefore[1] != nil {
		t.Errorf("defaults validated as %v", errsBefore)
	}
	var resp struct {
		Result struct {
			Action  string         `json:"action"`
			Content map[string]any `json:"content"`
		} `json:"result"`
	}
	if err := json.Unmarshal([]byte(acpText(evs)), &resp); err != nil {
		t.Fatalf("the agent got %q: %v", acpText(evs), err)
	}
	c := resp.Result.Content
	if resp.Result.Action != "accept" || c["name"] != "Ada" || c["age"] != float64(30) || c["color"] != "g" || c["agree"] != true ||
		fmt.Sprint(c["tags"]) != "[a c]" {
		t.Errorf("the agent got %s", acpText(evs))
	}

	// Decline and cancel reach the agent as such, without content.
	for _, action := range []string{"decline", "cancel"} {
		evs, err = elicitRun(t, a, "a", "[form]", func(Elicitation) ElicitAnswer { return ElicitAnswer{Action: action} })
		if err != nil {
			t.Fatal(err)
		}
		if got := acpText(evs); !strings.Contains(got, `"result":{"action":"`+action+`"}`) {
			t.Errorf("%s: the agent got %s", action, got)
		}
	}
}

func TestACPElicitationURL(t *testing.T) {
	a := newElicitACP(t)
	var asked []ElicitRequest
	evs, err := elicitRun(t, a, "a", "[url]", func(e Elicitation) ElicitAnswer {
		asked = append(asked, e.Request)
		return ElicitAnswer{Action: "accept"}
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(asked) != 1 || asked[0].Mode != "url" || asked[0].URL != "https://example.com/device?code=AB-12" || asked[0].ElicitationID != "u1" {
		t.Fatalf("asked %+v", asked)
	}
	if got := acpText(evs); !strings.Contains(got, `"result":{"action":"accept"}`) {
		t.Errorf("the agent got %s", got)
	}
	if d := acpOf[ElicitationDone](evs); len(d) != 1 || d[0].ElicitationID != "u1" {
		t.Errorf("completions %+v", d)
	}
}

// Hostile requests: refused with an error the agent gets, the user told;
// nothing is asked.
func TestACPElicitationRefused(t *testing.T) {
	a := newElicitACP(t)
	for _, prompt := range []string{"[huge]", "[badtype]"} {
		evs, err := elicitRun(t, a, "a", prompt, func(Elicitation) ElicitAnswer {
			t.Errorf("%s: asked the user", prompt)
			return ElicitAnswer{Action: "cancel"}
		})
		if err != nil {
			t.Fatal(err)
		}
		if got := acpText(evs); !strings.Contains(got, `"error"`) || !strings.Contains(got, "-32602") {
			t.Errorf("%s: the agent got %.300s", prompt, got)
		}
		var told bool
		for _, n := range acpOf[Notice](evs) {
			told = told || strings.Contains(n.Text, "chipchat cannot show")
		}
		if !told {
			t.Errorf("%s: no notice in %v", prompt, acpOf[Notice](evs))
		}
	}
}

// A request for a session whose turn ended, and one for no session, are
// cancelled without asking.
func TestACPElicitationAfterTheTurn(t *testing.T) {
	a := newElicitACP(t)
	if _, err := elicitRun(t, a, "a", "[late]", nil); err != nil {
		t.Fatal(err)
	}
	evs, err := elicitRun(t, a, "b", "[report]", func(e Elicitation) ElicitAnswer {
		t.Errorf("asked the user %+v", e.Request)
		return ElicitAnswer{Action: "accept"}
	})
	if err != nil {
		t.Fatal(err)
	}
	got := acpText(evs)
	if strings.Count(got, `"result":{"action":"cancel"}`) != 2 {
		t.Errorf("the agent got %s", got)
	}
}

// The agent dies while asking: the turn fails, the question was shown, an
// answer given afterwards goes nowhere and blocks nothing.
func TestACPElicitationAgentDies(t *testing.T) {
	a := newElicitACP(t)
	var asked []Elicitation
	_, err := elicitRun(t, a, "a", "[die]", func(e Elicitation) ElicitAnswer {
		asked = append(asked, e)
		return ElicitAnswer{Action: "cancel"}
	})
	var ae *Error
	if !errors.As(err, &ae) {
		t.Fatalf("err = %v, want the agent's death", err)
	}
	for _, e := range asked {
		select {
		case e.Reply <- ElicitAnswer{Action: "accept"}:
		default:
		}
	}
	// The next turn starts a new agent.
	if evs, err := elicitRun(t, a, "a", "[caps]", nil); err != nil || acpText(evs) == "" {
		t.Fatalf("after the death: %v %v", evs, err)
	}
}
