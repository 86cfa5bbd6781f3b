package transcript

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/chipchat/chipchat/chips"
	"github.com/chipchat/chipchat/message"
)

// An agent terminal is drawn in its item: command, directory, status and
// the end of its output, folded; sanitized.
func TestTerminalInToolItem(t *testing.T) {
	render := func(tool message.Tool, kind chips.Surface) []string {
		lines := DefaultItems().Render(kind, message.Item{Kind: message.ItemTool, Tool: &tool}, ItemContext{Width: 60, NoColor: true})
		for i, l := range lines {
			lines[i] = strings.TrimRight(ansi.Strip(l), " ")
		}
		return lines
	}
	var out []string
	for i := 1; i <= 12; i++ {
		out = append(out, fmt.Sprintf("line %d", i))
	}
	code := 2
	st := &message.TerminalState{Command: "make test", Cwd: "/proj", Output: strings.Join(out, "\n") + "\n", Exited: true, ExitCode: &code}
	// Its own item: titled with the command, which the terminal's line
	// does not repeat.
	own := message.Tool{CallID: "chipchat-term-1", Kind: "execute", Title: "make test", Status: message.ToolFailed,
		Content: []message.ToolContent{{Type: message.ContentTerminal, TerminalID: "term-1", Terminal: st}}}
	got := render(own, chips.Compact)
	want := []string{"$ make test  ✗ failed", "  ▣ in /proj · exit 2", "  … 9 lines earlier", "  line 10", "  line 11", "  line 12"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("compact:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// In an agent's call: the command is named; expanded shows it all.
	call := message.Tool{CallID: "call_1", Kind: "execute", Title: "Run the tests", Status: message.ToolInProgress,
		Content: []message.ToolContent{{Type: message.ContentTerminal, TerminalID: "term-2",
			Terminal: &message.TerminalState{Command: "make test", Cwd: "/proj", Output: "ok\x1b]52;c;aGk=\x07 \x1b[31mred\x1b[m\n"}}}}
	got = render(call, chips.Expanded)
	if len(got) != 3 || got[1] != "  ▣ $ make test · in /proj · running" || got[2] != "  ok red" {
		t.Errorf("expanded:\n%q", got)
	}
	// All of it when it fits; a cut head is said.
	st2 := *st
	st2.Output, st2.Truncated = "a\nb\n", true
	own.Content[0].Terminal = &st2
	got = render(own, chips.Compact)
	if len(got) != 5 || got[2] != "  … earlier output in the terminal pane" || got[3] != "  a" || got[4] != "  b" {
		t.Errorf("truncated:\n%q", got)
	}
	// Killed; and without state (an older store), its id.
	sig := message.TerminalState{Command: "sleep 30", Exited: true, Signal: "SIGKILL"}
	own.Content[0].Terminal = &sig
	if got = render(own, chips.Compact); got[1] != "  ▣ $ sleep 30 · killed by SIGKILL" {
		t.Errorf("killed:\n%q", got)
	}
	own.Content[0].Terminal = nil
	if got = render(own, chips.Compact); got[1] != "  ▣ terminal term-1" {
		t.Errorf("no state:\n%q", got)
	}
}
