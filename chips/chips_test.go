package chips

import (
	"encoding/json"
	"errors"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"

	"github.com/chipchat/chipchat/contextref"
)

var surfaces = []Surface{Compact, Details, Expanded}

// labels covers wide, emoji, combining and mixed text.
var labels = []string{
	"build log",
	"",
	"日本語のラベルとても長い名前です",
	"👩‍💻🎉 deploy 🇺🇸🇬🇧",
	"e\u0301te\u0301 cafe\u0301 na\u0308i\u0308ve",
	"ＡＢＣ全角 mixed ascii and 한국어 text here",
	strings.Repeat("long-label-", 30),
	"\u0301\u0301 leading combining",
}

// checkOutput asserts the invariants of every rendering.
func checkOutput(t *testing.T, what, out string, s Surface, width int) {
	t.Helper()
	if strings.TrimSpace(ansi.Strip(out)) == "" {
		t.Fatalf("%s: empty rendering %q", what, out)
	}
	if s == Compact && strings.Contains(out, "\n") {
		t.Fatalf("%s: compact rendering has several lines: %q", what, out)
	}
	if width > 0 {
		for i, l := range strings.Split(out, "\n") {
			if w := ansi.StringWidth(l); w > width {
				t.Fatalf("%s: line %d is %d columns wide, more than %d: %q", what, i, w, width, l)
			}
		}
	}
	if err := onlySGR(out); err != nil {
		t.Fatalf("%s: %v in %q", what, err, out)
	}
}

func checkWidth(s string) int { return ansi.StringWidth(s) }

// onlySGR checks that every escape sequence in out is an SGR style (what
// lipgloss emits) and that no other control character is left but LF.
func onlySGR(out string) error {
	for i := 0; i < len(out); i++ {
		if out[i] != 0x1b {
			continue
		}
		if i+1 >= len(out) || out[i+1] != '[' {
			return errors.New("escape that is not a CSI at " + strconv.Itoa(i))
		}
		j := i + 2
		for j < len(out) && (out[j] >= '0' && out[j] <= '9' || out[j] == ';' || out[j] == ':') {
			j++
		}
		if j >= len(out) || out[j] != 'm' {
			return errors.New("CSI that is not SGR at " + strconv.Itoa(i))
		}
		i = j
	}
	if !utf8.ValidString(out) {
		return errors.New("invalid UTF-8")
	}
	for _, r := range ansi.Strip(out) {
		switch {
		case r == '\n':
		case r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f:
			return errors.New("control character U+" + strconv.FormatInt(int64(r), 16))
		case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
			return errors.New("bidi control U+" + strconv.FormatInt(int64(r), 16))
		}
	}
	return nil
}

func TestRegisterDuplicate(t *testing.T) {
	r := NewRegistry(DefaultTheme())
	fn := func(Chip, int) string { return "x" }
	if err := r.Register("file", Details, fn); err != nil {
		t.Fatal(err)
	}
	err := r.Register("file", Details, fn)
	if err == nil {
		t.Fatal("second registration for file/details: no error")
	}
	if !strings.Contains(err.Error(), `"file"`) || !strings.Contains(err.Error(), "details") {
		t.Fatalf("error does not name kind and surface: %v", err)
	}
	// Other surfaces of the same kind and the same surface of another kind are fine.
	if err := r.Register("file", Compact, fn); err != nil {
		t.Fatal(err)
	}
	if err := r.Register("image", Details, fn); err != nil {
		t.Fatal(err)
	}

	d := Default(DefaultTheme())
	for _, kind := range contextref.KnownKinds {
		for _, s := range surfaces {
			if err := d.Register(kind, s, fn); err == nil {
				t.Fatalf("Default: registering %s/%s again: no error", kind, s)
			}
		}
	}
}

func TestRegisterInvalid(t *testing.T) {
	r := NewRegistry(DefaultTheme())
	fn := func(Chip, int) string { return "x" }
	if r.Register("", Compact, fn) == nil {
		t.Error("empty kind accepted")
	}
	if r.Register("file", Surface(7), fn) == nil {
		t.Error("unknown surface accepted")
	}
	if r.Register("file", Compact, nil) == nil {
		t.Error("nil renderer accepted")
	}
}

