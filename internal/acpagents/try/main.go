// Command try points one real ACP agent (claude, codex, gemini, opencode;
// installed from npm) at a fake model server, so that it can be tried in
// chipchat without an account or network: it prints the --agent line and
// what to type, and serves until interrupted.
//
//	go run ./internal/acpagents/try [-project DIR] AGENT
package main

import (
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/chipchat/chipchat/internal/acpagents"
)

func main() {
	project := flag.String("project", ".", "the project the agent's edits and commands work in")
	flag.Usage = func() {
		fmt.Fprintf(os.Stderr, "usage: go run ./internal/acpagents/try [-project DIR] AGENT\nAGENT is one of:")
		for _, a := range acpagents.Agents {
			fmt.Fprintf(os.Stderr, " %s", a.Name)
		}
		fmt.Fprintln(os.Stderr)
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 1 {
		flag.Usage()
		os.Exit(2)
	}
	if err := run(flag.Arg(0), *project); err != nil {
		fmt.Fprintln(os.Stderr, "try:", err)
		os.Exit(1)
	}
}

func run(name, project string) error {
	a, err := acpagents.Find(name)
	if err != nil {
		return err
	}
	if !a.Available() {
		return fmt.Errorf("%s is not on your PATH (npm i -g %s)", a.Binary, a.Package)
	}
	root, err := os.MkdirTemp("", "chipchat-try-"+a.Name+"-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(root)
	tr, err := acpagents.StartTrial(a, root, project)
	if err != nil {
		return err
	}
	defer tr.Close()
	tr.Guide(os.Stdout)
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	<-sig
	return nil
}
