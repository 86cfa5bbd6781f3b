package ui

import (
	"strings"
	"testing"

	"github.com/chipchat/chipchat/clipboard"
	"github.com/chipchat/chipchat/composer"
	"github.com/chipchat/chipchat/contextref"
)

// A two-line copy with a chip, pasted the way terminals paste (newlines as
// CR, or CRLF, or LF): the fragment is found and the chip comes back as a
// chip, not as link text.
func TestMultiLinePasteFindsFragmentWhateverTheLineEnds(t *testing.T) {
	for name, nl := range map[string]string{"CR": "\r", "CRLF": "\r\n", "LF": "\n"} {
		t.Run(name, func(t *testing.T) {
			clip, reg := clipEnv(t)
			e := newTestEnv(t)
			h := e.openClip(clip, reg)
			h.typeText("first line")
			h.press("shift+enter")
			h.typeText("see ")
			h.app.ed.InsertContext(uiTerm("ctx_t"), "")
			h.press("alt+a", "ctrl+c")
			h.pumpUntil("the copy", func() bool { return strings.Contains(h.app.Toast(), "copied") })
			text, _, _ := h.app.ed.Draft().SelectedMarkdown()
			if !strings.Contains(text, "\n") {
				t.Fatalf("the copy is one line: %q", text)
			}

			b := newTestEnv(t)
			hb := b.openClip(clip, reg)
			hb.paste(strings.ReplaceAll(text, "\n", nl))
			hb.pumpUntil("the paste", func() bool { return strings.Contains(hb.app.Toast(), "pasted") })
			d := hb.app.ed.Draft()
			if d.Markdown() != text {
				t.Fatalf("pasted draft %q, want %q", d.Markdown(), text)
			}
			if len(d.Records()) != 1 {
				t.Fatalf("the chip lost its record (toast %q)", hb.app.Toast())
			}
		})
	}
}

func TestCacheLookupNormalizesLineEnds(t *testing.T) {
	c := &clipboard.Cache{Dir: t.TempDir()}
	text := "a\n" + contextref.LinkFor(uiTerm("ctx_t")) + "\nb"
	f := &contextref.Fragment{Source: contextref.FragmentSource{EnvironmentID: "env_x"}, Records: []contextref.Record{uiTerm("ctx_t")}}
	if err := c.Put(text, f); err != nil {
		t.Fatal(err)
	}
	for _, v := range []string{text, strings.ReplaceAll(text, "\n", "\r"), strings.ReplaceAll(text, "\n", "\r\n")} {
		if got, err := c.Lookup(v); err != nil || len(got.Records) != 1 {
			t.Errorf("Lookup(%q): %v", v, err)
		}
	}
}

// FuzzNormalizeMatchesDraft holds clipboard.NormalizeText to what the
// draft makes of a paste, so the cache key is what the draft will hold.
func FuzzNormalizeMatchesDraft(f *testing.F) {
	for _, s := range []string{"a\r\nb\rc\n", "\x1b[31mred\x1b[0m", "tab\there", "\u0085nel\u009b", "\xff\xfe bad", "\r\r\n\n", "é\r"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if contextref.HasReferences(s) {
			return // links become chips in InsertMarkdown; the prose rules are what is compared
		}
		d := composer.NewDraft()
		d.InsertText(s)
		if got, want := clipboard.NormalizeText(s), d.Markdown(); got != want {
			t.Fatalf("NormalizeText(%q) = %q, the draft holds %q", s, got, want)
		}
	})
}
