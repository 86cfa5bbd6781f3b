package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// runStart runs the command line as the binary does, with a config file
// of text ("": none) under a fresh XDG_CONFIG_HOME; it returns the exit
// code, stderr and the config file's path.
func runStart(t *testing.T, config string, args ...string) (int, string, string) {
	t.Helper()
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", dir)
	t.Setenv("CHIPCHAT_HOME", filepath.Join(dir, "data"))
	path := filepath.Join(dir, "chipchat", "config.toml")
	if config != "" {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(config), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var out, errb bytes.Buffer
	code := run(args, strings.NewReader(""), &out, &errb)
	if out.Len() != 0 {
		t.Errorf("chipchat %q: stdout %q", args, out.String())
	}
	if lines(errb.String()) != 1 {
		t.Errorf("chipchat %q: stderr is not one line: %q", args, errb.String())
	}
	return code, errb.String(), path
}

// Start-up errors say what the user wrote, once, in one line: the flag as
// typed, the spec's kind without repeating it, the config file that set a
// bad agent, a program not on PATH before anything starts (issue 25 item
// 13).
func TestStartErrorsSayWhatTheUserWrote(t *testing.T) {
	for _, tc := range []struct {
		name, config string
		args         []string
		code         int
		want, never  []string
	}{
		{name: "unknown long flag", args: []string{"--bogus"}, code: 2,
			want: []string{"chipchat: unknown flag --bogus ("}, never: []string{" -bogus"}},
		{name: "unknown short flag", args: []string{"-x"}, code: 2,
			want: []string{"unknown flag -x "}},
		{name: "flag without value", args: []string{"--data-dir"}, code: 2,
			want: []string{"flag needs an argument: --data-dir"}},
		{name: "acp without command", args: []string{"--agent", "acp:"}, code: 1,
			want: []string{`chipchat: agent "acp:": no command (write acp:<command>`}, never: []string{"acp: empty"}},
		{name: "acp program missing", args: []string{"--agent", "acp:definitely-not-a-cmd --acp"}, code: 1,
			want: []string{`agent "acp:definitely-not-a-cmd --acp": no program definitely-not-a-cmd on PATH`}},
		{name: "exec program missing", args: []string{"--agent", "exec:FOO=1 definitely-not-a-cmd"}, code: 1,
			want: []string{"no program definitely-not-a-cmd on PATH"}},
		{name: "acp path missing", args: []string{"--agent", "acp:/nonexistent/agent"}, code: 1,
			want: []string{"no program /nonexistent/agent (not an executable file)"}},
		{name: "config agent unknown", config: "agent = \"bogus\"\n", code: 1,
			want: []string{"chipchat: config CONFIG: unknown agent \"bogus\""}},
		{name: "config agent missing program", config: "agent = \"acp:definitely-not-a-cmd\"\n", code: 1,
			want: []string{`chipchat: config CONFIG: agent = "acp:definitely-not-a-cmd": no program definitely-not-a-cmd on PATH`}},
		{name: "config TOML", config: "agent = \"echo\"\nagent2 = = 1\n", code: 1,
			want: []string{"chipchat: config CONFIG:2:"}},
		// What starts still gets as far as the terminal check.
		{name: "acp program found", args: []string{"--agent", "acp:FOO=1 sh -c 'sleep 1'"}, code: 1,
			want: []string{"needs a terminal"}},
		{name: "shell construct", args: []string{"--agent", "exec:$HOME/bin/x"}, code: 1,
			want: []string{"needs a terminal"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stderr, path := runStart(t, tc.config, tc.args...)
			if code != tc.code {
				t.Errorf("exit %d, want %d (stderr %q)", code, tc.code, stderr)
			}
			for _, w := range tc.want {
				if w = strings.ReplaceAll(w, "CONFIG", path); !strings.Contains(stderr, w) {
					t.Errorf("stderr %q lacks %q", stderr, w)
				}
			}
			for _, n := range tc.never {
				if strings.Contains(stderr, n) {
					t.Errorf("stderr %q has %q", stderr, n)
				}
			}
		})
	}
}
