package acpagents

import (
	"fmt"
	"os"
	"testing"

	"github.com/chipchat/chipchat/internal/testenv"
)

// Gate ends the test (testenv.Missing: a skip, a failure in CI) unless the
// real-agent suite is on (EnvGate=1).
func Gate(t testing.TB) {
	t.Helper()
	if os.Getenv(EnvGate) != "1" {
		testenv.Missing(t, "the real-agent suite runs only with "+EnvGate+"=1 (.ci/run installs the agents from npm and sets it)")
	}
}

// Need is Gate, then ends the test unless ag is installed.
func Need(t testing.TB, ag Agent) {
	t.Helper()
	Gate(t)
	if !ag.Available() {
		testenv.Missing(t, fmt.Sprintf("%s is not installed (npm install -g %s; .ci/run does)", ag.Binary, ag.Package))
	}
}

// Each runs f in a parallel subtest per agent named (every agent of
// Agents when none is), each ended by Need when it cannot run.
func Each(t *testing.T, f func(t *testing.T, ag Agent), names ...string) {
	t.Helper()
	Gate(t)
	ags := Agents
	if len(names) > 0 {
		ags = nil
		for _, n := range names {
			ag, err := Find(n)
			if err != nil {
				t.Fatal(err)
			}
			ags = append(ags, ag)
		}
	}
	for _, ag := range ags {
		t.Run(ag.Name, func(t *testing.T) {
			t.Parallel()
			Need(t, ag)
			f(t, ag)
		})
	}
}