func TestEmptyRegistryRendersUnresolved(t *testing.T) {
	r := NewRegistry(DefaultTheme())
	c := chipOf(sampleRecords("a file", "")[1])
	for _, s := range surfaces {
		out := r.Render(s, c, 40)
		checkOutput(t, s.String(), out, s, 40)
		if !strings.Contains(ansi.Strip(out), "a file") {
			t.Errorf("%s: label missing: %q", s, out)
		}
		if s != Compact && !strings.Contains(ansi.Strip(out), "no "+s.String()+" renderer") {
			t.Errorf("%s: reason missing: %q", s, ansi.Strip(out))
		}
	}
}

func TestEveryKindEverySurface(t *testing.T) {
	themes := map[string]Theme{"default": DefaultTheme(), "nocolor": NoColorTheme()}
	for tn, th := range themes {
		reg := Default(th)
		for _, label := range labels {
			chips := sampleChips()
			for _, r := range sampleRecords(label, label) {
				chips = append(chips, chipOf(r))
			}
			for _, c := range chips {
				c.Label = label
				for _, sel := range []bool{false, true} {
					c.Selected = sel
					for _, s := range surfaces {
						for _, w := range testWidths() {
							what := tn + " " + c.Kind + " " + s.String() + " w=" + strconv.Itoa(w) + " label=" + strconv.Quote(label)
							checkOutput(t, what, reg.Render(s, c, w), s, w)
						}
					}
				}
			}
		}
	}
}

// testWidths is 0 (no limit) and every width from 4 to 80; with -short, a
// sample of them.
func testWidths() []int {
	out := []int{0}
	step := 1
	if testing.Short() {
		step = 7
	}
	for w := 4; w <= 80; w += step {
		out = append(out, w)
	}
	return out
}

func TestResolvedSamples(t *testing.T) {
	for _, r := range sampleRecords("x", "") {
		c := chipOf(r)
		if ok, why := Resolved(c); !ok {
			t.Errorf("%s: not resolved: %s", c.Kind, why)
		}
	}
}

func TestCompactShape(t *testing.T) {
	reg := Default(DefaultTheme())
	for _, r := range sampleRecords("my label", "") {
		c := chipOf(r)
		out := ansi.Strip(reg.Render(Compact, c, 0))
		g := Glyph(c.Kind)
		if ansi.StringWidth(g) != 1 {
			t.Errorf("%s: glyph %q is not one column", c.Kind, g)
		}
		if !strings.HasPrefix(strings.TrimSpace(out), g+" ") {
			t.Errorf("%s: compact %q does not start with glyph %q", c.Kind, out, g)
		}
		want := "my label"
		switch c.Kind {
		case contextref.KindMention:
			want = "src/deep/dir/file.go"
		case contextref.KindReviewComment:
			want = "#42"
		case contextref.KindThread:
			want = "Fix login bug" // a thread chip shows its title
		}
		if !strings.Contains(out, want) {
			t.Errorf("%s: compact %q lacks %q", c.Kind, out, want)
		}
	}
	// A chip is one contiguous styled run: no holes in the pill, selected or not.
	for _, th := range []Theme{DefaultTheme(), NoColorTheme()} {
		r := Default(th)
		for _, c := range sampleChips() {
			for _, sel := range []bool{false, true} {
				c.Selected = sel
				if out := r.Render(Compact, c, 0); strings.Count(out, "\x1b[m") > 1 {
					t.Errorf("%s selected=%v: pill in pieces: %q", c.Kind, sel, out)
				}
			}
		}
	}
	// A mention cut at the start keeps its file name.
	m := chipOf(sampleRecords("x", "")[6])
	out := ansi.Strip(reg.Render(Compact, m, 14))
	if !strings.HasSuffix(strings.TrimSpace(out), "file.go") || !strings.Contains(out, "…") {
		t.Errorf("mention cut: %q", out)
	}
	// A skill label "$name" is not drawn as "$ $name".
	s := chipOf(&contextref.SkillRecord{Base: contextref.NewBase("skill", "s", "$pinchtab"), Name: "pinchtab"})
	if out := ansi.Strip(reg.Render(Compact, s, 0)); strings.Contains(out, "$ $") || !strings.Contains(out, "$ pinchtab") {
		t.Errorf("skill compact: %q", out)
	}
	// An empty label falls back to the record's name.
	f := chipOf(sampleRecords("", "")[1])
	if out := ansi.Strip(reg.Render(Compact, f, 0)); !strings.Contains(out, "notes.txt") {
		t.Errorf("empty label: %q", out)
	}
	// Selected draws differently.
	c := chipOf(sampleRecords("x", "")[0])
	plain := reg.Render(Compact, c, 0)
	c.Selected = true
	if sel := reg.Render(Compact, c, 0); sel == plain || ansi.Strip(sel) != ansi.Strip(plain) {
		t.Errorf("selected %q vs %q", sel, plain)
	}
}

