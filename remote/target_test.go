package remote

import (
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	entries := map[string]Entry{
		"box":    {Target: "dev@box.example:2222:/srv/app", Agent: "acp:claude-agent-acp"},
		"broken": {Target: "box.example"},
	}
	cases := []struct {
		in   string
		want Target
		key  string
	}{
		{"host:/p", Target{Host: "host", Path: "/p"}, "ssh://host/p"},
		{"me@host:/home/me/proj/", Target{User: "me", Host: "host", Path: "/home/me/proj"}, "ssh://host/home/me/proj"},
		{"me@host:2222:/p", Target{User: "me", Host: "host", Port: 2222, Path: "/p"}, "ssh://host:2222/p"},
		{"host:22:/p", Target{Host: "host", Port: 22, Path: "/p"}, "ssh://host/p"},
		{"[::1]:/p", Target{Host: "::1", Path: "/p"}, "ssh://[::1]/p"},
		{"u@[fe80::1]:2200:/p", Target{User: "u", Host: "fe80::1", Port: 2200, Path: "/p"}, "ssh://[fe80::1]:2200/p"},
		{"host:/p:with:colons", Target{Host: "host", Path: "/p:with:colons"}, "ssh://host/p:with:colons"},
		{"ssh://me@host:2222/srv/x", Target{User: "me", Host: "host", Port: 2222, Path: "/srv/x"}, "ssh://host:2222/srv/x"},
		{"ssh://host/srv/with%20space", Target{Host: "host", Path: "/srv/with space"}, "ssh://host/srv/with space"},
		{"ssh://[::1]:2022/p", Target{Host: "::1", Port: 2022, Path: "/p"}, "ssh://[::1]:2022/p"},
		{"box", Target{Name: "box", User: "dev", Host: "box.example", Port: 2222, Path: "/srv/app", Agent: "acp:claude-agent-acp"}, "ssh://box.example:2222/srv/app"},
	}
	for _, c := range cases {
		got, err := Parse(c.in, entries)
		if err != nil {
			t.Errorf("Parse(%q): %v", c.in, err)
			continue
		}
		if got != c.want {
			t.Errorf("Parse(%q) = %+v, want %+v", c.in, got, c.want)
		}
		if k := got.Key(); k != c.key {
			t.Errorf("Parse(%q).Key() = %q, want %q", c.in, k, c.key)
		}
		// String round-trips.
		again, err := Parse(got.String(), nil)
		if err != nil || again.Host != got.Host || again.Port != got.Port || again.User != got.User || again.Path != got.Path {
			t.Errorf("Parse(%q).String() = %q parses to %+v, %v", c.in, got.String(), again, err)
		}
	}
}

func TestParseErrors(t *testing.T) {
	entries := map[string]Entry{"broken": {Target: "box.example"}}
	cases := []struct{ in, want string }{
		{"", "empty target"},
		{"nobox", `"nobox" is neither a target`},
		{"broken", "[remotes.broken] target"},
		{"host:proj", "no absolute path"},
		{"host:99999:/p", "port \"99999\" is not a number"},
		{"host:x:/p", "port \"x\""},
		{"-oProxyCommand=evil:/p", "starts with '-'"},
		{"-l@host:/p", "user \"-l\" starts with '-'"},
		{"ho st:/p", "no host name has"},
		{":/p", "no host"},
		{"[::1:/p", "unclosed ["},
		{"http://host/p", "only ssh:// URLs"},
		{"ssh://host", "has no path"},
		{"ssh://u:pw@host/p", "no password"},
		{"ssh://host:0/p", "port \"0\""},
		{"ssh://host/p?x=1", "no query"},
		{"host:/p\n", "control character"},
	}
	for _, c := range cases {
		_, err := Parse(c.in, entries)
		if err == nil {
			t.Errorf("Parse(%q): no error, want one with %q", c.in, c.want)
			continue
		}
		msg := err.Error()
		if !strings.Contains(msg, c.want) || strings.Contains(msg, "\n") || !strings.HasPrefix(msg, "remote: ") {
			t.Errorf("Parse(%q) error %q, want one line starting remote: with %q", c.in, msg, c.want)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"host:/p", "u@h:22:/p", "ssh://u@h:2/p", "[::1]:/p", "box", "u@[::1]:9:/x", "ssh://[::1]/p%2f"} {
		f.Add(s)
	}
	entries := map[string]Entry{"box": {Target: "h:/p"}}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := Parse(s, entries)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("Parse(%q) error spans lines: %q", s, err)
			}
			return
		}
		if got.Host == "" || strings.HasPrefix(got.Host, "-") || strings.HasPrefix(got.User, "-") || !strings.HasPrefix(got.Path, "/") {
			t.Fatalf("Parse(%q) = %+v: a target ssh would misread", s, got)
		}
		if got.Port < 0 || got.Port > 65535 {
			t.Fatalf("Parse(%q) port %d", s, got.Port)
		}
		again, err := Parse(got.String(), nil)
		if err != nil {
			t.Fatalf("Parse(%q).String() = %q does not parse: %v", s, got.String(), err)
		}
		if again.Key() != got.Key() {
			t.Fatalf("key %q != %q after a round trip", again.Key(), got.Key())
		}
	})
}
