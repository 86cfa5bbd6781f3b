package chips

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/chipchat/chipchat/contextref"
)

// TestKindViewsCoverEveryKind fails when a kind of the contract lacks any
// chips surface: a table entry with glyph, colour, compact rule, name and
// details/expanded body, theme styles in both themes, renderers on every
// surface in the default registry that draw its sample resolved (not the
// unresolved chip), and a sample record in this package's tests.
func TestKindViewsCoverEveryKind(t *testing.T) {
	samples := map[string]contextref.Record{}
	for _, r := range sampleRecords("x", "") {
		samples[r.RecordBase().Kind] = r
	}
	if len(kindViews) != len(contextref.KnownKinds) {
		t.Errorf("%d kind views for %d kinds", len(kindViews), len(contextref.KnownKinds))
	}
	for _, th := range []Theme{DefaultTheme(), NoColorTheme()} {
		reg := Default(th)
		for _, kind := range contextref.KnownKinds {
			v, ok := ViewOf(kind)
			if !ok || !v.HasSurfaces() {
				t.Errorf("kind %q: no complete chips view (%+v)", kind, v)
				continue
			}
			if _, ok := th.Kinds[kind]; !ok {
				t.Errorf("kind %q has no theme style", kind)
			}
			if spec, ok := contextref.Spec(kind); !ok || !spec.HasDecoder() || !spec.HasBody() {
				t.Errorf("kind %q: no complete contract entry", kind)
			}
			r, ok := samples[kind]
			if !ok {
				t.Errorf("kind %q has no sample record", kind)
				continue
			}
			c := chipOf(r)
			for _, s := range surfaces {
				out := ansi.Strip(reg.Render(s, c, 0))
				if strings.HasPrefix(strings.TrimLeft(out, "[ "), UnresolvedGlyph) || strings.Contains(out, "why") {
					t.Errorf("kind %q %s renders unresolved: %q", kind, s, out)
				}
				if !strings.Contains(out, v.Glyph) {
					t.Errorf("kind %q %s: no glyph %q in %q", kind, s, v.Glyph, out)
				}
			}
		}
	}
}

func TestThreadChip(t *testing.T) {
	reg := Default(NoColorTheme())
	r := &contextref.ThreadRecord{Base: contextref.NewBase(contextref.KindThread, "ctx_th", "label"),
		EnvironmentID: "env_b", ThreadID: "thread_42", Title: "Fix login\x1b[31m bug"}
	c := chipOf(r)
	if got := ansi.Strip(reg.Render(Compact, c, 0)); got != "[# Fix login[31m bug]" && got != "[# Fix login bug]" {
		t.Errorf("compact %q", got)
	}
	if strings.Contains(reg.Render(Compact, c, 0), "\x1b[31m") {
		t.Error("the title's escape sequence reaches the terminal")
	}
	d := ansi.Strip(reg.Render(Details, c, 0))
	for _, want := range []string{"title:", "thread: thread_42", "environment: env_b"} {
		if !strings.Contains(d, want) {
			t.Errorf("details lack %q:\n%s", want, d)
		}
	}
	r.Title = ""
	if got := ansi.Strip(reg.Render(Compact, chipOf(r), 0)); got != "[# label]" {
		t.Errorf("untitled compact %q", got)
	}
}

func TestReviewSourceDetails(t *testing.T) {
	reg := Default(NoColorTheme())
	stale, rev := true, "deadbeef"
	r := &contextref.ReviewCommentRecord{Base: contextref.NewBase(contextref.KindReviewComment, "ctx_r", "a.ts L1"),
		SectionID: "s", FilePath: "a.ts", RangeLabel: "L1", SourceRevision: &rev, SourceStale: &stale}
	for _, s := range []Surface{Details, Expanded} {
		out := ansi.Strip(reg.Render(s, chipOf(r), 0))
		if !strings.Contains(out, "revision: deadbeef") || !strings.Contains(out, "outdated") {
			t.Errorf("%s lacks the source revision or staleness:\n%s", s, out)
		}
	}
	stale, rev = false, ""
	out := ansi.Strip(reg.Render(Details, chipOf(r), 0))
	if strings.Contains(out, "revision") || strings.Contains(out, "outdated") {
		t.Errorf("empty revision and fresh source show:\n%s", out)
	}
}

func TestCitationChip(t *testing.T) {
	reg := Default(NoColorTheme())
	c, err := contextref.ParseCitationHref("t3-citation://v1/env-1/thread-1/message-1?text=" + strings.Repeat("q", 70) + "&start=0&end=70&prefix=&suffix=")
	if err != nil {
		t.Fatal(err)
	}
	if got := ansi.Strip(reg.RenderCitation(Compact, c, false, 0)); got != "[❝ "+strings.Repeat("q", 64)+"…]" {
		t.Errorf("compact %q", got)
	}
	c = c.WithComment("  Why\n not a channel?  ")
	// The quote first, then the comment (issue 25 item 14: not the comment
	// alone).
	if got := ansi.Strip(reg.RenderCitation(Compact, c, false, 0)); got != "[❝ "+strings.Repeat("q", 42)+"… — Why not a channel?]" {
		t.Errorf("compact with comment %q", got)
	}
	d := ansi.Strip(reg.RenderCitation(Details, c, false, 0))
	if !strings.Contains(d, strings.Repeat("q", 70)) || !strings.Contains(d, "comment:") || strings.Index(d, "qqq") > strings.Index(d, "comment:") {
		t.Errorf("details: the full quote, then the comment:\n%s", d)
	}
	e := ansi.Strip(reg.RenderCitation(Expanded, c, true, 0))
	if !strings.Contains(e, "thread: thread-1") {
		t.Errorf("expanded:\n%s", e)
	}
	for _, w := range testWidths() {
		for _, s := range surfaces {
			checkOutput(t, "citation "+s.String(), reg.RenderCitation(s, c, w%2 == 0, w), s, w)
		}
	}
	if out := reg.RenderCitation(Compact, nil, false, 0); !strings.Contains(ansi.Strip(out), UnresolvedGlyph) {
		t.Errorf("nil citation: %q", out)
	}
}
