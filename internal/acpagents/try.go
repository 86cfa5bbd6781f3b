package acpagents

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/chipchat/chipchat/internal/fakemodel"
)

// Trial is one real agent pointed at a fake model server, for a person to
// try in chipchat (go run ./internal/acpagents/try AGENT): the server runs
// until Close, and Script is an executable that starts the agent with its
// own home and the fake model's address, for `chipchat --agent acp:SCRIPT`.
type Trial struct {
	Agent  Agent
	Dirs   Dirs
	Files  Files
	Server *fakemodel.Server
	Script string // absolute path of the agent's start script
}

// StartTrial sets agent a up under root (its home, config, the script)
// against a new fake model whose edits and commands work on project.
func StartTrial(a Agent, root, project string) (*Trial, error) {
	d, err := NewDirs(root)
	if err != nil {
		return nil, err
	}
	project, err = filepath.Abs(project)
	if err != nil {
		return nil, err
	}
	tr := &Trial{Agent: a, Dirs: d, Files: DefaultFiles(project)}
	tr.Server = fakemodel.New(a.Provider, Responder(a, tr.Files))
	extra, err := a.Setup(d, tr.Server.URL)
	if err != nil {
		tr.Server.Close()
		return nil, err
	}
	tr.Script = filepath.Join(root, a.Name+"-fake-model.sh")
	if err := os.WriteFile(tr.Script, []byte(StartScript(d.Env(extra), a.Argv)), 0o755); err != nil {
		tr.Server.Close()
		return nil, err
	}
	return tr, nil
}

// Close stops the fake model server.
func (tr *Trial) Close() { tr.Server.Close() }

// StartScript is a sh script that runs argv with exactly env (env -i).
func StartScript(env, argv []string) string {
	var b strings.Builder
	b.WriteString("#!/bin/sh\n# Written by go run ./internal/acpagents/try: the agent with its own home, pointed at the fake model.\nexec env -i")
	for _, kv := range env {
		b.WriteString(" \\\n  " + shQuote(kv))
	}
	for _, arg := range argv {
		b.WriteString(" " + shQuote(arg))
	}
	b.WriteString(" \"$@\"\n")
	return b.String()
}

func shQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_=/.,:@") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// Guide writes what to run and what to type.
func (tr *Trial) Guide(w io.Writer) {
	f := tr.Files
	fmt.Fprintf(w, "%s is pointed at a fake model at %s (it runs until ctrl+c).\n", tr.Agent.Name, tr.Server.URL)
	fmt.Fprintf(w, "In another terminal, in %s, start chipchat with it:\n\n", filepath.Dir(f.Notes))
	fmt.Fprintf(w, "  chipchat --agent acp:%s\n\n", tr.Script)
	fmt.Fprintf(w, "The fake model answers the last of these words in your message:\n")
	fmt.Fprintf(w, "  %-12s replies %q\n", MarkPing1, ReplyPing1)
	fmt.Fprintf(w, "  %-12s runs %s (the agent may ask first)\n", MarkSeq, f.SeqCommand)
	fmt.Fprintf(w, "  %-12s runs %s\n", MarkShell, f.Command)
	fmt.Fprintf(w, "  %-12s replaces the line %q in %s by %q (asks first; make the file to try it)\n", MarkEditAllow, f.OldLine, f.Notes, f.AllowLine)
	fmt.Fprintf(w, "  %-12s streams a little text, then stalls (esc stops the turn)\n", MarkHang)
	fmt.Fprintf(w, "  %-12s the model fails with HTTP 400\n", MarkFail)
	fmt.Fprintf(w, "Anything else gets %q.\n", ReplyAux)
}
