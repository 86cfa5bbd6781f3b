package message

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// An option's kind hint says only what its label does not: the labels the
// four real agents send (internal/acpagents) and the made-up worst cases.
func TestKindHint(t *testing.T) {
	for _, c := range []struct{ name, kind, want string }{
		{"Allow once", AllowOnce, ""},
		{"Allow", AllowOnce, "allow once"},
		{"Yes", AllowOnce, "allow once"},
		{"Yes, proceed", AllowOnce, "allow once"},
		{"Always allow", AllowAlways, "remembered"},
		{"Allow always (remembered)", AllowAlways, ""},
		{"Allow for this session", AllowAlways, "allow always — remembered"},
		{"Reject", RejectOnce, "reject once"},
		{"Reject once", RejectOnce, ""},
		{"REJECT-ONCE", RejectOnce, ""},
		{"No", RejectAlways, "reject always — remembered"},
		{"Allow once", "", ""},
		{"Allow once", "sometimes", ""},
	} {
		if got := (PermissionOption{Name: c.name, Kind: c.kind}).KindHint(); got != c.want {
			t.Errorf("%q (%s): hint %q, want %q", c.name, c.kind, got, c.want)
		}
	}
}

// MCP calls are known by the raw input that names server and tool, or by
// the title the agents give them; other calls are not MCP calls.
func TestToolMCP(t *testing.T) {
	args := `{"threadId":"thr_1"}`
	for _, c := range []struct {
		title, raw           string
		server, tool, wantIn string
	}{
		{"mcp__chipchat__t3_thread_read", args, "chipchat", "t3_thread_read", args},
		{"mcp__my_srv__do__it", args, "my_srv", "do__it", args},
		{"Tool: chipchat/terminal_read", `{"server":"chipchat","tool":"terminal_read","arguments":{"id":"t1"}}`, "chipchat", "terminal_read", `{"id":"t1"}`},
		{"anything", `{"server":"s","tool":"x","arguments":{}}`, "s", "x", `{}`},
		{"Tool: chipchat/t3_thread_read", args, "chipchat", "t3_thread_read", args},
		{"t3_thread_read (chipchat MCP Server)", args, "chipchat", "t3_thread_read", args},
		{"Read notes.txt", `{"file_path":"a"}`, "", "", ""},
		{"mcp__", args, "", "", ""},
		{"mcp__chipchat", args, "", "", ""},
		{"Tool: run it now/x", args, "", "", ""},
		{"", `{"server":"s"}`, "", "", ""},
	} {
		got, ok := Tool{Title: c.title, RawInput: json.RawMessage(c.raw)}.MCP()
		if ok != (c.server != "") || got.Server != c.server || got.Tool != c.tool || (ok && string(got.Arguments) != c.wantIn) {
			t.Errorf("%q %s: %+v %v, want %s/%s %s", c.title, c.raw, got, ok, c.server, c.tool, c.wantIn)
		}
	}
}

func FuzzToolMCP(f *testing.F) {
	f.Add("mcp__chipchat__t3_thread_read", `{"threadId":"x"}`)
	f.Add("Tool: a/b", `{"server":"a","tool":"b","arguments":[1]}`)
	f.Add("t (s MCP Server)", `null`)
	f.Fuzz(func(t *testing.T, title, raw string) {
		c, ok := Tool{Title: title, RawInput: json.RawMessage(raw)}.MCP()
		if !ok {
			if c.Server != "" || c.Tool != "" || c.Arguments != nil {
				t.Fatalf("not an MCP call but %+v", c)
			}
			return
		}
		if c.Server == "" || c.Tool == "" {
			t.Fatalf("an MCP call without server or tool: %+v", c)
		}
		if utf8.ValidString(title) && utf8.ValidString(raw) && !strings.Contains(title+raw, c.Tool) && !strings.Contains(raw, "\\") {
			t.Fatalf("tool %q is in neither the title nor the input", c.Tool)
		}
	})
}

func TestEscAnswer(t *testing.T) {
	reject := []PermissionOption{{ID: "a", Kind: AllowOnce}, {ID: "r", Kind: RejectOnce}}
	for _, c := range []struct {
		permission bool
		opts       []PermissionOption
		want       string
	}{{true, reject, "reject"}, {true, reject[:1], "cancel"}, {true, nil, "cancel"}, {false, nil, "dismiss"}} {
		if got := EscAnswer(c.permission, c.opts); got != c.want {
			t.Errorf("EscAnswer(%v, %v) = %q, want %q", c.permission, c.opts, got, c.want)
		}
	}
}
