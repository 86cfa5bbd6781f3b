package clipboard

import (
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

func TestNormalizerLineEndsAndControls(t *testing.T) {
	in := "a\r\nb\rc\nd\x1b[31m\x07e\u0085f\tg\r"
	want := "a\nb\nc\nd[31mef\tg\n"
	for name, r := range map[string]io.Reader{
		"whole":    strings.NewReader(in),
		"one byte": iotest.OneByteReader(strings.NewReader(in)),
		"half":     iotest.HalfReader(strings.NewReader(in)),
	} {
		b, err := io.ReadAll(NewNormalizer(r))
		if err != nil || string(b) != want {
			t.Errorf("%s: %q %v, want %q", name, b, err, want)
		}
	}
	// The same rules as the draft.
	if got := string(mustRead(t, NewNormalizer(strings.NewReader(in)))); got != NormalizeText(in) {
		t.Errorf("normalizer %q, the draft's rules %q", got, NormalizeText(in))
	}
}

func mustRead(t *testing.T, r io.Reader) []byte {
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