func TestUnresolved(t *testing.T) {
	files := sampleRecords("x", "")
	cases := []struct {
		name string
		c    Chip
		why  string
	}{
		{"missing", Chip{Kind: "file", ContextID: "ctx_1", Label: "gone.txt"}, "no record for ctx_1"},
		{"typed nil", Chip{Kind: "file", ContextID: "ctx_1", Label: "gone.txt", Record: (*contextref.FileRecord)(nil)}, "no record for ctx_1"},
		{"unknown kind", Chip{Kind: "future", ContextID: "ctx_u", Label: "Later",
			Record: &contextref.UnknownRecord{Base: contextref.NewBase("future", "ctx_u", "Later"), Payload: json.RawMessage(`{"a":"<b>","n":1.50}`)}},
			`unknown kind "future"`},
		{"unknown kind no record", Chip{Kind: "future", ContextID: "ctx_u", Label: "Later"}, `unknown kind "future"`},
		{"kind mismatch", Chip{Kind: "image", ContextID: "ctx_f", Label: "pic", Record: files[1]}, `is of kind "file", not "image"`},
		{"type mismatch", Chip{Kind: "file", ContextID: "ctx_f", Label: "odd",
			Record: &contextref.UnknownRecord{Base: contextref.NewBase("file", "ctx_f", "odd")}}, "not a valid file record"},
		{"empty kind", Chip{ContextID: "ctx_z", Label: "zed"}, `unknown kind ""`},
	}
	for _, th := range []Theme{DefaultTheme(), NoColorTheme()} {
		reg := Default(th)
		for _, tc := range cases {
			ok, why := Resolved(tc.c)
			if ok || !strings.Contains(why, tc.why) {
				t.Errorf("%s: Resolved = %v, %q; want reason %q", tc.name, ok, why, tc.why)
			}
			for _, s := range surfaces {
				out := reg.Render(s, tc.c, 60)
				checkOutput(t, tc.name+" "+s.String(), out, s, 60)
				plain := ansi.Strip(out)
				if !strings.Contains(plain, tc.c.Label) {
					t.Errorf("%s %s: label %q missing: %q", tc.name, s, tc.c.Label, plain)
				}
				if !strings.Contains(plain, UnresolvedGlyph) {
					t.Errorf("%s %s: no unresolved marker: %q", tc.name, s, plain)
				}
				if s != Compact && !strings.Contains(plain, tc.why) {
					t.Errorf("%s %s: reason %q missing: %q", tc.name, s, tc.why, plain)
				}
			}
		}
		// The unresolved chip looks different from a resolved one of its kind.
		res := chipOf(files[1])
		unres := res
		unres.Record = nil
		if a, b := reg.Render(Compact, res, 0), reg.Render(Compact, unres, 0); a == b {
			t.Errorf("resolved and unresolved draw alike: %q", a)
		}
	}
	// The unknown record's payload shows, as JavaScript writes it, when expanded.
	reg := Default(DefaultTheme())
	out := ansi.Strip(reg.Render(Expanded, cases[2].c, 60))
	if !strings.Contains(out, `"a": "<b>"`) || !strings.Contains(out, `"n": 1.5`) {
		t.Errorf("payload not shown: %s", out)
	}
}

func prChip(state string, draft bool) Chip {
	r := sampleRecords("x", "")[5].(*contextref.ReviewCommentRecord)
	r.PullRequest.State = state
	r.PullRequest.IsDraft = draft
	return chipOf(r)
}

