// Package safegit builds every git command chipchat runs (the review
// pane's diff, rev-parse, merge-base and ls-files, the `@` file list,
// sourceRevision) and the environment of the programs that run git
// themselves (gh), so that no program a repository configures runs: a
// cloned repository's .git/config, .gitattributes or .git/info/attributes
// can name programs, and git runs them for commands as innocent as
// `git diff`. The list of what is turned off, and why, is in review/doc.go
// ("Git runs no repository-configured program").
//
// Settings go to git through GIT_CONFIG_COUNT / GIT_CONFIG_KEY_n /
// GIT_CONFIG_VALUE_n: they are command-scope settings (above every config
// file, inherited by the git processes git or gh start), and a key holds
// any filter name, where `-c name=value` would cut a name holding "=".
// The environment's GIT_CONFIG_PARAMETERS and GIT_CONFIG_COUNT (settings
// that would come after ours) are dropped, as are the variables that would
// choose another repository than dir's (GIT_DIR and its kind).
package safegit

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Settings are the config settings every command gets, in order, as
// key=value (the value may be empty: "unset" for a single-valued key, a
// reset of the list for credential.helper).
var Settings = []string{
	"core.fsmonitor=false",
	"core.hooksPath=/dev/null",
	"core.pager=cat",
	"pager.diff=false",
	"pager.show=false",
	"pager.log=false",
	"pager.ls-files=false",
	"pager.config=false",
	"color.pager=false",
	"diff.external=",
	"diff.submodule=short",
	"diff.ignoreSubmodules=dirty",
	"status.submoduleSummary=false",
	"submodule.recurse=false",
	"core.sshCommand=",
	"core.gitProxy=",
	"core.askPass=",
	"core.editor=:",
	"sequence.editor=:",
	"core.alternateRefsCommand=",
	"credential.helper=",
	"protocol.allow=never",
	"log.showSignature=false",
	"gpg.program=false",
	"gpg.ssh.program=false",
	"gpg.x509.program=false",
	"gpg.ssh.defaultKeyCommand=",
	"uploadpack.packObjectsHook=",
	"gc.auto=0",
	"maintenance.auto=false",
	"safe.bareRepository=explicit",
}

// Env is added to every command's environment.
var Env = []string{
	"GIT_CONFIG_NOSYSTEM=1",
	"GIT_ATTR_NOSYSTEM=1",
	"GIT_PAGER=cat",
	"PAGER=cat",
	"GIT_TERMINAL_PROMPT=0",
	"GIT_OPTIONAL_LOCKS=0",
	"GIT_NO_LAZY_FETCH=1",
}

// dropped are variables of our own environment no command inherits: they
// would choose another repository, put settings after ours, or name a
// program.
var dropped = []string{
	"GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_COMMON_DIR",
	"GIT_OBJECT_DIRECTORY", "GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_PREFIX",
	"GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT", "GIT_CONFIG",
	"GIT_EXTERNAL_DIFF",
}

// diffCommands are the subcommands that take --no-ext-diff and
// --no-textconv (and may run a diff driver's command or textconv without).
var diffCommands = []string{"diff", "show", "log", "diff-files", "diff-index", "diff-tree", "whatchanged"}

// driverListTimeout bounds the config listing of Command and Environ.
const driverListTimeout = 10 * time.Second

// Command is git (the git program; "git" when empty) running args in
// dir, with every repository-configured program off: the Settings and
// Env, every filter, diff and merge driver that the repository's config
// (or the user's) defines turned off (driverSettings), and for the diff
// subcommands --no-ext-diff and --no-textconv after the subcommand (args
// may start with "-c name=value" pairs: settings of the caller's, for the
// output's shape). Before
// it returns, it asks git (with the same settings) which drivers are
// configured.
func Command(ctx context.Context, git, dir string, args ...string) *exec.Cmd {
	if git == "" {
		git = "git"
	}
	cmd := exec.CommandContext(ctx, git, Args(args...)...)
	cmd.Dir = dir
	cmd.Env = Environ(ctx, git, dir, os.Environ())
	return cmd
}

// Args is the command line Command runs after the git program: args
// behind --no-pager and, for a diff subcommand, with --no-ext-diff and
// --no-textconv after it.
func Args(args ...string) []string {
	// The subcommand comes after any "-c name=value" pairs.
	i := 0
	for i+1 < len(args) && args[i] == "-c" {
		i += 2
	}
	if i < len(args) && slices.Contains(diffCommands, args[i]) {
		return slices.Concat([]string{"--no-pager"}, args[:i+1], []string{"--no-ext-diff", "--no-textconv"}, args[i+1:])
	}
	return append([]string{"--no-pager"}, args...)
}

