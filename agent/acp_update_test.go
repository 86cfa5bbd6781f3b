package agent

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	acp "github.com/coder/acp-go-sdk"
)

// acpSDKDecode is what the SDK (acp-go-sdk v0.13.0) makes of one line from
// the agent when it is a session/update notification: its receive loop
// (bufio.ScanLines, then a JSON-RPC message) and its client handler
// (SessionNotification, then Validate). ok is false when the SDK would not
// call SessionUpdate with it.
func acpSDKDecode(line []byte) (acp.SessionNotification, bool) {
	line = bytes.TrimSuffix(line, []byte("\n"))
	line = bytes.TrimSuffix(line, []byte("\r"))
	if bytes.IndexByte(line, '\n') >= 0 || len(bytes.TrimSpace(line)) == 0 {
		return acp.SessionNotification{}, false // not one line
	}
	var msg struct { // connection.go's anyMessage
		JSONRPC string            `json:"jsonrpc"`
		ID      *json.RawMessage  `json:"id,omitempty"`
		Method  string            `json:"method,omitempty"`
		Params  json.RawMessage   `json:"params,omitempty"`
		Result  json.RawMessage   `json:"result,omitempty"`
		Error   *acp.RequestError `json:"error,omitempty"`
	}
	if json.Unmarshal(line, &msg) != nil || msg.ID != nil || msg.Method != "session/update" {
		return acp.SessionNotification{}, false
	}
	var n acp.SessionNotification
	if json.Unmarshal(msg.Params, &n) != nil || n.Validate() != nil {
		return acp.SessionNotification{}, false
	}
	return n, true
}

// acpUpdateLine is the notification as an agent (the SDK's own encoder)
// writes it.
func acpUpdateLine(t testing.TB, u acp.SessionUpdate) []byte {
	b, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": "session/update",
		"params": acp.SessionNotification{SessionId: "s1", Update: u}})
	if err != nil {
		t.Fatal(err)
	}
	return append(b, '\n')
}

func acpStrP(s string) *string { return &s }

// acpCommonUpdates are the updates the fast path is for, as agents send
// them.
func acpCommonUpdates() []acp.SessionUpdate {
	status := acp.ToolCallStatusInProgress
	kind := acp.ToolKindEdit
	return []acp.SessionUpdate{
		acp.UpdateAgentMessageText("hello, world"),
		acp.UpdateAgentMessageText("tabs\tnewlines\n \"quotes\" \\ é 日本 😀 <b>&amp;</b> \x7f"),
		acp.UpdateAgentMessageText(""),
		acp.UpdateAgentThoughtText("thinking…"),
		{AgentMessageChunk: &acp.SessionUpdateAgentMessageChunk{SessionUpdate: "agent_message_chunk", MessageId: acpStrP("m-1"),
			Content: acp.TextBlock("with an id")}},
		{ToolCall: &acp.SessionUpdateToolCall{SessionUpdate: "tool_call", ToolCallId: "t1", Title: "Edit a.go", Kind: acp.ToolKindEdit,
			Status: acp.ToolCallStatusPending, Content: []acp.ToolCallContent{
				{Diff: &acp.ToolCallContentDiff{Type: "diff", Path: "/p/a.go", OldText: acpStrP("old\n"), NewText: "new\n"}},
				{Diff: &acp.ToolCallContentDiff{Type: "diff", Path: "/p/b.go", NewText: "created\n"}},
				{Content: &acp.ToolCallContentContent{Type: "content", Content: acp.TextBlock("text out")}},
				{Terminal: &acp.ToolCallContentTerminal{Type: "terminal", TerminalId: "term-1"}},
			}}},
		{ToolCall: &acp.SessionUpdateToolCall{SessionUpdate: "tool_call", ToolCallId: "t2", Title: "Run"}},
		{ToolCallUpdate: &acp.SessionToolCallUpdate{SessionUpdate: "tool_call_update", ToolCallId: "t1", Status: &status}},
		{ToolCallUpdate: &acp.SessionToolCallUpdate{SessionUpdate: "tool_call_update", ToolCallId: "t1", Kind: &kind, Title: acpStrP("Edited"),
			Content: []acp.ToolCallContent{{Content: &acp.ToolCallContentContent{Type: "content", Content: acp.TextBlock(strings.Repeat("z", 1000))}}}}},
	}
}

