//go:build unix

package agent

import "syscall"

// helperReplace replaces the process with prog.
func helperReplace(prog string, argv, env []string) error {
	return syscall.Exec(prog, argv, env)
}
