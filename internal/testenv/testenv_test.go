package testenv

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestMissingFailsInCIAndSkipsElsewhere runs a child test twice, with and
// without CI set, and reads how it ended.
func TestMissingFailsInCIAndSkipsElsewhere(t *testing.T) {
	if os.Getenv("TESTENV_CHILD") != "" {
		NeedCommands(t, "nothing installs it", "definitely-not-a-command-xyz")
		t.Log("reached past the check")
		return
	}
	run := func(ci string) (string, error) {
		cmd := exec.Command(os.Args[0], "-test.run=^TestMissingFailsInCIAndSkipsElsewhere$", "-test.v")
		env := []string{"TESTENV_CHILD=1"}
		for _, kv := range os.Environ() {
			if !strings.HasPrefix(kv, "CI=") {
				env = append(env, kv)
			}
		}
		if ci != "" {
			env = append(env, "CI="+ci)
		}
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	out, err := run("1")
	if err == nil || !strings.Contains(out, "CI: definitely-not-a-command-xyz is not installed") {
		t.Fatalf("with CI=1 the child should fail naming the program; err=%v\n%s", err, out)
	}
	out, err = run("")
	if err != nil || !strings.Contains(out, "--- SKIP") || strings.Contains(out, "reached past") {
		t.Fatalf("without CI the child should skip; err=%v\n%s", err, out)
	}
}
