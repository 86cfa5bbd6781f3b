package agent

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	acp "github.com/coder/acp-go-sdk"
)

// HelperExec is `chipchat remote-helper exec --root DIR… --cwd DIR --
// COMMAND [ARG…]`, an agent's terminal on a Host (the pane's tab runs it
// over ssh -tt): cwd is found inside one of the roots through acpFS, as a
// read would be (os.Root: no symlink or .. out of the root), the process
// moves there, and the command replaces it (a command line without args
// runs through sh -c, as ExecTerminals does). It returns only when the
// command cannot run.
func HelperExec(args []string) error {
	var roots []string
	cwd := ""
	for len(args) > 0 && args[0] != "--" {
		if len(args) < 2 || args[0] != "--root" && args[0] != "--cwd" {
			return errors.New("usage: chipchat remote-helper exec --root DIR… --cwd DIR -- COMMAND [ARG…]")
		}
		if args[0] == "--root" {
			roots = append(roots, args[1])
		} else {
			cwd = args[1]
		}
		args = args[2:]
	}
	if len(args) < 2 || len(roots) == 0 {
		return errors.New("usage: chipchat remote-helper exec --root DIR… --cwd DIR -- COMMAND [ARG…]")
	}
	if cwd == "" {
		cwd = roots[0]
	}
	dir, err := helperDir(roots, cwd)
	if err != nil {
		return err
	}
	if err := os.Chdir(dir); err != nil {
		return err
	}
	argv := acpTerminalArgv(args[1], args[2:])
	prog, err := exec.LookPath(argv[0])
	if err != nil {
		return err
	}
	return helperReplace(prog, argv, os.Environ())
}

// helperDir is where cwd really is, once found a directory inside one of
// roots through their os.Root; the refusal's message otherwise.
func helperDir(roots []string, cwd string) (string, error) {
	f := newACPFS(nil)
	defer f.close()
	t, err := f.target(roots, cwd)
	if err != nil {
		return "", helperErr(err)
	}
	d, err := t.r.root.OpenRoot(t.rel)
	if err != nil {
		return "", helperErr(t.fail(err))
	}
	defer d.Close()
	o, err := d.Open(".")
	if err != nil {
		return "", helperErr(t.fail(err))
	}
	defer o.Close()
	if real, err := acpFdPath(o); err == nil {
		return real, nil
	}
	if err := t.linkFree(t.rel); err != nil {
		return "", helperErr(err)
	}
	return filepath.Join(t.r.path, t.rel), nil
}

// helperErr is a refusal's message as the error of the command.
func helperErr(err error) error {
	var re *acp.RequestError
	if errors.As(err, &re) {
		return errors.New("chipchat refused the terminal's directory: " + re.Message)
	}
	return err
}

// acpTerminalArgv is how a terminal's command runs: a command without
// args that looks like a shell line ("ls -la | wc") through sh -c, as
// agents send both forms.
func acpTerminalArgv(command string, args []string) []string {
	if len(args) == 0 && strings.ContainsAny(command, " \t|&;<>()$`\"'*?~\n") {
		return []string{"sh", "-c", command}
	}
	return append([]string{command}, args...)
}
