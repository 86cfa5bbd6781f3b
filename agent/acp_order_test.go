//go:build unix

package agent

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/chipchat/chipchat/message"
)

func TestACPPermissionComesAfterTheToolCallBeforeIt(t *testing.T) {
	// The agent writes a tool_call with a diff and, in the same write,
	// session/request_permission naming that call without content: the
	// SDK runs the request at once, so without chipchat's own reader the
	// prompt would often lack the diff. 200 of 200 must have it.
	const n = 200
	h := newFloodHarness(t, ACPOptions{})
	var asked []Permission
	h.answer = func(p Permission) PermissionAnswer {
		asked = append(asked, p)
		return PermissionAnswer{OptionID: "ok", Outcome: "selected"}
	}
	evs, err := h.run(fmt.Sprintf("order %d", n))
	if err != nil {
		t.Fatal(err)
	}
	if len(asked) != n {
		t.Fatalf("%d permission events, want %d", len(asked), n)
	}
	withDiff := 0
	for i, p := range asked {
		id := fmt.Sprintf("t%d", i+1)
		want := fmt.Sprintf("new %d\n", i+1)
		if p.Request.ToolCallID == id && p.Tool.Title == fmt.Sprintf("Edit f%d.txt", i+1) && p.Tool.Kind == "edit" &&
			len(p.Tool.Content) == 1 && p.Tool.Content[0].Type == message.ContentDiff && p.Tool.Content[0].NewText == want {
			withDiff++
		} else if withDiff == i {
			t.Errorf("permission %d: request %+v, tool %+v", i+1, p.Request, p.Tool)
		}
	}
	if withDiff != n {
		t.Errorf("the diff was on %d of %d prompts", withDiff, n)
	}
	// Every item shows its diff and ends completed.
	tools := acpFoldTools(evs)
	for i := 1; i <= n; i++ {
		tool := tools[fmt.Sprintf("t%d", i)]
		if tool.Status != message.ToolCompleted || len(tool.Content) != 1 || tool.Content[0].Type != message.ContentDiff {
			t.Fatalf("item t%d = %+v", i, tool)
		}
	}
	// Each Permission comes after its call's ToolCall.
	seen := map[string]bool{}
	for _, e := range evs {
		switch e := e.(type) {
		case ToolCall:
			seen[e.Tool.CallID] = true
		case Permission:
			if !seen[e.Request.ToolCallID] {
				t.Fatalf("the Permission for %s came before its ToolCall", e.Request.ToolCallID)
			}
		}
	}
}