func TestACPDecodeUpdateAgreesWithTheSDK(t *testing.T) {
	// What agents send is decoded on the fast path, to what the SDK makes
	// of it.
	for _, u := range acpCommonUpdates() {
		line := acpUpdateLine(t, u)
		got, ok := acpDecodeUpdate(line)
		if !ok {
			t.Errorf("not decoded: %s", line)
			continue
		}
		want, wok := acpSDKDecode(line)
		if !wok || !reflect.DeepEqual(got, want) {
			t.Errorf("%s\ndecoded %#v\nthe SDK %#v (ok %v)", line, got, want, wok)
		}
	}
	// Hand-written shapes: member order, spaces, escapes, params before
	// method, an empty content list (which replaces) and CRLF.
	for _, s := range []string{
		`{"method":"session/update","params":{"update":{"content":{"text":"a","type":"text"},"sessionUpdate":"agent_message_chunk"},"sessionId":"s"},"jsonrpc":"2.0"}`,
		` { "jsonrpc" : "2.0" , "params" : { "sessionId" : "s" , "update" : { "sessionUpdate" : "agent_thought_chunk" , "content" : { "type" : "text" , "text" : "b" } } } , "method" : "session/update" } ` + "\r",
		`{"jsonrpc":"2.0","method":"session\/update","params":{"sessionId":"s\u00e9","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"\ud83d\ude00 \ud800 x\u0041\b\f\r\/"}}}}`,
		`{"method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"tool_call_update","toolCallId":"t","content":[]}}}`,
		"{\"method\":\"session/update\",\"params\":{\"sessionId\":\"s\",\"update\":{\"sessionUpdate\":\"agent_message_chunk\",\"content\":{\"type\":\"text\",\"text\":\"bad \xff\xfe utf-8 \xe6\x97\"}}}}",
	} {
		line := []byte(s + "\n")
		got, ok := acpDecodeUpdate(line)
		want, wok := acpSDKDecode(line)
		if !ok || !wok || !reflect.DeepEqual(got, want) {
			t.Errorf("%s\ndecoded %#v (ok %v)\nthe SDK %#v (ok %v)", s, got, ok, want, wok)
		}
	}
	// Everything else goes to the SDK.
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"a"}}}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"a","annotations":{}}}}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","_meta":{},"update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"a"}}}}`,
		`{"jsonrpc":"2.0","Method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"a"}}}}`,
		`{"jsonrpc":"2.0","method":"session/update","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"a"}}}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"plan","entries":[]}}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"tool_call","toolCallId":"t","rawInput":{"a":1}}}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"a"}}}} x`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"image","data":"","mimeType":"x"}}}}`,
		`{"jsonrpc":"2.0","method":"session/prompt","params":{}}`,
		`not json`,
	} {
		if n, ok := acpDecodeUpdate([]byte(s)); ok {
			t.Errorf("decoded %s\nas %#v; it is the SDK's", s, n)
		}
	}
}

// FuzzACPDecodeUpdate: whatever the line, what the fast path decodes is
// what the SDK decodes from it (and the SDK takes it).
func FuzzACPDecodeUpdate(f *testing.F) {
	for _, u := range acpCommonUpdates() {
		f.Add(acpUpdateLine(f, u))
	}
	f.Add([]byte(`{"method":"session/update","params":{"update":{"content":{"text":"a","type":"text"},"sessionUpdate":"agent_message_chunk"},"sessionId":"s"}}`))
	f.Add([]byte(`{"method":"session\/update","params":{"sessionId":"s","update":{"sessionUpdate":"tool_call_update","toolCallId":"t","content":[{"type":"diff","path":"p","newText":"\ud800\udc00"}]}}}`))
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"result":{}}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		got, ok := acpDecodeUpdate(line)
		if !ok {
			return
		}
		want, wok := acpSDKDecode(line)
		if !wok {
			t.Fatalf("decoded %q, which the SDK refuses, as %#v", line, got)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%q\ndecoded %#v\nthe SDK %#v", line, got, want)
		}
	})
}

// FuzzACPDecodeString: a JSON string is decoded exactly as encoding/json
// decodes it, and refused exactly when encoding/json refuses it.
func FuzzACPDecodeString(f *testing.F) {
	for _, s := range []string{`"a"`, `"\u00e9\ud83d\ude00"`, `"\ud800\u0041"`, `"\ud800\ud800"`, "\"\xff\xe6\x97\"", `"\x"`, "\"\x01\"", `"\/\b\f\n\r\t\\\""`, `"\u12"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		d := &acpDec{b: b}
		got, ok := d.str()
		end := -1
		if len(b) > 0 && b[0] == '"' {
			end = acpSkipString(b, 0)
		}
		var want string
		werr := json.Unmarshal(b[:max(end, 0)], &want)
		if end < 0 {
			werr = json.Unmarshal(b, &want)
		}
		if ok != (werr == nil && end >= 0) {
			t.Fatalf("str(%q) ok = %v, encoding/json: %v", b, ok, werr)
		}
		if ok && (got != want || d.i != end) {
			t.Fatalf("str(%q) = %q ending at %d, encoding/json %q ending at %d", b, got, d.i, want, end)
		}
	})
}

