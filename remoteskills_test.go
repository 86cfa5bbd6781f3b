package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/chipchat/chipchat/composer"
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

// FuzzParseSkillFiles: any output of the remote (a hostile one too) reads
// as whole records or none, never a panic, and their skills come out
// sorted, each name once.
func FuzzParseSkillFiles(f *testing.F) {
	f.Add([]byte("noise\n\x00/p/.claude/skills\x00rev\x00/p/.claude/skills/rev/SKILL.md\x00---\nname: review\n---\n"))
	f.Add([]byte("\x00a\x00b\x00c\x00d\x00e\x00f\x00g"))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, out []byte) {
		files := parseSkillFiles(out)
		if n := strings.Count(string(out), "\x00"); len(files) > n/4 {
			t.Fatalf("%d records from %d NULs", len(files), n)
		}
		skills := composer.SkillsFrom(files)
		seen := map[string]bool{}
		for i, s := range skills {
			if s.Name == "" || seen[s.Name] || i > 0 && skills[i-1].Name > s.Name {
				t.Fatalf("skills %+v", skills)
			}
			seen[s.Name] = true
		}
	})
}
