package testenv

import (
	"os"
	"os/exec"
	"testing"
)

// InCI reports whether the tests run under CI (.ci/run exports CI=1).
func InCI() bool { return os.Getenv("CI") != "" }

// Missing ends the test because something it needs is absent: a failure in
// CI, a skip elsewhere. what says what is missing and how to get it.
func Missing(t testing.TB, what string) {
	t.Helper()
	if InCI() {
		t.Fatalf("CI: %s", what)
	}
	t.Skipf("skipped: %s", what)
}

// NeedCommands ends the test (see Missing) unless every named program is
// on PATH; hint says how to install them.
func NeedCommands(t testing.TB, hint string, names ...string) {
	t.Helper()
	for _, name := range names {
		if _, err := exec.LookPath(name); err != nil {
			Missing(t, name+" is not installed ("+hint+")")
		}
	}
}
