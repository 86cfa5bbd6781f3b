package main

import (
	"path/filepath"
	"testing"
)

// The $ picker of chipchat --remote lists the remote project's skill (a
// folder only there: this side cannot read it), and picking it puts its
// chip in the draft.
func TestEndToEndRemoteSkillPicker(t *testing.T) {
	e := newRemoteEnv(t)
	writeFile(t, filepath.Join(e.proj, ".claude", "skills", "rev", "SKILL.md"), "---\nname: remote-review\ndescription: reviews on the box\n---\n")
	s := startTmuxSize(t, e.command(t, "--remote", "box"), 140, 40)
	s.waitFor("enter send")
	s.text("$")
	s.waitFor("remote-review", "reviews on the box")
	s.keys("Enter")
	s.waitForComposer("remote-review")
	s.keys("C-q")
	s.waitFor("EXITED=0")
}
