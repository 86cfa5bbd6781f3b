package safegit_test

import (
	"bytes"
	"context"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/chipchat/chipchat/internal/safegit"
	"github.com/chipchat/chipchat/internal/safegit/safegittest"
)

// Every command chipchat runs, and more, runs none of the hostile
// repository's programs, and still gives git's answer.
func TestNoRepositoryProgramRuns(t *testing.T) {
	r := safegittest.New(t)
	r.Arm(t)
	for _, args := range [][]string{
		{"rev-parse", "--show-toplevel"},
		{"rev-parse", "--verify", "--quiet", "HEAD^{commit}"},
		{"merge-base", "topic", "HEAD"},
		{"diff", "--no-color", "-U3", "-M", "HEAD", "--"},
		{"diff", "--cached", "HEAD", "--"},
		{"diff", "topic", "--"},
		{"ls-files", "-z", "--cached", "--others", "--exclude-standard"},
		{"ls-files", "-z", "--deleted"},
		{"ls-files", "-z", "--modified"},
		{"status", "--porcelain"},
		{"show", "HEAD"},
		{"log", "-p", "-1"},
		{"fetch", "origin"},
		{"ls-remote", "origin"},
		{"gc", "--auto"},
	} {
		var out, errb bytes.Buffer
		cmd := safegit.Command(context.Background(), "", r.Dir, args...)
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		if ran := r.Ran(); len(ran) > 0 {
			t.Errorf("git %v ran %q", args, ran)
			r.Reset(t)
		}
		switch args[0] {
		case "fetch", "ls-remote":
			if err == nil || !strings.Contains(errb.String(), "transport 'ext' not allowed") {
				t.Errorf("git %v: %v %s", args, err, errb.String())
			}
			continue
		}
		if err != nil {
			t.Errorf("git %v: %v\n%s", args, err, errb.String())
		}
		if args[0] == "diff" && args[1] != "--cached" && !strings.Contains(out.String(), "+changed") {
			t.Errorf("git %v shows no change:\n%s", args, out.String())
		}
	}
}

// A program that runs git itself (gh) gets the settings through its
// environment, GIT_CONFIG_PARAMETERS of ours dropped.
func TestEnvironReachesChildGit(t *testing.T) {
	r := safegittest.New(t)
	r.Arm(t)
	sh := func(env []string) string {
		var out bytes.Buffer
		cmd := safegit.Command(context.Background(), "", r.Dir)
		cmd.Path, cmd.Args = "/bin/sh", []string{"sh", "-c", "git diff HEAD; git status --porcelain; git log -1 --show-signature -p"}
		cmd.Env, cmd.Stdout = env, &out
		_ = cmd.Run()
		return out.String()
	}
	out := sh(safegit.Environ(context.Background(), "", r.Dir, append(os.Environ(), "GIT_CONFIG_PARAMETERS='core.fsmonitor'='"+r.Bin+"/evil'")))
	if ran := r.Ran(); len(ran) > 0 {
		t.Errorf("git under gh's environment ran %q", ran)
	}
	// git status still answers; a plain git diff fails rather than run
	// the diff driver's command.
	if !strings.Contains(out, " M main.go") {
		t.Errorf("no status:\n%s", out)
	}
	// The control: without it, they run.
	sh(os.Environ())
	if len(r.Ran()) == 0 {
		t.Error("the control ran nothing")
	}
}

func TestEnvironKeepsAndDrops(t *testing.T) {
	base := []string{"HOME=/h", "GIT_DIR=/x", "GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=core.pager", "GIT_CONFIG_VALUE_0=less",
		"GIT_EXTERNAL_DIFF=x", "PAGER=less", "GIT_AUTHOR_NAME=me"}
	env := safegit.Environ(context.Background(), "", t.TempDir(), base)
	for _, want := range []string{"HOME=/h", "GIT_AUTHOR_NAME=me", "PAGER=cat", "GIT_PAGER=cat", "GIT_CONFIG_NOSYSTEM=1",
		"GIT_CONFIG_KEY_0=core.fsmonitor", "GIT_CONFIG_VALUE_0=false"} {
		if !slices.Contains(env, want) {
			t.Errorf("no %s in %q", want, env)
		}
	}
	for _, bad := range []string{"GIT_DIR=/x", "GIT_CONFIG_COUNT=1", "GIT_CONFIG_VALUE_0=less", "GIT_EXTERNAL_DIFF=x", "PAGER=less"} {
		if slices.Contains(env, bad) {
			t.Errorf("%s kept", bad)
		}
	}
	cmd := safegit.Command(context.Background(), "/usr/bin/git", ".", "diff", "HEAD")
	if got := strings.Join(cmd.Args[1:], " "); got != "--no-pager diff --no-ext-diff --no-textconv HEAD" {
		t.Errorf("args %q", got)
	}
	cmd = safegit.Command(context.Background(), "", ".", "-c", "color.ui=false", "show", "HEAD")
	if got := strings.Join(cmd.Args[1:], " "); got != "--no-pager -c color.ui=false show --no-ext-diff --no-textconv HEAD" {
		t.Errorf("args %q", got)
	}
}

// FuzzDrivers: any listing (a remote repository's config is the remote's
// to write) gives settings that each turn a driver off: a filter's
// program or a diff/merge driver's command set to nothing, or a filter
// not required; never a value that names a program.
func FuzzDrivers(f *testing.F) {
	f.Add([]byte("filter.lfs.clean\x00diff.evil.command\x00merge.m.driver\x00"))
	f.Add([]byte("noise\n\x00filter.dot.ted.process\x00diff.tc.textconv\x00core.pager\x00"))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, listing []byte) {
		for _, kv := range safegit.Drivers(listing) {
			j := strings.LastIndexByte(kv, '=')
			if j < 0 || strings.LastIndexByte(kv[:j], '.') < 0 {
				t.Fatalf("setting %q", kv)
			}
			k, v := kv[:j], kv[j+1:]
			if v != "" && !(strings.HasSuffix(k, ".required") && v == "false") {
				t.Fatalf("setting %q gives a value", kv)
			}
		}
	})
}

// A driver whose name holds "=" ([filter "a=b"]) is turned off under its
// whole name: the environment's key is cut at the last "=", not the
// first (which made it filter.a, a setting that turns nothing off).
func TestDriverNameWithEquals(t *testing.T) {
	env := safegit.EnvWith(safegit.Drivers([]byte("filter.a=b.clean\x00")))
	keys := map[string]string{}
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		keys[k] = v
	}
	found := false
	for k, v := range keys {
		if strings.HasPrefix(k, "GIT_CONFIG_KEY_") && v == "filter.a=b.clean" {
			found = keys["GIT_CONFIG_VALUE_"+strings.TrimPrefix(k, "GIT_CONFIG_KEY_")] == ""
		}
	}
	if !found {
		t.Fatalf("no GIT_CONFIG_KEY_n=filter.a=b.clean with an empty value in %q", env)
	}
}
