package agent

import (
	"os"
	"strings"
	"testing"
)

// The README lists the backends as KindsMarkdown writes them from the
// kinds table.
func TestREADMEListsAgents(t *testing.T) {
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	const start, end = "<!-- agents: generated from agent.Kinds (TestREADMEListsAgents) -->\n", "<!-- /agents -->"
	s := string(b)
	i, j := strings.Index(s, start), strings.Index(s, end)
	if i < 0 || j < i {
		t.Fatalf("README.md has no %q … %q block; put this between them:\n%s", start, end, KindsMarkdown())
	}
	if got := s[i+len(start) : j]; got != KindsMarkdown() {
		t.Fatalf("README.md's list of agents is stale; put this between the markers:\n%s", KindsMarkdown())
	}
}

// Every kind of the table is found by its scheme, in any case, and builds
// a backend; an unknown scheme's error lists every kind's spec.
func TestKindsTable(t *testing.T) {
	for _, k := range Kinds() {
		if k.Spec == "" || k.Doc == "" || k.New == nil {
			t.Errorf("kind %q lacks a spec, doc or constructor", k.Scheme)
		}
		spec := map[string]string{"": "echo", "exec": "EXEC:cat", "acp": "Acp:cat", "openai": "openai:http://localhost:1/v1#m"}[k.Scheme]
		if spec == "" {
			t.Errorf("kind %q: add an example spec to this test", k.Scheme)
			continue
		}
		got, _, err := KindOf(spec)
		if err != nil || got.Spec != k.Spec {
			t.Errorf("KindOf(%q) = %q, %v; want %q", spec, got.Spec, err, k.Spec)
		}
		b, err := NewWith(spec, Options{OpenAIAPIKey: "sk-test"})
		if err != nil {
			t.Errorf("NewWith(%q): %v", spec, err)
			continue
		}
		if o, ok := b.(*OpenAI); ok && o.APIKey != "sk-test" {
			t.Errorf("NewWith(%q): APIKey %q, want Options.OpenAIAPIKey", spec, o.APIKey)
		}
		if c, ok := b.(interface{ Close() error }); ok {
			_ = c.Close()
		}
	}
	_, err := New("smoke:signals")
	for _, k := range Kinds() {
		if err == nil || !strings.Contains(err.Error(), k.Spec) {
			t.Errorf("New(smoke:signals) = %v; want it to list %q", err, k.Spec)
		}
	}
}
