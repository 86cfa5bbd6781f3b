package remote

import (
	"strings"
	"testing"
)

// uname's answers map onto Go's names; a login shell's noise before the
// line is skipped; what is not known is an error naming it.
func TestParseUname(t *testing.T) {
	for out, want := range map[string]Platform{
		"Linux x86_64\n":                       {"linux", "amd64"},
		"hello from .profile\nLinux aarch64\n": {"linux", "arm64"},
		"Darwin arm64":                         {"darwin", "arm64"},
		"FreeBSD amd64\n\n":                    {"freebsd", "amd64"},
	} {
		if got, err := ParseUname(out); err != nil || got != want {
			t.Errorf("%q: %v %v, want %v", out, got, err, want)
		}
	}
	for out, want := range map[string]string{"Plan9 x86_64": "unknown system", "Linux pdp11": "unknown machine", "": "not a system and a machine", "Linux": "not a system"} {
		if _, err := ParseUname(out); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", out, err, want)
		}
	}
}

// FuzzParseUname: any output parses without a panic, to a platform of
// known names or an error.
func FuzzParseUname(f *testing.F) {
	f.Add("Linux x86_64\n")
	f.Add("noise\nDarwin arm64")
	f.Add("Linux  \x00 x")
	f.Fuzz(func(t *testing.T, out string) {
		p, err := ParseUname(out)
		if err != nil {
			return
		}
		if p.OS == "" || p.Arch == "" || strings.ContainsAny(p.String(), " \n") {
			t.Fatalf("%q parsed as %+v", out, p)
		}
	})
}