func TestPRTones(t *testing.T) {
	for _, th := range []Theme{DefaultTheme(), NoColorTheme()} {
		reg := Default(th)
		states := []struct {
			state string
			draft bool
			word  string
		}{{"open", false, "open"}, {"open", true, "draft"}, {"merged", false, "merged"}, {"closed", false, "closed"}}
		seen := map[string]string{}
		for _, st := range states {
			c := prChip(st.state, st.draft)
			out := reg.Render(Compact, c, 0)
			if !strings.Contains(ansi.Strip(out), "#42") {
				t.Errorf("%s: compact %q lacks #42", st.word, out)
			}
			if prev, dup := seen[out]; dup {
				t.Errorf("%s and %s draw alike: %q", prev, st.word, out)
			}
			seen[out] = st.word
			det := ansi.Strip(reg.Render(Details, c, 0))
			want := "#42 Add checkout (" + st.word + ") feat/x → main"
			if !strings.Contains(det, want) {
				t.Errorf("%s: details lack %q:\n%s", st.word, want, det)
			}
			exp := ansi.Strip(reg.Render(Expanded, c, 0))
			if !strings.Contains(exp, "state: "+st.word) || !strings.Contains(exp, "https://example.com/pr/42") {
				t.Errorf("%s: expanded lacks the snapshot:\n%s", st.word, exp)
			}
		}
		// isDraft only overrides open.
		if reg.Render(Compact, prChip("merged", true), 0) != reg.Render(Compact, prChip("merged", false), 0) {
			t.Error("a merged draft is not drawn as merged")
		}
	}
	// Without a pull request the chip shows its label in the review colour.
	reg := Default(DefaultTheme())
	c := prChip("open", false)
	c.Record.(*contextref.ReviewCommentRecord).PullRequest = nil
	if out := ansi.Strip(reg.Render(Compact, c, 0)); strings.Contains(out, "#42") || !strings.Contains(out, "x") {
		t.Errorf("review without PR: %q", out)
	}
}

func TestSanitize(t *testing.T) {
	cases := []struct{ in, line, keep string }{
		{"plain text", "plain text", "plain text"},
		{"\x1b[31mred\x1b[0m text", "red text", "red text"},
		{"\x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\ here", "click here", "click here"},
		{"\x1b]8;;https://evil.example\x07click\x1b]8;;\x07", "click", "click"},
		{"\x1b]0;title\x07after", "after", "after"},
		{"bell\x07s", "bells", "bells"},
		{"a\r\nb", "a b", "a\nb"},
		{"over\rwrite", "overwrite", "overwrite"},
		{"c1\u009b31mcsi", "c1csi", "c1csi"},
		{"c1\u0085nel", "c1nel", "c1nel"},
		{"tab\there", "tab here", "tab here"},
		{"\x1bP1$r0m\x1b\\dcs", "dcs", "dcs"},
		{"\x1b_apc payload\x1b\\ok", "ok", "ok"},
		{"\x1b[2J\x1b[Hclear", "clear", "clear"},
		{"bad\xc3\x1b[2Jutf8", "bad\uFFFDutf8", "bad\uFFFDutf8"},
		{"raw\x9b31mc1", "raw\uFFFD31mc1", "raw\uFFFD31mc1"},
		{"del\x7fete", "delete", "delete"},
		{"bidi \u202eevil\u202c ok \u2066x\u2069", "bidi ⟨U+202E⟩evil⟨U+202C⟩ ok ⟨U+2066⟩x⟨U+2069⟩", "bidi ⟨U+202E⟩evil⟨U+202C⟩ ok ⟨U+2066⟩x⟨U+2069⟩"},
		{"zw\u200bsp\ufeff\u200e", "zw⟨U+200B⟩sp⟨U+FEFF⟩⟨U+200E⟩", "zw⟨U+200B⟩sp⟨U+FEFF⟩⟨U+200E⟩"},
		{"flag 🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f tag\U000e0041", "flag 🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f tag⟨U+E0041⟩", "flag 🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f tag⟨U+E0041⟩"},
		{"日本語 👩‍💻 e\u0301", "日本語 👩‍💻 e\u0301", "日本語 👩‍💻 e\u0301"},
		{"para\u2028sep", "para sep", "para\nsep"},
	}
	for _, tc := range cases {
		if got := SanitizeLine(tc.in); got != tc.line {
			t.Errorf("SanitizeLine(%q) = %q, want %q", tc.in, got, tc.line)
		}
		if got := Sanitize(tc.in); got != tc.keep {
			t.Errorf("Sanitize(%q) = %q, want %q", tc.in, got, tc.keep)
		}
	}
}