// BenchmarkACPDecodeUpdate: a text chunk and a 4 MB tool output, decoded
// by chipchat's fast path and, for reference, the SDK's way.
func BenchmarkACPDecodeUpdate(b *testing.B) {
	status := acp.ToolCallStatusInProgress
	for _, c := range []struct {
		name string
		u    acp.SessionUpdate
	}{
		{"chunk", acp.UpdateAgentMessageText("c12345;")},
		{"tool4MB", acp.SessionUpdate{ToolCallUpdate: &acp.SessionToolCallUpdate{SessionUpdate: "tool_call_update", ToolCallId: "g", Status: &status,
			Content: []acp.ToolCallContent{{Content: &acp.ToolCallContentContent{Type: "content", Content: acp.TextBlock(strings.Repeat("line of output\n", 4<<20/15))}}}}}},
	} {
		line := acpUpdateLine(b, c.u)
		b.Run(c.name+"/chipchat", func(b *testing.B) {
			b.SetBytes(int64(len(line)))
			for b.Loop() {
				if _, ok := acpDecodeUpdate(line); !ok {
					b.Fatal("not decoded")
				}
			}
		})
		b.Run(c.name+"/sdk", func(b *testing.B) {
			b.SetBytes(int64(len(line)))
			for b.Loop() {
				if _, ok := acpSDKDecode(line); !ok {
					b.Fatal("not decoded")
				}
			}
		})
	}
}

// FuzzACPPlainRun: the eight-bytes-at-a-time scan stops where a byte by
// byte one does, from any start.
func FuzzACPPlainRun(f *testing.F) {
	f.Add([]byte(`0123456789abcdef"x`), 0)
	f.Add([]byte("abcdefg\x1fhijklmnop"), 1)
	f.Add([]byte("abcdefgh\\ijklmnop\x80"), 3)
	f.Add([]byte("a ~!#$%&'()*+,-./0123456789:;<=>?@[]^_`{|}\x7f\xc3\xa9"), 0)
	f.Fuzz(func(t *testing.T, b []byte, i int) {
		if i < 0 || i > len(b) {
			return
		}
		want := i
		for want < len(b) && b[want] >= 0x20 && b[want] < 0x80 && b[want] != '"' && b[want] != '\\' {
			want++
		}
		if got := acpPlainRun(b, i); got != want {
			t.Fatalf("acpPlainRun(%q, %d) = %d, want %d", b, i, got, want)
		}
	})
}
