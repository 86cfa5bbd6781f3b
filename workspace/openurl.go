package workspace

import (
	"os"
	"os/exec"
	"strings"
)

// OpenURL opens an http(s) link the agent gave with $BROWSER (its first
// command, the link as its one argument) when set, else as OpenPath does;
// it says what happened. It runs a process: call it off the UI goroutine.
func OpenURL(u string) string {
	if b := strings.TrimSpace(strings.Split(os.Getenv("BROWSER"), ":")[0]); b != "" {
		if bin, err := exec.LookPath(b); err == nil {
			c := exec.Command(bin, u)
			if err := c.Start(); err == nil {
				go func() { _ = c.Wait() }()
				return "opened the link"
			}
		}
	}
	return OpenPath(u, "the link")
}
