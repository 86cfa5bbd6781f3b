package main

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/chipchat/chipchat/internal/testenv"
)

// A real ACP agent (Gemini CLI, installed from the npm registry by
// .ci/run): chipchat starts it, initializes, opens a session in the
// project directory; with no credentials the agent asks to sign in and the
// user sees its methods as a prompt; dismissing it fails the turn inline
// with a retry hint; quitting ends the agent's process.
func TestEndToEndRealACPAgent(t *testing.T) {
	if _, err := exec.LookPath("gemini"); err != nil {
		testenv.Missing(t, "gemini (npm @google/gemini-cli) is not installed; .ci/run installs it")
	}
	bin := chipchatBinary(t)
	root := t.TempDir()
	proj := filepath.Join(root, "proj")
	writeFile(t, filepath.Join(proj, "README"), "x\n")
	home := filepath.Join(root, "home")
	command := fmt.Sprintf("cd %q && env -u GEMINI_API_KEY -u GOOGLE_API_KEY HOME=%q XDG_CONFIG_HOME=%q TERM=xterm-256color %q --data-dir %q --agent 'acp:gemini --experimental-acp'; echo EXITED=$?; sleep 600",
		proj, home, filepath.Join(home, ".config"), bin, filepath.Join(root, "data"))
	s := startTmux(t, command)
	s.waitFor("agent acp:gemini", "enter send")
	s.text("hello")
	s.keys("Enter")
	s.waitFor("Sign in", "Gemini API key", "esc dismiss")
	s.keys("Escape")
	s.waitFor("sign-in dismissed", "alt+r retries")
	s.keys("C-q")
	s.waitFor("EXITED=0")
	deadline := time.Now().Add(5 * time.Second)
	for exec.Command("pgrep", "-f", "node.*gemini").Run() == nil {
		if time.Now().After(deadline) {
			out, _ := exec.Command("pgrep", "-af", "node.*gemini").Output()
			t.Fatalf("the agent outlived chipchat: %s", out)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
