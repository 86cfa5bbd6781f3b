// Package safegittest makes a hostile repository for tests of chipchat's
// git commands: its .git/config, hooks and .gitattributes name, for every
// setting that can make git run a program, a script that appends a line
// to a marker file. A test runs chipchat's commands in it and asserts the
// marker stayed empty; Arm shows that plain git runs the scripts there.
// Init and Git are the tests' own git, for plain repositories too.
package safegittest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chipchat/chipchat/internal/testenv"
)

// Hooks are the hook names of githooks(5) (git 2.39).
var Hooks = strings.Fields(`applypatch-msg pre-applypatch post-applypatch pre-commit pre-merge-commit
	prepare-commit-msg commit-msg post-commit pre-rebase post-checkout post-merge pre-push pre-receive
	update proc-receive post-receive post-update reference-transaction push-to-checkout pre-auto-gc
	post-rewrite sendemail-validate fsmonitor-watchman p4-changelist p4-prepare-changelist
	p4-post-changelist p4-pre-submit post-index-change`)

// Repo is the hostile repository.
type Repo struct {
	Dir    string // the work tree
	Marker string // the file the scripts append to
	Bin    string // holds the script, "evil"
	Head   string // HEAD's commit
}

// New makes the repository: committed files (main.go, clean.txt,
// process.txt, required.txt, dotted.txt, textconv.txt, .gitattributes
// naming a filter or a diff driver for each), a branch "topic", then the
// hostile config, a modification of every file, one staged change and an
// untracked file.
func New(t testing.TB) *Repo {
	t.Helper()
	testenv.NeedCommands(t, "apt-get install git", "git")
	root := t.TempDir()
	r := &Repo{Dir: filepath.Join(root, "repo"), Marker: filepath.Join(root, "marker"), Bin: filepath.Join(root, "bin")}
	for _, d := range []string{r.Dir, r.Bin} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	evil := filepath.Join(r.Bin, "evil")
	// Filters and textconv must still pass the content through.
	script := "#!/bin/sh\necho \"$*\" >> '" + r.Marker + "'\ncase \"$1\" in\nclean|smudge) cat ;;\ntextconv) cat \"$2\" ;;\nesac\nexit 0\n"
	write(t, evil, script, 0o755)
	files := map[string]string{
		"main.go":      "package main\n\nfunc main() {}\n",
		"clean.txt":    "clean\n",
		"process.txt":  "process\n",
		"required.txt": "required\n",
		"dotted.txt":   "dotted\n",
		"textconv.txt": "textconv\n",
		"staged.txt":   "staged\n",
		".gitattributes": "* diff=evil\nclean.txt filter=evilc\nprocess.txt filter=evilp\nrequired.txt filter=req\n" +
			"dotted.txt filter=dot.ted\ntextconv.txt diff=tc\nuntracked.txt filter=evilc\n",
	}
	Init(t, r.Dir, files)
	Git(t, r.Dir, "branch", "topic")
	r.Head = Git(t, r.Dir, "rev-parse", "HEAD")

	hooks := filepath.Join(root, "hooks")
	for _, dir := range []string{hooks, filepath.Join(r.Dir, ".git", "hooks")} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for _, h := range Hooks {
			write(t, filepath.Join(dir, h), "#!/bin/sh\nexec '"+evil+"' hook "+h+" \"$@\"\n", 0o755)
		}
	}
	e := "'" + evil + "'"
	for _, kv := range [][2]string{
		{"core.fsmonitor", e + " fsmonitor"},
		{"core.hooksPath", hooks},
		{"core.pager", e + " core.pager"},
		{"pager.diff", e + " pager.diff"},
		{"pager.show", e + " pager.show"},
		{"pager.log", e + " pager.log"},
		{"diff.external", e + " diff.external"},
		{"diff.evil.command", e + " diff.evil.command"},
		{"diff.tc.textconv", e + " textconv"},
		{"filter.evilc.clean", e + " clean"},
		{"filter.evilc.smudge", e + " smudge"},
		{"filter.evilp.process", e + " process"},
		{"filter.evilp.required", "true"},
		{"filter.req.clean", e + " clean required"},
		{"filter.req.required", "true"},
		{"filter.dot.ted.clean", e + " clean dotted"},
		{"core.sshCommand", e + " ssh"},
		{"core.gitProxy", e + " gitProxy"},
		{"core.askPass", e + " askPass"},
		{"core.editor", e + " editor"},
		{"sequence.editor", e + " sequence.editor"},
		{"credential.helper", "!" + e + " credential"},
		{"gpg.program", e + " gpg"},
		{"gpg.ssh.program", e + " gpg.ssh"},
		{"log.showSignature", "true"},
		{"core.alternateRefsCommand", e + " alternateRefs"},
		{"uploadpack.packObjectsHook", e + " packObjectsHook"},
		{"interactive.diffFilter", e + " diffFilter"},
		{"diff.tool", "evil"},
		{"difftool.evil.cmd", e + " difftool"},
		{"merge.evil.driver", e + " merge.driver"},
		{"remote.origin.url", "ext::" + e + " ext-transport"},
		{"remote.origin.uploadpack", e + " uploadpack"},
		{"protocol.allow", "always"},
		{"gc.auto", "1"},
		{"core.untrackedCache", "true"},
	} {
		Git(t, r.Dir, "config", kv[0], kv[1])
	}
	for name, text := range files {
		if name != ".gitattributes" {
			write(t, filepath.Join(r.Dir, name), text+"changed\n", 0o644)
		}
	}
	// Staged with the filters off (this is the test's own git).
	Git(t, r.Dir, "-c", "filter.evilc.clean=", "-c", "filter.evilp.process=", "-c", "filter.evilp.required=false",
		"-c", "filter.req.clean=", "-c", "filter.req.required=false", "-c", "filter.dot.ted.clean=",
		"-c", "core.fsmonitor=false", "-c", "core.hooksPath=/dev/null", "add", "staged.txt")
	write(t, filepath.Join(r.Dir, "untracked.txt"), "untracked\n", 0o644)
	r.Reset(t)
	return r
}

