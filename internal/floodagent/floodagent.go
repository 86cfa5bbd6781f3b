// Package floodagent is a misbehaving ACP agent for chipchat's tests: it
// speaks raw JSON-RPC lines on stdio (no SDK, so nothing paces it) and does
// what its prompt's first words say, as fast as it can. Tests run it as a
// re-exec of their own binary: a helper test calls Main when Env is set.
//
//	flood N        N agent_message_chunk notifications ("c1;", "c2;", …),
//	               written back to back, then the prompt's answer
//	paragraphs N K N chunks as flood does, with a blank line after every
//	               K-th ("c1;…cK;\n\n"): a reply of N/K paragraphs
//	mixed N        N chunks as flood does, every third with a _meta
//	               member (one chipchat's own decoding leaves to the SDK)
//	order N        N times: a tool_call (an edit of fI.txt with a diff) and
//	               session/request_permission for it (no content of its
//	               own) in one write, then the answer is awaited
//	big N          one tool_call whose content is N bytes of text
//	line N         one agent_message_chunk whose line is exactly N bytes
//	               (newline excluded), then "after"
//	grow N M       N tool_call_updates of one call, the k-th resending
//	               content of k·M/N bytes (ACP's replace-content pattern)
//	replay FILE    FILE's recorded updates (JSON lines {"update": …} and
//	               {"permission": …}), each permission request awaited
//	ask FILE       replay FILE, saying after each permission request what
//	               the client answered ("answered: " and the result's JSON,
//	               a text chunk)
//	closeout       prints a line that is not JSON, closes its stdout and
//	               waits (alive) for stdin to end
//	hang           answers nothing more
//
// It writes its pid to $FLOODAGENT_PIDFILE when that is set, and answers
// initialize, session/new and session/cancel like any agent.
package floodagent

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
)

