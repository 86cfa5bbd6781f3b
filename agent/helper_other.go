//go:build !unix

package agent

import (
	"os"
	"os/exec"
)

// helperReplace runs prog and exits with its status (the system cannot
// replace a process).
func helperReplace(prog string, argv, env []string) error {
	cmd := exec.Command(prog, argv[1:]...)
	cmd.Env, cmd.Stdin, cmd.Stdout, cmd.Stderr = env, os.Stdin, os.Stdout, os.Stderr
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		os.Exit(ee.ExitCode())
	}
	if err == nil {
		os.Exit(0)
	}
	return err
}
