package chat

import (
	"strings"
	"testing"
)

// SplitCommand reads a slash command or says it is none; a name is never
// empty, never holds a space, a slash or a control, and the text starts
// with "/" and it.
func FuzzSplitCommand(f *testing.F) {
	for _, s := range []string{"/new", "/init tests please", "/etc/hosts is odd", "/", "//x", " /mode plan ", "/memory show x", "hello", "/x\ny"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		name, args, ok := SplitCommand(s)
		if !ok {
			return
		}
		if name == "" || strings.ContainsAny(name, " /\n\t") {
			t.Fatalf("%q: name %q", s, name)
		}
		if !strings.HasPrefix(strings.TrimSpace(s), "/"+name) {
			t.Fatalf("%q: name %q is not its start", s, name)
		}
		if args != strings.TrimSpace(args) {
			t.Fatalf("%q: args %q not trimmed", s, args)
		}
	})
}