func TestACPReaderMarksBoundTheSDKQueue(t *testing.T) {
	// The test is the SDK: a receiver reads every line the reader hands
	// over at once (into an unbounded queue, as the SDK's receive loop
	// does), a processor applies them in order, slowly or not. However
	// far the processor lags, the queue never holds more than the bound,
	// and a request is received only once every mark before it has been
	// applied.
	src, agentOut := io.Pipe()
	l := newACPReader(src)
	go l.run()
	const notes = 5000
	go func() {
		note := []byte(`{"jsonrpc":"2.0","method":"session/update","params":{}}` + "\n")
		for i := 0; i < notes; i++ {
			agentOut.Write(note)
		}
		agentOut.Write([]byte(`{"jsonrpc":"2.0","id":7,"method":"session/request_permission","params":{}}` + "\n"))
		for i := 0; i < 10; i++ {
			agentOut.Write(note)
		}
		agentOut.Close()
	}()
	type line struct {
		kind   string
		params json.RawMessage
		marks  int    // marks received before it
		ok     uint64 // marks applied when it was received
	}
	queue := make(chan line, 100_000)
	var queued atomic.Int64
	go func() {
		defer close(queue)
		dec := json.NewDecoder(l.out)
		marks := 0
		for {
			var m struct {
				ID     json.RawMessage
				Method string
				Params json.RawMessage
			}
			if dec.Decode(&m) != nil {
				return
			}
			ln := line{kind: "note", params: m.Params, marks: marks}
			switch {
			case m.Method == acpMarkMethod:
				ln.kind = "mark"
				marks++
			case m.ID != nil:
				ln.kind = "request"
				l.mu.Lock()
				ln.ok = l.applied
				l.mu.Unlock()
			}
			queued.Add(1)
			queue <- ln
		}
	}()
	bound := int64((acpMarksAhead + 1) * (acpMarkEvery + 1))
	seen, requests, peak := 0, 0, int64(0)
	for ln := range queue {
		peak = max(peak, queued.Add(-1)+1)
		switch ln.kind {
		case "note":
			seen++
		case "mark":
			l.applyMark(ln.params)
		case "request":
			requests++
			if ln.ok != uint64(ln.marks) {
				t.Errorf("the request was handed over with %d of the %d marks before it applied", ln.ok, ln.marks)
			}
		}
	}
	if peak > bound {
		t.Errorf("%d lines waited in the SDK's queue, over the bound %d", peak, bound)
	}
	if seen != notes+10 || requests != 1 {
		t.Errorf("%d notifications and %d requests passed, want %d and 1", seen, requests, notes+10)
	}
	// A forged mark (another token) is ignored.
	l.mu.Lock()
	before := l.applied
	l.mu.Unlock()
	l.applyMark(json.RawMessage(`{"token":"x","n":1000}`))
	l.mu.Lock()
	if l.applied != before {
		t.Errorf("a mark with another token was applied")
	}
	l.mu.Unlock()
}

func TestACPIsRequest(t *testing.T) {
	for _, c := range []struct {
		line string
		want bool
	}{
		{`{"jsonrpc":"2.0","id":1,"method":"session/request_permission","params":{}}`, true},
		{`{"method":"fs/read_text_file","params":{"a":"}\"id\":1"},"id":"x"}`, true},
		{`  {"ID":1,"Method":"x"}`, true}, // encoding/json matches names without case
		{`{"jsonrpc":"2.0","method":"session/update","params":{"id":1}}`, false},
		{`{"jsonrpc":"2.0","id":null,"method":"session/update"}`, false},
		{`{"jsonrpc":"2.0","id":3,"result":{"method":"x"}}`, false},
		{`{"id":1,"method":""}`, false},
		{`{"id":1,"id":null,"method":"m"}`, false}, // the last member wins
		{`{"\u0069d":1,"method":"m"}`, true},
		{`not json`, false},
		{`{"id":1,"method":"m"`, false},
		{`[{"id":1,"method":"m"}]`, false},
	} {
		if got := acpIsRequest([]byte(c.line)); got != c.want {
			t.Errorf("acpIsRequest(%s) = %v, want %v", c.line, got, c.want)
		}
	}
}

// FuzzACPIsRequest checks the reader's quick look against encoding/json's
// reading of the SDK's message: whenever the SDK would run a line as a
// request, the reader saw a request (so it waited for the notifications
// before it).
func FuzzACPIsRequest(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"session/request_permission","params":{"x":[1,{"y":"\\\""}]}}`,
		`{"method":"a","params":"}","id":2}`, `{"id":null,"method":"x"}`, `{"Id":"q","METHOD":"x"}`, `{"id":{},"method":"m"}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		var m struct {
			ID     *json.RawMessage `json:"id,omitempty"`
			Method string           `json:"method,omitempty"`
			Params json.RawMessage  `json:"params,omitempty"`
			Result json.RawMessage  `json:"result,omitempty"`
		}
		if json.Unmarshal([]byte(line), &m) != nil || strings.ContainsRune(line, '\n') {
			return
		}
		sdkRequest := m.ID != nil && m.Method != ""
		if got := acpIsRequest([]byte(line)); got != sdkRequest {
			t.Errorf("acpIsRequest(%q) = %v, the SDK reads a request: %v", line, got, sdkRequest)
		}
	})
}
