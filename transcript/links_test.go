package transcript

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/chipchat/chipchat/chips"
)

var osc8 = regexp.MustCompile("\x1b\\]8;[^;\x07\x1b]*;([^\x07\x1b]*)(?:\x07|\x1b\\\\)")

// hyperlinks are the targets of the OSC 8 links a view opens.
func hyperlinks(v string) []string {
	var out []string
	for _, m := range osc8.FindAllStringSubmatch(v, -1) {
		if m[1] != "" && !slices.Contains(out, m[1]) {
			out = append(out, m[1])
		}
	}
	slices.Sort(out)
	return out
}

// Only http, https and mailto links reach the terminal as OSC 8; any other
// target (javascript:, file:, a relative path) is drawn as plain text with
// the target shown — inline, reference, autolink, image and table links.
func TestHyperlinksOnlyWebAndMail(t *testing.T) {
	src := strings.Join([]string{
		"See [docs](https://example.com/docs), [old](HTTP://example.com/old) and [mail](mailto:a@example.com).",
		"",
		"Click [here](javascript:alert(1)) or [there](file:///etc/passwd) or [rel](src/main.go) or [ssh](ssh://host/x).",
		"",
		"Autolinks <https://example.com/auto> and <vbscript:msgbox>, a [ref][r] and ![img](data:text/html,hi).",
		"",
		"[r]: file:///home/u/.ssh/id_rsa",
		"",
		"| site | bad |",
		"|---|---|",
		"| [ok](https://example.com/t) | [no](file:///etc/shadow) |",
	}, "\n")
	for _, colour := range []bool{true, false} {
		var m *Model
		if colour {
			m = New(nil)
		} else {
			m = New(chips.Default(chips.NoColorTheme()), WithNoColor())
		}
		m.SetSize(160, 40)
		m.SetMessages([]Message{agentMsg("a", src)})
		v := m.View()
		got := hyperlinks(v)
		for _, u := range got {
			s := strings.ToLower(u)
			if !strings.HasPrefix(s, "http:") && !strings.HasPrefix(s, "https:") && !strings.HasPrefix(s, "mailto:") {
				t.Errorf("colour %v: OSC 8 link to %q reaches the terminal", colour, u)
			}
		}
		if !slices.Contains(got, "https://example.com/docs") || !slices.Contains(got, "mailto:a@example.com") || !slices.Contains(got, "HTTP://example.com/old") {
			t.Errorf("colour %v: web and mail links are kept, got %q", colour, got)
		}
		flat := strings.Join(strings.Fields(ansi.Strip(v)), " ")
		for _, want := range []string{"javascript:alert(1)", "file:///etc/passwd", "src/main.go", "ssh://host/x", "vbscript:msgbox", "file:///home/u/.ssh/id_rsa"} {
			if !strings.Contains(flat, want) {
				t.Errorf("colour %v: the target %q is not shown:\n%s", colour, want, ansi.Strip(v))
			}
		}
		if o, c := strings.Count(v, "\x1b]8;"), strings.Count(v, "\x1b]8;;\x1b\\")+strings.Count(v, "\x1b]8;;\x07"); o > 2*c {
			t.Errorf("colour %v: %d OSC 8 sequences, %d of them resets", colour, o, c)
		}
	}
}