func TestTruncate(t *testing.T) {
	cases := []struct {
		in   string
		w    int
		want string
	}{
		{"hello", 10, "hello"},
		{"hello", 5, "hello"},
		{"hello", 4, "hel…"},
		{"hello", 1, "…"},
		{"hello", 0, ""},
		{"日本語", 5, "日本…"},
		{"日本語", 4, "日…"},
		{"日本語", 2, "…"},
		{"👩‍💻👩‍💻", 3, "👩‍💻…"},
		{"e\u0301e\u0301e\u0301", 2, "e\u0301…"},
		{"🇺🇸🇬🇧", 3, "🇺🇸…"},
	}
	for _, tc := range cases {
		got := Truncate(tc.in, tc.w)
		if got != tc.want {
			t.Errorf("Truncate(%q, %d) = %q, want %q", tc.in, tc.w, got, tc.want)
		}
		if ansi.StringWidth(got) > max(tc.w, 0) {
			t.Errorf("Truncate(%q, %d) = %q is too wide", tc.in, tc.w, got)
		}
	}
	for _, s := range labels {
		for w := 1; w <= 40; w++ {
			for _, got := range []string{Truncate(s, w), truncateLeft(s, w)} {
				if ansi.StringWidth(got) > w {
					t.Errorf("width %d: %q too wide", w, got)
				}
				if !utf8.ValidString(got) {
					t.Errorf("width %d: %q not valid UTF-8", w, got)
				}
			}
			// Grapheme-safe: the kept part is whole clusters of the input.
			kept := strings.TrimSuffix(Truncate(s, w), "…")
			if !strings.HasPrefix(s, kept) || !clusterBoundary(s, len(kept)) {
				t.Errorf("width %d: %q splits a cluster of %q", w, kept, s)
			}
		}
	}
}

func clusterBoundary(s string, at int) bool {
	pos := 0
	for _, c := range clusters(s) {
		if pos == at {
			return true
		}
		pos += len(c.s)
	}
	return pos == at
}

func TestWrapText(t *testing.T) {
	got := wrapText("the quick brown fox jumps", 10, true)
	want := []string{"the quick", "brown fox", "jumps"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("word wrap = %q", got)
	}
	got = wrapText("  code  line", 5, false)
	if strings.Join(got, "") != "  code  line" {
		t.Errorf("code wrap lost text: %q", got)
	}
	for _, s := range labels {
		for w := 1; w < 30; w++ {
			for _, words := range []bool{true, false} {
				for _, l := range wrapText(s, w, words) {
					if ansi.StringWidth(l) > w {
						t.Errorf("wrap %q at %d: line %q too wide", s, w, l)
					}
				}
			}
		}
	}
}

// hostile is outside text that tries to drive the terminal.
const hostile = "\x1b[2J\x1b]0;pwned\x07\x1b]8;;http://evil/\x1b\\link\x1b]8;;\x1b\\\u009b6n\x1bP+q\x1b\\\r\x07"

func TestHostileContentNeverLeaks(t *testing.T) {
	for _, th := range []Theme{DefaultTheme(), NoColorTheme()} {
		reg := Default(th)
		var chips []Chip
		for _, r := range sampleRecords("lbl"+hostile, hostile) {
			c := chipOf(r)
			chips = append(chips, c)
			c.Kind, c.ContextID = c.Kind+hostile, c.ContextID+hostile
			chips = append(chips, c) // unresolved, with hostile kind and id
		}
		pr := prChip("open", false)
		rc := pr.Record.(*contextref.ReviewCommentRecord)
		rc.PullRequest.State = hostile
		rc.FenceLanguage = ptr(hostile)
		chips = append(chips, pr,
			Chip{Kind: "future", ContextID: "u", Label: hostile, Record: &contextref.UnknownRecord{
				Base: contextref.NewBase("future", "u", hostile), Payload: json.RawMessage(`{"x":"\u001b[2J\u009b","y":"` + "\u009b" + `"}`)}},
			Chip{Kind: "file", ContextID: "gone", Label: hostile})
		for _, c := range chips {
			for _, s := range surfaces {
				for _, w := range []int{0, 8, 30, 80} {
					out := reg.Render(s, c, w)
					checkOutput(t, c.Kind+" "+s.String(), out, s, w)
					for _, bad := range []string{"\x1b[2J", "\x1b]", "\x07", "\x1bP", "\u009b", "\r"} {
						if strings.Contains(out, bad) {
							t.Fatalf("%s %s: %q leaked: %q", c.Kind, s, bad, out)
						}
					}
				}
			}
		}
	}
}

