package acpagents

import (
	"os"
	"strings"
	"testing"
)

// The pins .ci/run installs are the table's Package fields, so that the
// suite tests the versions CI installs.
func TestCIInstallsTheTablesPins(t *testing.T) {
	b, err := os.ReadFile("../../.ci/run")
	if err != nil {
		t.Fatal(err)
	}
	ci := string(b)
	for _, a := range Agents {
		for _, pkg := range strings.Fields(a.Package) {
			if !strings.Contains(ci, pkg) {
				t.Errorf(".ci/run does not install %s (agent %s)", pkg, a.Name)
			}
		}
	}
	if !strings.Contains(ci, "export "+EnvGate+"=1") {
		t.Errorf(".ci/run does not export %s=1", EnvGate)
	}
}

// Every agent of the table is complete: a command, a provider, a setup and
// the tool calls of the edit and shell scenarios.
func TestAgentTableComplete(t *testing.T) {
	seen := map[string]bool{}
	for _, a := range Agents {
		if a.Name == "" || seen[a.Name] {
			t.Errorf("agent name %q empty or repeated", a.Name)
		}
		seen[a.Name] = true
		if len(a.Argv) == 0 || a.Binary == "" || a.Provider == "" || a.Setup == nil || a.Edit == nil || a.Shell == nil {
			t.Errorf("agent %s is incomplete", a.Name)
			continue
		}
		if len(a.Edit("/p/f", "a", "b")) == 0 || len(a.Shell("true")) == 0 {
			t.Errorf("agent %s: no tool calls for the edit or shell scenario", a.Name)
		}
	}
	for _, n := range []string{"claude", "codex", "gemini", "opencode"} {
		if !seen[n] {
			t.Errorf("the table lacks %s", n)
		}
	}
}
