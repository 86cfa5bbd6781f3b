// Tests of skill discovery: the scanned folders and their order, front
// matter names and descriptions, duplicates and unreadable files.
package composer

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func skillsTestWrite(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestListSkills(t *testing.T) {
	root, home := t.TempDir(), t.TempDir()
	agents := filepath.Join(root, ".agents", "skills")
	homeAgents := filepath.Join(home, ".agents", "skills")
	codex := filepath.Join(root, ".codex", "skills")
	claude := filepath.Join(root, ".claude", "skills")

	skillsTestWrite(t, filepath.Join(agents, "alpha", "SKILL.md"),
		"---\nname: alpha-skill\ndescription: Does alpha things.\n---\n# Alpha\n")
	skillsTestWrite(t, filepath.Join(agents, "quoted", "SKILL.md"),
		"---\nname: \"Quoted \\\"Name\\\"\"\ndescription: 'it''s quoted'\n---\n")
	skillsTestWrite(t, filepath.Join(agents, "nofm", "SKILL.md"), "# No front matter\nname: not-this\n")
	skillsTestWrite(t, filepath.Join(agents, "README.md"), "not a skill folder")
	// Same name in a later folder: the first one wins.
	skillsTestWrite(t, filepath.Join(homeAgents, "alpha2", "SKILL.md"),
		"---\nname: alpha-skill\ndescription: from home\n---\n")
	skillsTestWrite(t, filepath.Join(homeAgents, "homeonly", "SKILL.md"),
		"\ufeff---\r\nname: home-only\r\ndescription: >\r\n  Folded over\r\n  two lines.\r\n---\r\n")
	skillsTestWrite(t, filepath.Join(codex, "nofm", "SKILL.md"), "---\ndescription: dup of a folder name\n---\n")
	skillsTestWrite(t, filepath.Join(claude, "cl", "SKILL.md"),
		"---\nmetadata:\n  name: nested-not-this\nname: claude-skill # trailing comment\ndescription: |\n  keep\n  lines\n---\n")
	skillsTestWrite(t, filepath.Join(claude, "unterminated", "SKILL.md"), "---\nname: never-closed\n")
	// Unreadable: SKILL.md is a directory, a dangling symlink, or missing.
	if err := os.MkdirAll(filepath.Join(claude, "isdir", "SKILL.md"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(claude, "dangling"), 0o755); err != nil {
		t.Fatal(err)
	}
	_ = os.Symlink("nowhere", filepath.Join(claude, "dangling", "SKILL.md"))
	if err := os.MkdirAll(filepath.Join(claude, "empty"), 0o755); err != nil {
		t.Fatal(err)
	}
	want := []Skill{
		{"Quoted \"Name\"", "it's quoted", filepath.Join(agents, "quoted", "SKILL.md")},
		{"alpha-skill", "Does alpha things.", filepath.Join(agents, "alpha", "SKILL.md")},
		{"claude-skill", "keep\nlines", filepath.Join(claude, "cl", "SKILL.md")},
		{"home-only", "Folded over two lines.", filepath.Join(homeAgents, "homeonly", "SKILL.md")},
		{"nofm", "", filepath.Join(agents, "nofm", "SKILL.md")},
		{"unterminated", "", filepath.Join(claude, "unterminated", "SKILL.md")},
	}
	// A file without read permission is skipped (root can read anything).
	if os.Geteuid() != 0 {
		locked := filepath.Join(codex, "locked", "SKILL.md")
		skillsTestWrite(t, locked, "---\nname: locked\n---\n")
		if err := os.Chmod(locked, 0); err != nil {
			t.Fatal(err)
		}
	}
	// A symlinked skill folder is followed.
	target := filepath.Join(t.TempDir(), "linked")
	skillsTestWrite(t, filepath.Join(target, "SKILL.md"), "---\nname: linked-skill\n---\n")
	if err := os.Symlink(target, filepath.Join(codex, "linked")); err == nil {
		want = append(want, Skill{"linked-skill", "", filepath.Join(codex, "linked", "SKILL.md")})
		slices.SortFunc(want, func(a, b Skill) int {
			if a.Name < b.Name {
				return -1
			}
			return 1
		})
	}

	got, err := ListSkills(root, home)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, want) {
		t.Errorf("skills\n got: %q\nwant: %q", got, want)
	}

	msg, ok := LoadSkills(root, home)().(SkillsLoadedMsg)
	if !ok || msg.Err != nil || !slices.Equal(msg.Skills, want) {
		t.Errorf("LoadSkills: %+v", msg)
	}
}

func TestListSkillsNothing(t *testing.T) {
	got, err := ListSkills("", "")
	if err != nil || got != nil {
		t.Errorf("no roots: %v, %v", got, err)
	}
	got, err = ListSkills(t.TempDir(), t.TempDir())
	if err != nil || got != nil {
		t.Errorf("no skill folders: %v, %v", got, err)
	}
	// A skills "folder" that is a file is not an error either.
	root := t.TempDir()
	skillsTestWrite(t, filepath.Join(root, ".agents", "skills"), "a file")
	got, err = ListSkills(root, "")
	if err != nil || got != nil {
		t.Errorf("skills path is a file: %v, %v", got, err)
	}
}

func TestSkillsFrontMatter(t *testing.T) {
	cases := []struct {
		in, name, desc string
	}{
		{"---\nname: bare\n---\n", "bare", ""},
		{"---\nname:   spaced out  \n---\n", "spaced out", ""},
		{"---\nname: 'single ''q'''\n---\n", "single 'q'", ""},
		{"---\nname: \"tab\\tand \\u00e9\"\n---\n", "tab\tand é", ""},
		{"---\nname: a#b\n---\n", "a#b", ""},
		{"---\ndescription: first\n  continued\nname: n\n...\n", "n", "first continued"},
		{"---\ndescription: >-\n  one\n\n  two\n---\n", "", "one\ntwo"},
		{"---\nname:\n---\n", "", ""},
		{"--- \nname: trailing-space-fence\n---\n", "trailing-space-fence", ""},
		{"text\n---\nname: late\n---\n", "", ""},
		{"", "", ""},
	}
	for _, c := range cases {
		name, desc := skillsFrontMatter([]byte(c.in))
		if name != c.name || desc != c.desc {
			t.Errorf("%q: got (%q, %q), want (%q, %q)", c.in, name, desc, c.name, c.desc)
		}
	}
}

// Issue 15: skills kept where Codex and Claude Code users keep theirs,
// ~/.codex/skills and ~/.claude/skills, are listed (after the project's).
func TestListSkillsHomeCodexAndClaude(t *testing.T) {
	root, home := t.TempDir(), t.TempDir()
	skillsTestWrite(t, filepath.Join(home, ".codex", "skills", "review", "SKILL.md"), "---\nname: codex-review\ndescription: from codex\n---\n")
	skillsTestWrite(t, filepath.Join(home, ".claude", "skills", "deploy", "SKILL.md"), "---\nname: claude-deploy\n---\n")
	// the project's own skill of a name wins over the home one
	skillsTestWrite(t, filepath.Join(root, ".claude", "skills", "r", "SKILL.md"), "---\nname: codex-review\ndescription: the project's\n---\n")
	skills, err := ListSkills(root, home)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, s := range skills {
		got[s.Name] = s.Description
	}
	if _, ok := got["claude-deploy"]; !ok || len(got) != 2 {
		t.Fatalf("skills = %+v", skills)
	}
	if got["codex-review"] != "the project's" {
		t.Errorf("codex-review = %q, want the project's", got["codex-review"])
	}
	dirs := SkillDirs(root, home)
	if want := filepath.Join(home, ".claude", "skills"); dirs[len(dirs)-1] != want {
		t.Errorf("SkillDirs = %v", dirs)
	}
}