func TestNoColorTheme(t *testing.T) {
	reg := Default(NoColorTheme())
	for _, c := range sampleChips() {
		for _, s := range surfaces {
			out := reg.Render(s, c, 60)
			if strings.Contains(out, "38;") || strings.Contains(out, "48;") {
				t.Errorf("%s %s: colour in no-colour theme: %q", c.Kind, s, out)
			}
		}
		plain := reg.Render(Compact, c, 0)
		c.Selected = true
		sel := reg.Render(Compact, c, 0)
		if plain == sel || !strings.Contains(sel, "\x1b[7m") && !strings.Contains(sel, "\x1b[7;") && !strings.Contains(sel, ";7m") && !strings.Contains(sel, ";7;") {
			t.Errorf("%s: selected not reversed: %q vs %q", c.Kind, sel, plain)
		}
	}
	ok := ansi.Strip(reg.Render(Compact, sampleChips()[1], 0))
	gone := ansi.Strip(reg.Render(Compact, Chip{Kind: "file", ContextID: "x", Label: "label"}, 0))
	if ok == gone || !strings.HasPrefix(ok, "[") || !strings.Contains(gone, "?") {
		t.Errorf("no-colour resolved %q vs unresolved %q", ok, gone)
	}
}

func TestCustomRenderers(t *testing.T) {
	reg := Default(DefaultTheme())
	future := Chip{Kind: "future", ContextID: "u", Label: "Later", Record: &contextref.UnknownRecord{
		Base: contextref.NewBase("future", "u", "Later"), Payload: json.RawMessage(`null`)}}
	if err := reg.Register("future", Compact, func(c Chip, w int) string { return "FUTURE " + c.Label }); err != nil {
		t.Fatal(err)
	}
	if out := reg.Render(Compact, future, 0); out != "FUTURE Later" {
		t.Errorf("custom kind: %q", out)
	}
	// Registered on Compact only: Details has no renderer.
	if out := ansi.Strip(reg.Render(Details, future, 0)); !strings.Contains(out, `no details renderer for kind "future"`) {
		t.Errorf("custom kind details: %q", out)
	}
	// Without a record a registered kind is still unresolved.
	if out := ansi.Strip(reg.Render(Compact, Chip{Kind: "future", ContextID: "u", Label: "Later"}, 0)); !strings.Contains(out, "?") {
		t.Errorf("custom kind without record: %q", out)
	}

	r := NewRegistry(DefaultTheme())
	_ = r.Register("file", Compact, func(Chip, int) string { panic("boom") })
	_ = r.Register("file", Details, func(Chip, int) string { return "\x1b[1m  \x1b[0m" })
	_ = r.Register("file", Expanded, func(Chip, int) string { return strings.Repeat("wide ", 50) + "\n" + strings.Repeat("日", 50) })
	c := chipOf(sampleRecords("f", "")[1])
	if out := ansi.Strip(r.Render(Compact, c, 20)); !strings.Contains(out, "?") {
		t.Errorf("panicking renderer: %q", out)
	}
	if out := ansi.Strip(r.Render(Details, c, 40)); !strings.Contains(out, "renderer drew nothing") {
		t.Errorf("empty renderer: %q", out)
	}
	checkOutput(t, "overflowing renderer", r.Render(Expanded, c, 20), Expanded, 20)
}

func TestThemeIsCopied(t *testing.T) {
	th := DefaultTheme()
	reg := Default(th)
	before := reg.Render(Compact, sampleChips()[0], 0)
	th.Kinds["image"] = KindStyle{Glyph: "X"}
	if after := reg.Render(Compact, sampleChips()[0], 0); after != before {
		t.Errorf("registry follows the caller's theme map: %q", after)
	}
}

