package fragment

import (
	"testing"
	"time"
)

func history() []Message {
	oldEnv := EnvironmentContext{Cwd: "/old", CurrentDate: "2026-01-01"}
	envelope := Render(T3Context{Entries: `<context kind="file" id="f1" unavailable="true"/>`})
	return []Message{
		{Role: RoleDeveloper, Parts: []string{Render(TimeNotice{Now: time.Unix(0, 0).UTC()})}},
		{Role: RoleUser, Parts: []string{Render(oldEnv), Render(UserInstructions{Dir: "/old", Text: "old rules"})}},
		{Role: RoleUser, Parts: []string{"Fix [File: a.go; ref=f1]", envelope}},
		{Role: RoleAssistant, Parts: []string{"Done."}},
		{Role: RoleUser, Parts: []string{Render(TurnAborted{})}},
		{Role: RoleUser, Parts: []string{"  <ENVIRONMENT_CONTEXT>\n</environment_context>\n", "and <b>this</b>", " \n"}},
		{Role: RoleUser, Parts: []string{Render(ConversationSummary{Text: "old summary"})}},
		{Role: RoleUser, Parts: []string{"<environment_context> is a tag I typed"}},
	}
}

func TestStripAndUserWords(t *testing.T) {
	r := Standard()
	h := history()
	envelope := h[2].Parts[1]
	got := r.Strip(h)
	want := []Message{
		{Role: RoleUser, Parts: []string{"Fix [File: a.go; ref=f1]"}},
		{Role: RoleAssistant, Parts: []string{"Done."}},
		{Role: RoleUser, Parts: []string{"and <b>this</b>"}},
		{Role: RoleUser, Parts: []string{"<environment_context> is a tag I typed"}},
	}
	if !equalMessages(got, want) {
		t.Fatalf("Strip =\n%#v", got)
	}
	kept := r.Strip(h, T3ContextKind)
	if len(kept[0].Parts) != 2 || kept[0].Parts[1] != envelope {
		t.Fatalf("keep envelope: %#v", kept[0])
	}
	words := r.UserWords(h)
	if !equalMessages(words, []Message{want[0], want[2], want[3]}) {
		t.Fatalf("UserWords =\n%#v", words)
	}
	// The input is untouched.
	if !equalMessages(h, history()) {
		t.Fatal("history modified")
	}
}

func TestCompact(t *testing.T) {
	r := Standard()
	env := EnvironmentContext{Cwd: "/new", CurrentDate: "2026-05-04"}
	got, err := r.Compact(history(), "We fixed a.go.", []Fragment{env, UserInstructions{Dir: "/new", Text: "new rules"}})
	if err != nil {
		t.Fatal(err)
	}
	want := []Message{
		{Role: RoleUser, Parts: []string{Render(env), Render(UserInstructions{Dir: "/new", Text: "new rules"})}},
		{Role: RoleUser, Parts: []string{"Fix [File: a.go; ref=f1]"}},
		{Role: RoleUser, Parts: []string{"and <b>this</b>"}},
		{Role: RoleUser, Parts: []string{"<environment_context> is a tag I typed"}},
		{Role: RoleUser, Parts: []string{"<conversation_summary>\nWe fixed a.go.\n</conversation_summary>"}},
	}
	if !equalMessages(got, want) {
		t.Fatalf("Compact =\n%#v", got)
	}
	// Compacting again drops the old summary and keeps the same words.
	again, err := r.Compact(got, "Second.", []Fragment{env})
	if err != nil {
		t.Fatal(err)
	}
	if len(again) != 5 || again[4].Parts[0] != Render(ConversationSummary{Text: "Second."}) || again[1].Parts[0] != "Fix [File: a.go; ref=f1]" {
		t.Fatalf("second compaction:\n%#v", again)
	}
	// A registry without the summary kind cannot compact.
	small, _ := NewRegistry(EnvironmentContextKind)
	if _, err := small.Compact(history(), "x", nil); err == nil {
		t.Fatal("compacted without the summary kind")
	}
	if _, err := small.Compact(history(), "x", []Fragment{TurnAborted{}}); err == nil {
		t.Fatal("unregistered current fragment")
	}
}

func TestFork(t *testing.T) {
	r := Standard()
	h := history()[:4] // fork after the assistant's "Done."
	env := EnvironmentContext{Cwd: "/fork"}
	got, err := r.Fork(h, []Fragment{env})
	if err != nil {
		t.Fatal(err)
	}
	want := []Message{
		{Role: RoleUser, Parts: []string{Render(env)}},
		{Role: RoleUser, Parts: []string{"Fix [File: a.go; ref=f1]", h[2].Parts[1]}},
		{Role: RoleAssistant, Parts: []string{"Done."}},
	}
	if !equalMessages(got, want) {
		t.Fatalf("Fork =\n%#v", got)
	}
	for _, m := range got[1:] {
		for _, p := range m.Parts {
			if EnvironmentContextKind.Matches(p) || UserInstructionsKind.Matches(p) {
				t.Fatalf("stale fragment resubmitted: %q", p)
			}
		}
	}
	if _, err := r.Fork(h, []Fragment{nil}); err == nil {
		t.Fatal("nil current fragment")
	}
}
