//go:build unix

package agent

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/chipchat/chipchat/message"
)

// The fixtures in testdata/acp_output are what the four real agents sent
// in internal/acpagents' edit and shell scenarios (recorded with
// CHIPCHAT_REAL_AGENTS=1 ACPAGENTS_DUMP=1; see its README). The flood
// agent replays them over stdio; each item must show what the tool
// produced, never the permission request's text.
func TestACPToolOutputFromRecordedAgents(t *testing.T) {
	type call struct {
		id    string
		texts []string // the item's text contents, in order
		diffs int      // and how many diffs
	}
	for _, c := range []struct {
		agent  string
		calls  []call
		prompt map[string]string // call id → a text its prompt shows
	}{
		{"claude", []call{
			{"toolu_fake005_0", []string{"```\n1\tthe old line\n```"}, 0},
			// The diff came before the call ran; its output only in rawOutput.
			{"toolu_fake007_0", []string{"The file /proj/notes.txt has been updated successfully. (file state is current in your context — no need to Read it back)"}, 1},
			// "Print a marker" (its description, sent while pending) is not output.
			{"toolu_fake014_0", []string{"```console\nchipchat-42\n```"}, 0},
		}, map[string]string{"toolu_fake014_0": "Print a marker"}},
		{"codex", []call{
			{"call_fake003_0", nil, 1},
			// The permission's "Proposed Amendment" is not the output; stdout
			// comes only in the last update's rawOutput.
			{"call_fake006_0", []string{"chipchat-42\nexit code 0"}, 0},
		}, map[string]string{"call_fake006_0": "Proposed Amendment"}},
		{"gemini", []call{
			// The diff comes only in the request, then with the completion.
			{"replace__replace_1796164452665_0", nil, 1},
			// The command's output is never sent.
			{"run_shell_command__run_shell_command_1796164452967_0", nil, 0},
		}, map[string]string{"run_shell_command__run_shell_command_1796164452967_0": "[current working directory /proj]"}},
		{"opencode", []call{
			{"call_fake004_0", []string{"the old line"}, 0},
			// The request's diff is replaced by the result's diff of the same file.
			{"call_fake005_0", []string{"Edit applied successfully."}, 1},
			{"call_fake009_0", []string{"chipchat-42\n"}, 0},
		}, nil},
	} {
		t.Run(c.agent, func(t *testing.T) {
			h := newFloodHarness(t, ACPOptions{})
			var asked []Permission
			h.answer = func(p Permission) PermissionAnswer {
				asked = append(asked, p)
				for _, o := range p.Request.Options {
					if o.Kind == message.AllowOnce {
						return PermissionAnswer{OptionID: o.ID, Outcome: "selected"}
					}
				}
				return PermissionAnswer{Outcome: "rejected"}
			}
			fixture, err := filepath.Abs(filepath.Join("testdata", "acp_output", c.agent+".jsonl"))
			if err != nil {
				t.Fatal(err)
			}
			evs, err := h.run("replay " + fixture)
			if err != nil {
				t.Fatal(err)
			}
			tools := acpFoldTools(evs)
			if len(tools) != len(c.calls) {
				t.Errorf("%d tool items, want %d: %v", len(tools), len(c.calls), tools)
			}
			for _, want := range c.calls {
				tool, ok := tools[want.id]
				if !ok {
					t.Errorf("no item %s", want.id)
					continue
				}
				var texts []string
				diffs := 0
				for _, cc := range tool.Content {
					switch cc.Type {
					case message.ContentText:
						texts = append(texts, cc.Text)
					case message.ContentDiff:
						diffs++
					}
				}
				if strings.Join(texts, "\x00") != strings.Join(want.texts, "\x00") || diffs != want.diffs {
					t.Errorf("%s: texts %q and %d diffs, want %q and %d", want.id, texts, diffs, want.texts, want.diffs)
				}
				if tool.Status != message.ToolCompleted {
					t.Errorf("%s: status %q", want.id, tool.Status)
				}
			}
			for id, text := range c.prompt {
				found := false
				for _, p := range asked {
					if p.Request.ToolCallID != id {
						continue
					}
					for _, cc := range p.Tool.Content {
						found = found || strings.Contains(cc.Text, text)
					}
				}
				if !found {
					t.Errorf("the prompt for %s does not show %q (the request's own content)", id, text)
				}
			}
			// Every prompt has its command or diff.
			for _, p := range asked {
				hasDiff := false
				for _, cc := range p.Tool.Content {
					hasDiff = hasDiff || cc.Type == message.ContentDiff
				}
				if p.Tool.Kind == "edit" && !hasDiff || p.Tool.Kind == "execute" && !strings.Contains(p.Tool.Title+string(p.Tool.RawInput), "printf") {
					t.Errorf("prompt %+v lacks what it approves", p.Tool)
				}
			}
		})
	}
}