func TestHumanSize(t *testing.T) {
	for n, want := range map[int64]string{0: "0 B", 1023: "1023 B", 1024: "1.0 KiB", 12345: "12.1 KiB", 3 << 20: "3.0 MiB", 1 << 62: "4.0 EiB"} {
		if got := humanSize(n); got != want {
			t.Errorf("humanSize(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestTerminalExcerpt(t *testing.T) {
	reg := Default(NoColorTheme())
	c := chipOf(sampleRecords("x", "")[2])
	out := ansi.Strip(reg.Render(Expanded, c, 0))
	for _, want := range []string{" 98 │ $ go test ./...", "103 │ exit status 1", "1 more line of text past line 103", "range: lines 98–103 (6)"} {
		if !strings.Contains(out, want) {
			t.Errorf("expanded terminal lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "extra line") {
		t.Errorf("line past lineEnd shown:\n%s", out)
	}
	det := ansi.Strip(reg.Render(Details, c, 0))
	if !strings.Contains(det, "100 │ --- FAIL") || strings.Contains(det, "101 │") || !strings.Contains(det, "3 more lines") {
		t.Errorf("details terminal:\n%s", det)
	}
}

func TestDiffColouring(t *testing.T) {
	reg := Default(DefaultTheme())
	th := DefaultTheme()
	out := reg.Render(Expanded, chipOf(sampleRecords("x", "")[5]), 0)
	if !strings.Contains(out, th.DiffAdd.Render("+new ")) || !strings.Contains(out, th.DiffDel.Render("-old ")) {
		t.Errorf("diff lines not coloured:\n%q", out)
	}
}

// TestImports keeps the package's boundaries: no project package but
// contextref, and nothing that does I/O.
func TestImports(t *testing.T) {
	files, _ := filepath.Glob("*.go")
	fset := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		af, err := parser.ParseFile(fset, f, src, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, im := range af.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			if strings.HasPrefix(p, "github.com/chipchat/chipchat/") && p != "github.com/chipchat/chipchat/contextref" {
				t.Errorf("%s imports %s", f, p)
			}
			switch p {
			case "os", "os/exec", "net", "net/http", "io/ioutil", "io/fs", "syscall":
				t.Errorf("%s imports %s (no I/O here)", f, p)
			}
		}
	}
}

func BenchmarkRenderCompact(b *testing.B) {
	reg := Default(DefaultTheme())
	chips := sampleChips()
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		reg.Render(Compact, chips[i%len(chips)], 40)
	}
}

func BenchmarkRenderExpanded(b *testing.B) {
	reg := Default(DefaultTheme())
	chips := sampleChips()
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		reg.Render(Expanded, chips[i%len(chips)], 80)
	}
}

func TestConcurrentUse(t *testing.T) {
	reg := Default(DefaultTheme())
	done := make(chan bool)
	for g := 0; g < 4; g++ {
		go func() {
			for i, c := range sampleChips() {
				reg.Render(Surface(i%3), c, 30)
			}
			done <- true
		}()
	}
	for i := 0; i < 20; i++ {
		_ = reg.Register("kind-"+strconv.Itoa(i), Compact, func(Chip, int) string { return "x" })
	}
	for g := 0; g < 4; g++ {
		<-done
	}
}

// An unresolved chip of a kind chipchat does not know says its kind even
// when compact ("? future: Later"), so a pasted T3 Code link of a new kind
// says what it is (DESIGN.md 5; issue 25 item 21); a known kind's missing
// record keeps "? <label>".
func TestUnresolvedUnknownKindSaysItsKind(t *testing.T) {
	reg := Default(NoColorTheme())
	out := ansi.Strip(reg.Render(Compact, Chip{Kind: "future", ContextID: "ctx_u", Label: "Later"}, 0))
	if !strings.Contains(out, UnresolvedGlyph) || !strings.Contains(out, "future: Later") {
		t.Errorf("unknown kind compact: %q, want the kind and the label", out)
	}
	if out := ansi.Strip(reg.Render(Compact, Chip{Kind: "future", ContextID: "ctx_u"}, 0)); strings.Count(strings.ToLower(out), "future") != 1 {
		t.Errorf("unknown kind without a label names it once: %q", out)
	}
	if out := ansi.Strip(reg.Render(Compact, Chip{Kind: "file", ContextID: "ctx_1", Label: "gone.txt"}, 0)); strings.Contains(out, "file:") {
		t.Errorf("a known kind's missing record: %q", out)
	}
}
