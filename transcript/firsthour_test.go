package transcript

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/chipchat/chipchat/chips"
)

// Issue 25 item 14: the echo agent's reply (a text fence) wrapped at the
// screen's width starts its continuation rows under the code, not one
// column right of it, also in colour (each token opens its style, so the
// space the wrap broke at came after an escape sequence).
func TestWrappedCodeRowsHaveNoStraySpace(t *testing.T) {
	m := New(chips.Default(chips.DefaultTheme()))
	m.SetSize(60, 30)
	m.SetMessages([]Message{agentMsg("a", "Echo agent:\n\n```text\n── 2 user · this message ──\n"+
		"the quick brown fox jumps over the lazy dog and then some more words to wrap around the edge of it all\n```\n")})
	v := ansi.Strip(m.View())
	rows := 0
	for _, l := range strings.Split(v, "\n") {
		if strings.Contains(l, "some more words") || strings.Contains(l, "the edge") {
			rows++
			if !strings.HasPrefix(l, "    ") || strings.HasPrefix(l, "     ") {
				t.Errorf("a wrapped code row is not under the code: %q\n%s", l, v)
			}
		}
	}
	if rows == 0 {
		t.Fatalf("no wrapped row:\n%s", v)
	}
}

func TestTrimLeftSpaces(t *testing.T) {
	for in, want := range map[string]string{
		"  a b":                         "a b",
		"\x1b[31m some\x1b[m":           "\x1b[31msome\x1b[m",
		"\x1b[1m\x1b[31m  x":            "\x1b[1m\x1b[31mx",
		"\x1b]8;;http://x\x07 link":     "\x1b]8;;http://x\x07link",
		"   ":                           "",
		"no space":                      "no space",
		"\x1b[38;5;2m":                  "\x1b[38;5;2m",
		"\x1b]8;;u\x1b\\ a\x1b]8;;\x07": "\x1b]8;;u\x1b\\a\x1b]8;;\x07",
	} {
		if got := trimLeftSpaces(in); got != want {
			t.Errorf("trimLeftSpaces(%q) = %q, want %q", in, got, want)
		}
	}
}

// Issue 25 item 14: the selection box counts "1 word", its hints say
// what each key does (as the other pickers' do), and its preview shows the
// words as the reply draws them, not their Markdown.
func TestSelectionBoxWordsHintsAndPreview(t *testing.T) {
	m := newTest(100, 30)
	m.SetMessages([]Message{agentMsg("r", "Run **this** now:\n\n```text\nmake all\n```\n\nSee [the docs](https://x.test/d) for `go test`.")})
	m.Focus()
	press(m, "tab")
	for i := 0; i < 5 && !m.SelectionActive(); i++ {
		press(m, "v")
		if !m.SelectionActive() {
			press(m, "j")
		}
	}
	if !m.SelectionActive() {
		t.Fatalf("no selection:\n%s", plain(m))
	}
	v := plain(m)
	if !strings.Contains(v, "Selection · 1 word ") || strings.Contains(v, "words ") && strings.Contains(v, "· 1 words") {
		t.Errorf("the count:\n%s", v)
	}
	for _, want := range []string{"w/b word", "j/k sentence", "o other end", "q quote", "Q quote with comment", "esc close"} {
		if !strings.Contains(v, want) {
			t.Errorf("hint %q missing:\n%s", want, v)
		}
	}
	press(m, "G") // nothing: the keys below select to the end
	for i := 0; i < 20; i++ {
		press(m, "w")
	}
	v = plain(m)
	box := v[strings.LastIndex(v, "Selection ·"):]
	for _, bad := range []string{"```", "**", "](https", "`go"} {
		if strings.Contains(box, bad) {
			t.Errorf("the preview shows Markdown %q:\n%s", bad, box)
		}
	}
	for _, want := range []string{"this", "make all", "the docs", "go test"} {
		if !strings.Contains(box, want) {
			t.Errorf("the preview lacks %q:\n%s", want, box)
		}
	}
}

func TestShownWords(t *testing.T) {
	for in, want := range map[string]string{
		"Run **this** now: ```text make all ```": "Run this now: make all",
		"## Title - item > quoted":               "Title item quoted",
		"see [the docs](https://x) and `a_b`":    "see the docs and a_b",
		"snake_case __init__ ~~gone~~":           "snake_case __init__ gone",
		"":                                       "",
	} {
		if got := shownWords(in); got != want {
			t.Errorf("shownWords(%q) = %q, want %q", in, got, want)
		}
	}
}

// Issue 25 item 14: the words a v selection covers are highlighted in the
// reply itself (reverse video), not only listed in the selection box; the
// words outside it are not.
func TestSelectionHighlightedInTheTranscript(t *testing.T) {
	m := New(chips.Default(chips.DefaultTheme()))
	m.SetSize(80, 30)
	m.SetMessages([]Message{agentMsg("r", "Alpha **beta** gamma delta. Epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau upsilon phi chi psi omega.")})
	m.Focus()
	press(m, "tab")
	for i := 0; i < 5 && !m.SelectionActive(); i++ {
		press(m, "v")
		if !m.SelectionActive() {
			press(m, "j")
		}
	}
	press(m, "w", "w") // Alpha beta gamma
	rows := strings.Split(m.View(), "\n")
	box := len(rows) - m.selBoxHeight()
	var lit []string
	for _, r := range rows[:box] {
		for {
			i := strings.Index(r, selOn)
			if i < 0 {
				break
			}
			j := strings.Index(r[i:], selOff)
			if j < 0 {
				t.Fatalf("reverse video not ended: %q", r)
			}
			lit = append(lit, ansi.Strip(r[i:i+j]))
			r = r[i+j:]
		}
	}
	got := strings.Join(lit, "|")
	if got != "Alpha beta gamma" {
		t.Fatalf("highlighted in the reply: %q, want the three selected words\n%s", got, strings.Join(rows[:box], "\n"))
	}
	press(m, "esc")
	if v := m.View(); strings.Contains(v, selOn) {
		t.Fatal("the highlight stays after the selection ended")
	}
}
