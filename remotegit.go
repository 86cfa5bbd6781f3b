package main

import (
	"context"
	"os/exec"
	"path"
	"slices"
	"strings"

	"github.com/chipchat/chipchat/internal/safegit"
	"github.com/chipchat/chipchat/remote"
)

// reviewGit is the review pane's commands on the remote (review.Git.Exec):
// over the master like remoteHost.Command, and a git command first lists
// the filter, diff and merge drivers the remote repository's config
// defines (there, with safegit's settings) and runs with each of them off,
// as safegit.Command does here; review's static settings alone do not
// know them, and `git diff` runs a filter's clean on the work tree. gh
// (the pull request's `gh pr view`) runs git there too: the same.
func (p *remoteProject) reviewGit(ctx context.Context, dir string, argv, env []string) (*exec.Cmd, error) {
	if len(argv) > 0 && (argv[0] == "git" || path.Base(argv[0]) == "gh") {
		env = gitEnvWithDrivers(env, p.remoteDrivers(ctx, dir))
	}
	return p.conn.Process(ctx, remote.Command{Argv: argv, Dir: dir, Env: env})
}

// remoteDrivers lists the drivers' settings of the repository at dir on
// the remote; none when git fails there (no repository: nothing to run).
// A NUL goes first, so what a login shell prints is an entry of its own.
func (p *remoteProject) remoteDrivers(ctx context.Context, dir string) []string {
	argv := append([]string{"sh", "-c", `printf '\000'; exec git "$@"`, "sh"}, safegit.DriverListArgs...)
	out, err := p.conn.RunCommand(ctx, remote.Command{Argv: argv, Dir: dir, Env: safegit.StaticEnv()}, nil)
	if err != nil {
		return nil
	}
	return safegit.Drivers(out)
}

// gitEnvWithDrivers is env (review's: safegit.StaticEnv and its own) with
// the git config entries replaced by safegit.EnvWith(drivers).
func gitEnvWithDrivers(env, drivers []string) []string {
	out := safegit.EnvWith(drivers)
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(name, "GIT_CONFIG_") || slices.ContainsFunc(out, func(e string) bool { return strings.HasPrefix(e, name+"=") }) {
			continue
		}
		out = append(out, kv)
	}
	return out
}