func TestToolOutputText(t *testing.T) {
	for _, c := range []struct{ raw, want string }{
		{`"plain"`, "plain"},
		{`{"stdout":"101\n102\n","stderr":"warn\n","formatted_output":"dup","exit_code":0}`, "101\n102\nwarn\nexit code 0"},
		{`{"stdout":"","stderr":"boom","exit_code":2}`, "boom\nexit code 2"},
		{`{"formatted_output":"only formatted","aggregated_output":"agg"}`, "only formatted"},
		{`{"aggregated_output":"agg\n"}`, "agg\n"},
		{`{"metadata":{"exit":1,"output":"x"},"output":"out"}`, "out\nexit code 1"},
		{`{"content":[{"type":"text","text":"a"},{"type":"image"},{"type":"text","text":"b"}]}`, "a\nb"},
		{`{"content":"c"}`, "c"},
		{`{"error":"refused"}`, "refused"},
		{`{"exitCode":3}`, "exit code 3"},
		{`{"changes":{}}`, ""},
		{`42`, ""},
		{``, ""},
		{`not json`, ""},
	} {
		if got := ToolOutputText(json.RawMessage(c.raw)); got != c.want {
			t.Errorf("ToolOutputText(%s) = %q, want %q", c.raw, got, c.want)
		}
	}
}

func TestCutMiddle(t *testing.T) {
	s := "héllo\n" + strings.Repeat("wörld ", 50_000) + "\nthe end"
	for _, n := range []int64{10, 100, 1 << 10, 64 << 10, int64(len(s)) - 1} {
		got := CutMiddle(s, n)
		if int64(len(got)) > n || !utf8.ValidString(got) {
			t.Errorf("CutMiddle(%d) is %d bytes, valid UTF-8 %v", n, len(got), utf8.ValidString(got))
		}
		if n >= 1<<10 && (!strings.HasPrefix(got, "héllo\n") || !strings.HasSuffix(got, "the end") || !strings.Contains(got, "left out (reply_bytes)")) {
			t.Errorf("CutMiddle(%d) = %q…%q", n, got[:20], got[len(got)-20:])
		}
	}
	if got := CutMiddle("short", 5); got != "short" {
		t.Errorf("CutMiddle(short) = %q", got)
	}
}

func TestCapToolContent(t *testing.T) {
	old := strings.Repeat("o", 3000)
	cs := []message.ToolContent{{Type: "text", Text: strings.Repeat("t", 6000)}, {Type: "diff", Path: "p", OldText: &old, NewText: strings.Repeat("n", 1000)}}
	got, cut := CapToolContent(cs, 2000)
	if !cut || contentBytes(got) > 2000 || got[1].Path != "p" || got[1].OldText == nil || len(got[1].NewText) == 0 {
		t.Errorf("cut %v, %d bytes: %+v", cut, contentBytes(got), got)
	}
	if len(cs[0].Text) != 6000 || len(*cs[1].OldText) != 3000 {
		t.Error("the content given was changed")
	}
	if same, cut := CapToolContent(cs, 1<<20); cut || &same[0] != &cs[0] {
		t.Error("content under the limit was copied or cut")
	}
	tool := message.Tool{RawInput: json.RawMessage(`{"a":"` + strings.Repeat("x", 5000) + `"}`), Content: cs}
	if !CapTool(&tool, 2000) || len(tool.RawInput) > 2000 || !json.Valid(tool.RawInput) {
		t.Errorf("raw input kept %d bytes, valid %v", len(tool.RawInput), json.Valid(tool.RawInput))
	}
}