// StaticEnv is Env plus the Settings as GIT_CONFIG_COUNT entries, for a
// git that runs elsewhere (a remote project's): the drivers its
// repository configures are not known here, so they are not listed.
func StaticEnv() []string { return environ(nil, Settings) }

// Environ is base (an environment, "KEY=value") made safe for git run in
// dir, by chipchat or by a program chipchat runs (gh): what Command sets,
// but not the command line.
func Environ(ctx context.Context, git, dir string, base []string) []string {
	if git == "" {
		git = "git"
	}
	settings := append(slices.Clone(Settings), driverSettings(ctx, git, dir, base)...)
	return environ(base, settings)
}

// environ is base without the dropped variables (and without earlier
// GIT_CONFIG_KEY_n / GIT_CONFIG_VALUE_n), plus Env and settings as
// GIT_CONFIG_COUNT entries.
func environ(base, settings []string) []string {
	out := make([]string, 0, len(base)+len(Env)+2*len(settings)+1)
	for _, kv := range base {
		name, _, _ := strings.Cut(kv, "=")
		if slices.Contains(dropped, name) || strings.HasPrefix(name, "GIT_CONFIG_KEY_") || strings.HasPrefix(name, "GIT_CONFIG_VALUE_") {
			continue
		}
		if slices.ContainsFunc(Env, func(e string) bool { return strings.HasPrefix(e, name+"=") }) {
			continue
		}
		out = append(out, kv)
	}
	out = append(out, Env...)
	out = append(out, "GIT_CONFIG_COUNT="+strconv.Itoa(len(settings)))
	for i, s := range settings {
		// At the last "=": no value of ours holds one, a driver's name
		// may ([filter "a=b"]).
		k, v := s, ""
		if j := strings.LastIndexByte(s, '='); j >= 0 {
			k, v = s[:j], s[j+1:]
		}
		n := strconv.Itoa(i)
		out = append(out, "GIT_CONFIG_KEY_"+n+"="+k, "GIT_CONFIG_VALUE_"+n+"="+v)
	}
	return out
}

// driverSettings turns off every filter, diff and merge driver git's
// config defines for dir (a .gitattributes names a driver; only config
// gives it a program): a filter's clean, smudge and process become
// nothing and it is not required (git then passes content through), a
// diff driver's command and textconv and a merge driver's driver become
// empty (git then fails rather than run anything, where --no-ext-diff and
// --no-textconv did not already skip them). The listing runs with the
// Settings; a failure (no repository, no git) lists nothing.
func driverSettings(ctx context.Context, git, dir string, base []string) []string {
	ctx, cancel := context.WithTimeout(ctx, driverListTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, git, DriverListArgs...)
	cmd.Dir = dir
	cmd.Env = environ(base, Settings)
	cmd.WaitDelay = time.Second
	var out bytes.Buffer
	cmd.Stdout = &out
	if cmd.Run() != nil {
		return nil
	}
	return Drivers(out.Bytes())
}

// DriverListArgs is the git command line (after the program) that lists
// the filter, diff and merge drivers git's config defines, for Drivers;
// run it with StaticEnv.
var DriverListArgs = []string{"--no-pager", "config", "--null", "--name-only", "--get-regexp", `^(filter|diff|merge)\.`}

// EnvWith is StaticEnv plus drivers (Drivers' settings), for a git that
// runs elsewhere whose config was listed there (DriverListArgs).
func EnvWith(drivers []string) []string {
	return environ(nil, append(slices.Clone(Settings), drivers...))
}

// Drivers is the settings that turn off the drivers of listing (the
// NUL-separated keys DriverListArgs prints; entries that are no key are
// skipped).
func Drivers(listing []byte) []string {
	var s []string
	add := func(kv string) {
		if !slices.Contains(s, kv) {
			s = append(s, kv)
		}
	}
	for _, key := range strings.Split(string(listing), "\x00") {
		// section.<name>.variable: the name is everything between the
		// first and the last dot.
		section, rest, _ := strings.Cut(key, ".")
		i := strings.LastIndexByte(rest, '.')
		if i < 0 {
			continue
		}
		name, variable := rest[:i], rest[i+1:]
		switch {
		case section == "filter":
			for _, v := range []string{"clean=", "smudge=", "process=", "required=false"} {
				add("filter." + name + "." + v)
			}
		case section == "diff" && (variable == "command" || variable == "textconv"),
			section == "merge" && variable == "driver":
			add(section + "." + name + "." + variable + "=")
		}
	}
	return s
}