type msg struct {
	ID     json.RawMessage `json:"id,omitempty"`
	Method string          `json:"method,omitempty"`
	Params json.RawMessage `json:"params,omitempty"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  json.RawMessage `json:"error,omitempty"`
}

type agent struct {
	mu  sync.Mutex
	out *bufio.Writer

	pmu     sync.Mutex
	pending map[string]chan json.RawMessage // our request id → its result
	nextID  int
}

// Env, set to "1", makes a test binary's helper run Main.
const Env = "CHIPCHAT_FLOODAGENT"

// Main is the agent on os.Stdin and os.Stdout; it returns when stdin ends.
func Main() {
	if f := os.Getenv("FLOODAGENT_PIDFILE"); f != "" {
		_ = os.WriteFile(f, []byte(strconv.Itoa(os.Getpid())), 0o644)
	}
	a := &agent{out: bufio.NewWriterSize(os.Stdout, 256<<10), pending: map[string]chan json.RawMessage{}}
	in := bufio.NewReaderSize(os.Stdin, 1<<20)
	for {
		line, err := in.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			var m msg
			if json.Unmarshal(line, &m) == nil {
				a.handle(m)
			}
		}
		if err != nil {
			return
		}
	}
}

// write writes lines and flushes them.
func (a *agent) write(lines ...[]byte) {
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, l := range lines {
		a.out.Write(l)
		a.out.WriteByte('\n')
	}
	a.out.Flush()
}

// writeParts writes one line made of parts, and flushes it.
func (a *agent) writeParts(parts ...[]byte) {
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, p := range parts {
		a.out.Write(p)
	}
	a.out.WriteByte('\n')
	a.out.Flush()
}

func line(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

func (a *agent) result(id json.RawMessage, v any) {
	a.write(line(map[string]any{"jsonrpc": "2.0", "id": id, "result": v}))
}

func (a *agent) handle(m msg) {
	switch {
	case m.Method == "" && m.ID != nil:
		a.pmu.Lock()
		ch := a.pending[string(m.ID)]
		delete(a.pending, string(m.ID))
		a.pmu.Unlock()
		if ch != nil {
			ch <- m.Result
		}
	case m.Method == "initialize":
		a.result(m.ID, map[string]any{"protocolVersion": 1, "agentCapabilities": map[string]any{},
			"agentInfo": map[string]any{"name": "floodagent", "version": "1"}, "authMethods": []any{}})
	case m.Method == "session/new":
		a.result(m.ID, map[string]any{"sessionId": "s1"})
	case m.Method == "session/prompt":
		go a.prompt(m)
	case m.ID != nil:
		a.write(line(map[string]any{"jsonrpc": "2.0", "id": m.ID, "error": map[string]any{"code": -32601, "message": "method not found"}}))
	}
}

// request sends a request and waits for its result.
func (a *agent) request(method string, params any) json.RawMessage {
	req, ch := a.newRequest(method, params)
	a.write(req)
	return <-ch
}

// newRequest is a request's line, not yet written, and the channel its
// result will come on.
func (a *agent) newRequest(method string, params any) ([]byte, <-chan json.RawMessage) {
	a.pmu.Lock()
	a.nextID++
	id := strconv.Itoa(a.nextID)
	ch := make(chan json.RawMessage, 1)
	a.pending[id] = ch
	a.pmu.Unlock()
	return line(map[string]any{"jsonrpc": "2.0", "id": json.RawMessage(id), "method": method, "params": params}), ch
}

func update(u any) []byte {
	return line(map[string]any{"jsonrpc": "2.0", "method": "session/update", "params": map[string]any{"sessionId": "s1", "update": u}})
}

func chunk(text string) []byte {
	return update(map[string]any{"sessionUpdate": "agent_message_chunk", "content": map[string]any{"type": "text", "text": text}})
}

func (a *agent) prompt(m msg) {
	var p struct {
		Prompt []struct {
			Text string `json:"text"`
		} `json:"prompt"`
	}
	_ = json.Unmarshal(m.Params, &p)
	text := ""
	if len(p.Prompt) > 0 {
		text = p.Prompt[0].Text
	}
	f := strings.Fields(text)
	arg := func(i int) int {
		if i < len(f) {
			n, _ := strconv.Atoi(f[i])
			return n
		}
		return 0
	}
	cmd := ""
	if len(f) > 0 {
		cmd = f[0]
	}
	switch cmd {
	case "flood":
		n := arg(1)
		a.mu.Lock()
		for i := 1; i <= n; i++ {
			a.out.Write(chunk("c" + strconv.Itoa(i) + ";"))
			a.out.WriteByte('\n')
		}
		a.out.Flush()
		a.mu.Unlock()
	case "mixed":
		n := arg(1)
		a.mu.Lock()
		for i := 1; i <= n; i++ {
			u := map[string]any{"sessionUpdate": "agent_message_chunk", "content": map[string]any{"type": "text", "text": "c" + strconv.Itoa(i) + ";"}}
			if i%3 == 0 {
				u["_meta"] = map[string]any{"i": i}
			}
			a.out.Write(update(u))
			a.out.WriteByte('\n')
		}
		a.out.Flush()
		a.mu.Unlock()
	case "paragraphs":
		n, k := arg(1), max(arg(2), 1)
		a.mu.Lock()
		for i := 1; i <= n; i++ {
			text := "c" + strconv.Itoa(i) + ";"
			if i%k == 0 {
				text += "\n\n"
			}
			a.out.Write(chunk(text))
			a.out.WriteByte('\n')
		}
		a.out.Flush()
		a.mu.Unlock()
	case "order":
		for i := 1; i <= arg(1); i++ {
			id := fmt.Sprintf("t%d", i)
			path := fmt.Sprintf("/proj/f%d.txt", i)
			call := update(map[string]any{"sessionUpdate": "tool_call", "toolCallId": id, "title": "Edit f" + strconv.Itoa(i) + ".txt",
				"kind": "edit", "status": "pending",
				"content": []any{map[string]any{"type": "diff", "path": path, "oldText": "old\n", "newText": fmt.Sprintf("new %d\n", i)}}})
			req, ch := a.newRequest("session/request_permission", map[string]any{
				"sessionId": "s1", "toolCall": map[string]any{"toolCallId": id},
				"options": []any{map[string]any{"optionId": "ok", "name": "Allow", "kind": "allow_once"}, map[string]any{"optionId": "no", "name": "Reject", "kind": "reject_once"}}})
			a.write(call, req) // one write: the request right behind the notification
			<-ch
			a.write(update(map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": id, "status": "completed"}))
		}
	case "big":
		a.write(update(map[string]any{"sessionUpdate": "tool_call", "toolCallId": "big", "title": "Big", "status": "in_progress",
			"content": []any{map[string]any{"type": "content", "content": map[string]any{"type": "text", "text": strings.Repeat("x", arg(1))}}}}))
	case "line":
		n := arg(1)
		b := chunk("")
		pad := n - len(b)
		if pad < 0 {
			pad = 0
		}
		a.write(chunk(strings.Repeat("y", pad)), chunk("after"))
	case "grow":
		n, size := arg(1), arg(2)
		// The body (ASCII, nothing to escape) is written between the two
		// halves of the update marshalled around a placeholder: the
		// agent's own cost stays small beside chipchat's, which shares
		// the machine's cores with it (json.Marshal of each 10 MB body
		// cost it 1.4–1.6 s of CPU).
		zs := bytes.Repeat([]byte("z"), max(size-8, 0))
		const hole = "@@BODY@@"
		for k := 1; k <= n; k++ {
			status := "in_progress"
			if k == n {
				status = "completed"
			}
			u := map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": "g", "status": status,
				"content": []any{map[string]any{"type": "content", "content": map[string]any{"type": "text", "text": hole}}}}
			if k == 1 {
				u["sessionUpdate"], u["title"], u["kind"] = "tool_call", "Grow", "execute"
			}
			head, tail, _ := bytes.Cut(update(u), []byte(hole))
			a.writeParts(head, []byte("HEAD"), zs[:max(size*k/n-8, 0)], []byte("TAIL"), tail)
		}
	case "replay", "ask":
		if len(f) > 1 {
			a.replay(f[1], cmd == "ask")
		}
	case "closeout":
		a.mu.Lock()
		a.out.WriteString("this is not JSON\n")
		a.out.Flush()
		os.Stdout.Close()
		a.mu.Unlock()
		select {}
	case "hang":
		select {}
	}
	a.result(m.ID, map[string]any{"stopReason": "end_turn"})
}

func (a *agent) replay(file string, tell bool) {
	data, err := os.ReadFile(file)
	if err != nil {
		a.write(chunk("replay: " + err.Error()))
		return
	}
	for _, l := range bytes.Split(data, []byte("\n")) {
		if len(bytes.TrimSpace(l)) == 0 {
			continue
		}
		var r struct {
			Update     json.RawMessage `json:"update"`
			Permission json.RawMessage `json:"permission"`
		}
		if json.Unmarshal(l, &r) != nil {
			continue
		}
		switch {
		case r.Update != nil:
			a.write(update(r.Update))
		case r.Permission != nil:
			var p map[string]any
			_ = json.Unmarshal(r.Permission, &p)
			p["sessionId"] = "s1"
			res := a.request("session/request_permission", p)
			if tell {
				a.write(chunk("answered: " + string(res) + "\n\n"))
			}
		}
	}
}
