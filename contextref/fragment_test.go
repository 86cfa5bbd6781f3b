package contextref

import (
	"errors"
	"strings"
	"testing"
)

func TestFragmentRoundTrip(t *testing.T) {
	recs := decodeAll(t,
		`{"version":1,"contextId":"s","kind":"skill","label":"$x","name":"x"}`,
		`{"version":1,"contextId":"u","kind":"future","label":"<F>","payload":{"a":"</pre>&"}}`)
	f := &Fragment{Source: FragmentSource{EnvironmentID: " env_1 ", ThreadID: "t1"}, Records: recs}
	js := string(must(f.Marshal()))
	wantJS := `{"version":1,"source":{"environmentId":"env_1","threadId":"t1"},"records":[{"version":1,"contextId":"s","label":"$x","kind":"skill","name":"x"},{"version":1,"contextId":"u","label":"<F>","kind":"future","payload":{"a":"</pre>&"}}]}`
	if js != wantJS {
		t.Fatalf("got  %s\nwant %s", js, wantJS)
	}
	html, err := FragmentHTML("a <b> & c", f)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(html, `<pre data-t3-context-fragment="%7B%22version%22%3A1%2C`) || !strings.HasSuffix(html, `">a &lt;b&gt; &amp; c</pre>`) {
		t.Fatalf("carrier: %s", html)
	}
	back, err := DecodeFragment([]byte("<html><body>" + html + "</body></html>"))
	if err != nil {
		t.Fatal(err)
	}
	if got := string(must(back.Marshal())); got != wantJS {
		t.Fatalf("carrier decodes to %s", got)
	}
	single := strings.Replace(strings.Replace(html, `="`, `='`, 1), `">`, `'>`, 1)
	if _, err := DecodeFragmentHTML(single); err != nil {
		t.Fatalf("single-quoted attribute: %v", err)
	}
}

func TestFragmentDecodeFailures(t *testing.T) {
	for name, in := range map[string]string{
		"no attribute":      `<pre>hi</pre>`,
		"bad percent":       `<pre data-t3-context-fragment="%7B%2">`,
		"bad utf-8":         `<pre data-t3-context-fragment="%FF">`,
		"not json":          `<pre data-t3-context-fragment="abc">`,
		"version 2":         `{"version":2,"source":{"environmentId":"e"},"records":[]}`,
		"blank environment": `{"version":1,"source":{"environmentId":"  "},"records":[]}`,
		"blank thread":      `{"version":1,"source":{"environmentId":"e","threadId":" "},"records":[]}`,
		"no records":        `{"version":1,"source":{"environmentId":"e"}}`,
		"201 records":       `{"version":1,"source":{"environmentId":"e"},"records":[` + strings.Repeat("1,", 200) + `1]}`,
	} {
		if _, err := DecodeFragment([]byte(in)); !errors.Is(err, ErrNoFragment) {
			t.Errorf("%s: want ErrNoFragment, got %v", name, err)
		}
	}
	f, err := DecodeFragment([]byte(`{"version":1,"source":{"environmentId":"e","extra":1},"records":[1,{"version":1,"contextId":"s","kind":"skill","label":"","name":"x"},{"version":1,"contextId":"s","kind":"skill","label":"","name":"y"}]}`))
	if err != nil || len(f.Records) != 1 || f.Records[0].(*SkillRecord).Name != "x" {
		t.Fatalf("undecodable and repeated records are dropped: %v %+v", err, f)
	}
	if _, err := (&Fragment{}).Marshal(); !errors.Is(err, ErrNoFragment) {
		t.Fatal("a fragment without environment id must not be written")
	}
}

func TestURIComponent(t *testing.T) {
	in := "a b/é😀-_.!~*'()%"
	enc := EncodeURIComponent(in)
	if enc != "a%20b%2F%C3%A9%F0%9F%98%80-_.!~*'()%25" {
		t.Fatalf("encoded %q", enc)
	}
	if dec, ok := DecodeURIComponent(enc); !ok || dec != in {
		t.Fatalf("decoded %q %v", dec, ok)
	}
	for _, bad := range []string{"%", "%2", "%zz", "%C3", "%ED%A0%80"} {
		if _, ok := DecodeURIComponent(bad); ok {
			t.Errorf("%q decoded", bad)
		}
	}
}

// TestFragmentCarriers covers DESIGN.md 3.7's carriers: the <div> form
// around a copy's own HTML (unchanged), the <pre> form without it, the
// decoder reading either, the first attribute that is quoted and holds no
// quote, and the size limits. Thread records travel too.
func TestFragmentCarriers(t *testing.T) {
	recs := decodeAll(t,
		`{"version":1,"contextId":"th","kind":"thread","label":"Fix","environmentId":"env_a","threadId":"t_1","title":"Fix"}`)
	f := &Fragment{Source: FragmentSource{EnvironmentID: "env_1"}, Records: recs}
	js := string(must(f.Marshal()))
	own := `<p>See <b>this</b> &amp; that</p>`
	div, err := FragmentCarrier("See this & that", own, f)
	if err != nil {
		t.Fatal(err)
	}
	want := `<div data-t3-context-fragment="` + EncodeURIComponent(js) + `">` + own + `</div>`
	if div != want {
		t.Fatalf("div carrier\n got %s\nwant %s", div, want)
	}
	pre, err := FragmentCarrier("a < b", "", f)
	if err != nil {
		t.Fatal(err)
	}
	if pre != `<pre data-t3-context-fragment="`+EncodeURIComponent(js)+`">a &lt; b</pre>` {
		t.Fatalf("pre carrier %s", pre)
	}
	for _, h := range []string{div, pre, "<meta charset=utf-8>" + div} {
		back, err := DecodeFragmentHTML(h)
		if err != nil {
			t.Fatalf("%s: %v", h, err)
		}
		if got := string(must(back.Marshal())); got != js {
			t.Fatalf("decodes to %s", got)
		}
		if _, ok := back.Records[0].(*ThreadRecord); !ok {
			t.Fatalf("thread record decodes as %T", back.Records[0])
		}
	}
	// An attribute holding a quote is skipped: the next one is taken.
	skip := `<i data-t3-context-fragment="a'b"></i>` + div
	if _, err := DecodeFragmentHTML(skip); err != nil {
		t.Fatalf("a quoted value with a quote inside must be skipped: %v", err)
	}
	// The first qualifying attribute wins even when it is bad.
	first := `<i data-t3-context-fragment="%zz"></i>` + div
	if _, err := DecodeFragmentHTML(first); !errors.Is(err, ErrNoFragment) {
		t.Fatalf("the first qualifying attribute decides: %v", err)
	}
	// Size limits.
	huge := strings.Repeat(" ", MaxFragmentHTMLLen-len(div)+1) + div
	if _, err := DecodeFragmentHTML(huge); !errors.Is(err, ErrNoFragment) {
		t.Fatal("HTML over 64,000,000 characters must be refused")
	}
	if _, err := DecodeFragmentHTML(strings.Repeat(" ", MaxFragmentHTMLLen-len(div)) + div); err != nil {
		t.Fatalf("HTML of exactly 64,000,000 characters: %v", err)
	}
	bigJSON := `{"version":1,"source":{"environmentId":"e"},"records":[],"pad":"` + strings.Repeat("x", MaxFragmentLen) + `"}`
	if _, err := DecodeFragmentHTML(`<div data-t3-context-fragment="` + EncodeURIComponent(bigJSON) + `"></div>`); !errors.Is(err, ErrNoFragment) {
		t.Fatal("fragment JSON over 16,000,000 characters must be refused")
	}
}