// Ran is what the scripts wrote, a line per run.
func (r *Repo) Ran() []string {
	b, _ := os.ReadFile(r.Marker)
	return strings.Fields(strings.ReplaceAll(strings.TrimSpace(string(b)), " ", "_"))
}

// Reset empties the marker.
func (r *Repo) Reset(t testing.TB) {
	t.Helper()
	if err := os.WriteFile(r.Marker, nil, 0o644); err != nil {
		t.Fatal(err)
	}
}

// Arm runs plain git in the repository — what chipchat runs, without its
// settings — and fails unless that ran the scripts for the fsmonitor, the
// clean filter, the process filter, the diff driver's command and a
// hook; then
// it empties the marker. It shows the repository can catch a command that
// is not made safe.
func (r *Repo) Arm(t testing.TB) {
	t.Helper()
	for _, args := range [][]string{
		{"rev-parse", "--show-toplevel"},
		{"diff", "HEAD", "--"},
		{"diff", "--cached", "HEAD", "--"},
		{"ls-files", "-z", "--cached", "--others", "--exclude-standard"},
		{"status", "--porcelain"},
	} {
		cmd := exec.Command("git", args...)
		cmd.Dir = r.Dir
		cmd.Env = gitEnv()
		_ = cmd.Run() // the scripts make some of them fail
	}
	ran := strings.Join(r.Ran(), "\n")
	for _, want := range []string{"fsmonitor", "clean", "process", "diff.evil.command", "hook_post-index-change"} {
		if !strings.Contains(ran, want) {
			t.Errorf("plain git in the hostile repository did not run %q; it ran:\n%s", want, ran)
		}
	}
	r.Reset(t)
}

// Init makes dir a repository on branch main with files (slash-separated
// paths to their text) committed, as the test's own git (Git).
func Init(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	testenv.NeedCommands(t, "apt-get install git", "git")
	Git(t, dir, "init", "-q", "-b", "main")
	Git(t, dir, "config", "user.email", "t@example.com")
	Git(t, dir, "config", "user.name", "T")
	Git(t, dir, "config", "commit.gpgsign", "false")
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		write(t, p, text, 0o644)
	}
	Git(t, dir, "add", "-A")
	Git(t, dir, "commit", "-q", "-m", "init")
}

func write(t testing.TB, p, text string, mode os.FileMode) {
	t.Helper()
	if err := os.WriteFile(p, []byte(text), mode); err != nil {
		t.Fatal(err)
	}
}

// Git runs the test's own git in dir, without the global and system
// config, and returns its output trimmed; it fails the test when git
// fails.
func Git(t testing.TB, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = gitEnv()
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// gitEnv is the environment without the global and system git config.
func gitEnv() []string {
	return append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_SYSTEM=/dev/null")
}
