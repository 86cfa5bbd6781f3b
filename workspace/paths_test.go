package workspace

import "testing"

func TestExpandPath(t *testing.T) {
	home, dir := "/home/u", "/work/p"
	for in, want := range map[string]string{
		"a.txt":       "/work/p/a.txt",
		"sub/../b":    "/work/p/b",
		"/etc/hosts":  "/etc/hosts",
		"~/x.png":     "/home/u/x.png",
		"~":           "/home/u",
		"~other/file": "/work/p/~other/file",
	} {
		if got := ExpandPath(in, dir, home); got != want {
			t.Errorf("ExpandPath(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCommonPrefix(t *testing.T) {
	if got := CommonPrefix([]string{"sub/a.txt", "sub/ab", "sub/a/"}); got != "sub/a" {
		t.Errorf("CommonPrefix = %q, want sub/a", got)
	}
}
