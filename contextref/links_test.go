package contextref

import (
	"strings"
	"testing"
)

func TestFormatLink(t *testing.T) {
	cases := []struct{ kind, id, label, want string }{
		{KindImage, "ctx_1", "shot.png", "![shot.png](t3-context://v1/image/ctx_1)"},
		{KindFile, "f", "a [b]\\c\r\nd", "[a b c d](t3-context://v1/file/f)"},
		{KindTerminal, "t", " \t ", "[terminal](t3-context://v1/terminal/t)"},
	}
	for _, c := range cases {
		if got := FormatLink(c.kind, c.id, c.label); got != c.want {
			t.Errorf("FormatLink(%q,%q,%q) = %q, want %q", c.kind, c.id, c.label, got, c.want)
		}
	}
}

func TestSanitizeLabelNeverSplitsSurrogatePairs(t *testing.T) {
	label := strings.Repeat("x", 199) + "😀tail"
	if got := SanitizeLabel(label, "file"); got != strings.Repeat("x", 199) {
		t.Fatalf("got %q", got)
	}
}

func TestParseHref(t *testing.T) {
	ok := []string{"t3-context://v1/image/ctx_1", "t3-context://v1/future-kind/ABC-def_1"}
	bad := []string{"t3-context://v1/image", "t3-context://v1/image/ctx_1/x", "t3-context://v2/image/a", "t3-context://v1/Image/a",
		"t3-context://v1/image/a?x", "t3-context://v1/image/a#f", "t3-context://u@v1/image/a", "t3-context://v1//a", "https://v1/image/a"}
	for _, h := range ok {
		if _, _, good := ParseHref(h); !good {
			t.Errorf("%q should parse", h)
		}
	}
	for _, h := range bad {
		if _, _, good := ParseHref(h); good {
			t.Errorf("%q should not parse", h)
		}
	}
}

func TestScanLimitsAndConsumption(t *testing.T) {
	label512 := strings.Repeat("x", 511) + "😀"[:4] // 511 + 2 units = 513: too long
	cases := []struct {
		name string
		text string
		want []string // context ids found, in order
	}{
		{"label of 512 units matches", "[" + strings.Repeat("x", 512) + "](t3-context://v1/file/a)", []string{"a"}},
		{"label of 513 units does not", "[" + label512 + "](t3-context://v1/file/a)", nil},
		{"inner bracket wins when the outer label is too long", "[" + strings.Repeat("x", 600) + "[in](t3-context://v1/file/a)", []string{"a"}},
		{"newline in label breaks it", "[a\nb](t3-context://v1/file/a)", nil},
		{"id of 128", "[a](t3-context://v1/file/" + strings.Repeat("i", 128) + ")", []string{strings.Repeat("i", 128)}},
		{"id of 129", "[a](t3-context://v1/file/" + strings.Repeat("i", 129) + ")", nil},
		// An href of 200 units is a match (consumed, though it does not parse);
		// one of 201 is not, so a link inside its label run can still match.
		{"200-unit href consumes", "[a](t3-context://v1/" + strings.Repeat("i", 198) + "[b)](t3-context://v1/file/y)", nil},
		{"201-unit href is no match", "[a](t3-context://v1/" + strings.Repeat("i", 199) + "[b)](t3-context://v1/file/y)", []string{"y"}},
		{"bad href consumes its characters", "[a](t3-context://v1/f/x[b)](t3-context://v1/f/y)", nil},
		{"image flag", "!![a](t3-context://v1/file/x)", []string{"x"}},
		{"whitespace ends the href", "[a](t3-context://v1/file/x y)", nil},
		{"nbsp ends the href", "[a](t3-context://v1/file/x\u00a0)", nil},
		{"two in a row", "[a](t3-context://v1/file/x)[b](t3-context://v1/file/y)", []string{"x", "y"}},
	}
	for _, c := range cases {
		var got []string
		for _, o := range Scan(c.text) {
			got = append(got, o.ContextID)
		}
		if strings.Join(got, ",") != strings.Join(c.want, ",") {
			t.Errorf("%s: got %v, want %v", c.name, got, c.want)
		}
	}
	if o := Scan("!![a](t3-context://v1/file/x)"); len(o) != 1 || !o[0].Image || o[0].Start != 1 {
		t.Errorf("image flag and offsets: %+v", o)
	}
}

func TestReplace(t *testing.T) {
	text := "a ![x](t3-context://v1/image/i) b [y](t3-context://v1/file/f) c"
	got := Replace(text, func(o Occurrence) string { return "<" + o.Kind + ":" + o.ContextID + ">" })
	if got != "a <image:i> b <file:f> c" {
		t.Fatalf("got %q", got)
	}
}
