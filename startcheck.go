package main

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/chipchat/chipchat/agent"
	"github.com/chipchat/chipchat/config"
)

// flagError is the flag package's parse error with the flag as the user
// typed it: "unknown flag --bogus", "flag needs an argument: --data-dir"
// (the package says "-bogus" whatever was typed).
func flagError(err error, args []string) string {
	msg := err.Error()
	const undefined = "flag provided but not defined: "
	i := strings.LastIndex(msg, ": -")
	if i < 0 {
		return msg
	}
	name := strings.TrimLeft(msg[i+2:], "-")
	typed := "-" + name
	for _, a := range args {
		if a == "--" {
			break
		}
		if !strings.HasPrefix(a, "-") {
			continue
		}
		flagName, _, _ := strings.Cut(a, "=")
		if strings.TrimLeft(flagName, "-") == name {
			typed = flagName
			break
		}
	}
	if strings.HasPrefix(msg, undefined) {
		return "unknown flag " + typed
	}
	return msg[:i+2] + typed
}

// checkAgent refuses, before anything starts, a spec the backend would
// refuse at the first send: an unknown kind, an acp: or exec: agent
// without a command, or one whose program is not on PATH. A spec from the
// config file names the file. cwd is the start directory: a relative
// program path is the project directory's, where the agent runs.
func checkAgent(spec string, cfg config.Config, fromConfig bool, cwd string) error {
	where := "agent " + quoteArg(strings.TrimSpace(spec))
	if fromConfig && cfg.Path != "" {
		where = "config " + cfg.Path + ": agent = " + quoteArg(strings.TrimSpace(spec))
	}
	kind, rest, err := agent.KindOf(spec)
	if err != nil {
		if fromConfig && cfg.Path != "" {
			return fmt.Errorf("config %s: %w", cfg.Path, err)
		}
		return err
	}
	if kind.Scheme != "acp" && kind.Scheme != "exec" {
		return nil
	}
	rest = strings.TrimSpace(rest)
	if rest == "" {
		return fmt.Errorf("%s: no command (write %s, e.g. %s)", where, kind.Spec, kindExample(kind.Scheme))
	}
	prog, ok := commandProgram(rest)
	if !ok {
		return nil // a shell construct: sh finds out
	}
	if strings.Contains(prog, "/") && !filepath.IsAbs(prog) {
		prog = filepath.Join(projectDir(cwd), prog)
	}
	if _, err := exec.LookPath(prog); err != nil {
		if strings.Contains(prog, "/") {
			return fmt.Errorf("%s: no program %s (not an executable file)", where, prog)
		}
		return fmt.Errorf("%s: no program %s on PATH", where, prog)
	}
	return nil
}

func kindExample(scheme string) string {
	if scheme == "acp" {
		return "acp:'gemini --acp'"
	}
	return "exec:'cat'"
}

// shellWords are what sh runs without a program on PATH: keywords and
// builtins a command line may start with.
var shellWords = map[string]bool{
	"!": true, ".": true, ":": true, "[": true, "{": true, "alias": true, "break": true, "case": true,
	"cd": true, "command": true, "continue": true, "eval": true, "exec": true, "exit": true,
	"export": true, "false": true, "for": true, "if": true, "printf": true, "echo": true,
	"read": true, "readonly": true, "set": true, "shift": true, "test": true, "trap": true,
	"true": true, "type": true, "ulimit": true, "umask": true, "unset": true, "until": true,
	"wait": true, "while": true,
}

// commandProgram is the program a sh command line runs first: its first
// word after VAR=value assignments, unquoted when the whole word is quoted.
// ok is false when that cannot be known without a shell (expansions,
// redirections, subshells, builtins and keywords).
func commandProgram(line string) (prog string, ok bool) {
	for _, w := range strings.Fields(line) {
		if len(w) >= 2 && (w[0] == '\'' || w[0] == '"') && w[len(w)-1] == w[0] {
			w = w[1 : len(w)-1]
		} else if strings.ContainsAny(w, "'\"") {
			return "", false
		}
		if strings.ContainsAny(w, "$`\\(){}|&;<>*?~[]") && w != "[" {
			return "", false
		}
		if name, _, isAssign := strings.Cut(w, "="); isAssign && name != "" && !strings.Contains(name, "/") {
			continue
		}
		if shellWords[w] {
			return "", false
		}
		return w, w != ""
	}
	return "", false
}
