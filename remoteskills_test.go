package main

import (
	"path/filepath"
	"testing"
)

// The $ picker of a remote project lists the skills of the remote project
// and the remote home, read there: names from the front matter (else the
// folder), the project's winning a name over the home's, paths on the
// remote; what the login shell prints and a NUL in a file change nothing.
func TestRemoteSkills(t *testing.T) {
	srv, rp := newTestRemote(t)
	proj := rp.Dir()
	writeFile(t, filepath.Join(srv.Home, ".profile"), "echo profile noise\n")
	writeFile(t, filepath.Join(proj, ".claude", "skills", "rev", "SKILL.md"), "---\nname: review\ndescription: the project's review\n---\nbody\x00more\n")
	writeFile(t, filepath.Join(srv.Home, ".agents", "skills", "deploy", "SKILL.md"), "no front matter\n")
	writeFile(t, filepath.Join(srv.Home, ".claude", "skills", "other", "SKILL.md"), "---\nname: review\ndescription: the home's review\n---\n")
	writeFile(t, filepath.Join(srv.Home, ".codex", "skills", "empty", "README.md"), "not a skill\n")
	skills, err := rp.skills()
	if err != nil {
		t.Fatalf("%v\n%s", err, srv.Log())
	}
	want := []struct{ name, desc, path string }{
		{"deploy", "", filepath.Join(srv.Home, ".agents", "skills", "deploy", "SKILL.md")},
		{"review", "the project's review", filepath.Join(proj, ".claude", "skills", "rev", "SKILL.md")},
	}
	if len(skills) != len(want) {
		t.Fatalf("skills %+v, want %+v", skills, want)
	}
	for i, w := range want {
		if s := skills[i]; s.Name != w.name || s.Description != w.desc || s.Path != w.path {
			t.Errorf("skill %d: %+v, want %+v", i, s, w)
		}
	}
}
