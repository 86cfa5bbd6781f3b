package fragment

import (
	"strings"
	"testing"
	"time"
)

var paris = time.FixedZone("CEST", 2*3600)

func TestRenderAndClaim(t *testing.T) {
	reg := Standard()
	tests := []struct {
		name string
		f    Fragment
		want string
	}{
		{"environment", EnvironmentContext{Cwd: "/src/app", Shell: "zsh", CurrentDate: "2026-05-04", Timezone: "Europe/Paris"},
			"<environment_context>\n  <cwd>/src/app</cwd>\n  <shell>zsh</shell>\n  <current_date>2026-05-04</current_date>\n  <timezone>Europe/Paris</timezone>\n</environment_context>"},
		{"environment partial, escaped", EnvironmentContext{Cwd: "/a<b>&c", Timezone: "UTC"},
			"<environment_context>\n  <cwd>/a&lt;b&gt;&amp;c</cwd>\n  <timezone>UTC</timezone>\n</environment_context>"},
		{"environment empty", EnvironmentContext{}, "<environment_context>\n</environment_context>"},
		{"agents.md", UserInstructions{Dir: "/src/app", Text: "Use tabs.\nRun go test."},
			"# AGENTS.md instructions for /src/app\n\n<INSTRUCTIONS>\nUse tabs.\nRun go test.\n</INSTRUCTIONS>"},
		{"turn aborted", TurnAborted{Reason: "stopped"}, "<turn_aborted>\nstopped\n</turn_aborted>"},
		{"turn aborted default", TurnAborted{}, "<turn_aborted>\n" + DefaultAbortReason + "\n</turn_aborted>"},
		{"skill", SkillInstructions{Name: "review", Path: "/p/.agents/skills/review/SKILL.md", Contents: "---\nname: review\n---\nReview it."},
			"<skill>\n<name>review</name>\n<path>/p/.agents/skills/review/SKILL.md</path>\n---\nname: review\n---\nReview it.\n</skill>"},
		{"t3 context", T3Context{Entries: "<context kind=\"file\" id=\"f1\" unavailable=\"true\"/>"},
			"<t3_context version=\"1\">\n<context kind=\"file\" id=\"f1\" unavailable=\"true\"/>\n</t3_context>"},
		{"summary", ConversationSummary{Text: "We fixed the bug."},
			"<conversation_summary>\nWe fixed the bug.\n</conversation_summary>"},
		{"time notice", TimeNotice{Now: time.Date(2026, 5, 4, 14, 3, 0, 0, paris)},
			"Reminder: the current time is Monday, 2026-05-04 14:03 CEST (UTC+02:00)."},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Render(tc.f)
			if got != tc.want {
				t.Fatalf("Render =\n%q\nwant\n%q", got, tc.want)
			}
			k := tc.f.Kind()
			if k.Matches(got) != k.Marked() {
				t.Fatalf("Matches(Render) = %v for marked=%v", k.Matches(got), k.Marked())
			}
			claimed, ok := reg.Claim(got)
			if k.Marked() {
				if !ok || claimed != k {
					t.Fatalf("Claim = %v, %v; want %s", claimed, ok, k.Name)
				}
				// Surrounding whitespace and case do not matter.
				if c, ok := reg.Claim("\n\t " + strings.ToUpper(got) + " \n"); !ok || c != k {
					t.Fatalf("Claim of padded upper-case text = %v, %v", c, ok)
				}
				body, ok := k.Unwrap("  " + got + "\n")
				if !ok || body != tc.f.Body() {
					t.Fatalf("Unwrap = %q, %v", body, ok)
				}
				// Either marker alone is not enough.
				if k.Matches(got[:len(got)-1]) || k.Matches(got[1:]) {
					t.Fatal("matched with a marker cut")
				}
			} else if ok {
				t.Fatalf("unmarked text claimed as %s", claimed.Name)
			}
			if !reg.Registered(k) {
				t.Fatal("kind not in Standard()")
			}
		})
	}
}

func TestMatchesRule(t *testing.T) {
	k := &Kind{Name: "x", Role: RoleUser, Begin: "<Tag>", End: "</Tag>"}
	for _, tc := range []struct {
		text string
		want bool
	}{
		{"<Tag>body</Tag>", true},
		{"<tag></TAG>", true},
		{"  \n<TAG>x</tag>\t\n", true},
		{"\u00a0\u3000<tag>x</tag>\u2028", true}, // Unicode whitespace is trimmed
		{"<tag>x</tag>.", false},
		{"x<tag>x</tag>", false},
		{"<tag>x", false},
		{"x</tag>", false},
		{"", false},
		{"<tag", false},
		{"<ta\u212a>x</tag>", false}, // no Unicode folding (Kelvin sign)
		{"<tag></tag", false},
		{"<Tag></Tag>", true},
	} {
		if got := k.Matches(tc.text); got != tc.want {
			t.Errorf("Matches(%q) = %v, want %v", tc.text, got, tc.want)
		}
	}
	// Overlapping markers: the rule checks prefix and suffix independently.
	o := &Kind{Name: "o", Role: RoleUser, Begin: "<a>", End: "a>"}
	if !o.Matches("<a>") {
		t.Error("overlap: the stated rule holds")
	}
	if _, ok := o.Unwrap("<a>"); ok {
		t.Error("Unwrap of overlapping markers")
	}
	u := &Kind{Name: "u", Role: RoleDeveloper}
	for _, s := range []string{"", "x", "  "} {
		if u.Matches(s) {
			t.Errorf("unmarked kind matched %q", s)
		}
	}
}

func TestRegistry(t *testing.T) {
	r := Standard()
	if len(r.Kinds()) != 10 {
		t.Fatalf("%d kinds", len(r.Kinds()))
	}
	bad := []*Kind{
		nil,
		{Name: "", Role: RoleUser},
		{Name: "r", Role: "system"},
		{Name: "r", Role: RoleAssistant},
		{Name: "half", Role: RoleUser, Begin: "<x>"},
		{Name: "half2", Role: RoleUser, End: "</x>"},
		{Name: "space", Role: RoleUser, Begin: " <x>", End: "</x>"},
		{Name: "space2", Role: RoleUser, Begin: "<x>", End: "</x>\n"},
		{Name: "alone", Role: RoleUser, StandAlone: true},
		{Name: "skill", Role: RoleUser, Begin: "<y>", End: "</y>"},
		{Name: "copy", Role: RoleUser, Begin: "<SKILL>", End: "</skill>"},
		EnvironmentContextKind,
	}
	for _, k := range bad {
		if err := r.Register(k); err == nil {
			t.Errorf("Register(%+v) accepted", k)
		}
	}
	// The most specific kind wins.
	a := &Kind{Name: "a", Role: RoleUser, Begin: "<a", End: ">"}
	ab := &Kind{Name: "ab", Role: RoleUser, Begin: "<ab>", End: "</ab>"}
	r2, err := NewRegistry(a, ab)
	if err != nil {
		t.Fatal(err)
	}
	if k, _ := r2.Claim("<ab>x</ab>"); k != ab {
		t.Fatalf("claimed %v", k)
	}
	if k, _ := r2.Claim("<ax>"); k != a {
		t.Fatalf("claimed %v", k)
	}
	if _, ok := r2.Claim("<environment_context></environment_context>"); ok {
		t.Fatal("claimed by an unregistered kind")
	}
	if _, err := NewRegistry(a, a); err == nil {
		t.Fatal("duplicate accepted")
	}
}

type devNote struct{ text string }

var devNoteKind = &Kind{Name: "dev_note", Role: RoleDeveloper, Begin: "<dev_note>", End: "</dev_note>"}
var devAloneKind = &Kind{Name: "dev_alone", Role: RoleDeveloper, Begin: "<dev_alone>", End: "</dev_alone>", StandAlone: true}

func (devNote) Kind() *Kind    { return devNoteKind }
func (d devNote) Body() string { return d.text }

type devAlone struct{ text string }

func (devAlone) Kind() *Kind    { return devAloneKind }
func (d devAlone) Body() string { return d.text }

func TestAssemble(t *testing.T) {
	r := Standard()
	for _, k := range []*Kind{devNoteKind, devAloneKind} {
		if err := r.Register(k); err != nil {
			t.Fatal(err)
		}
	}
	now := TimeNotice{Now: time.Date(2026, 1, 2, 3, 4, 0, 0, time.UTC)}
	env := EnvironmentContext{Cwd: "/w"}
	agents := UserInstructions{Dir: "/w", Text: "hi"}
	msgs, err := r.Assemble(env, devNote{"one"}, now, agents, devAlone{"x"}, devNote{"two"}, SkillInstructions{Name: "s"})
	if err != nil {
		t.Fatal(err)
	}
	want := []Message{
		{Role: RoleDeveloper, Parts: []string{"<dev_note>one</dev_note>", "<dev_note>two</dev_note>"}},
		{Role: RoleDeveloper, Parts: []string{Render(now)}},
		{Role: RoleDeveloper, Parts: []string{"<dev_alone>x</dev_alone>"}},
		{Role: RoleUser, Parts: []string{Render(env), Render(agents), Render(SkillInstructions{Name: "s"})}},
	}
	if !equalMessages(msgs, want) {
		t.Fatalf("Assemble =\n%#v\nwant\n%#v", msgs, want)
	}
	if msgs[0].Text() != "<dev_note>one</dev_note>\n\n<dev_note>two</dev_note>" {
		t.Fatalf("Text = %q", msgs[0].Text())
	}
	// Empty bins make no message.
	msgs, _ = r.Assemble(env)
	if len(msgs) != 1 || msgs[0].Role != RoleUser {
		t.Fatalf("%#v", msgs)
	}
	if msgs, err := r.Assemble(); err != nil || len(msgs) != 0 {
		t.Fatalf("empty: %v %v", msgs, err)
	}
	// Unregistered kinds and nil fragments are refused.
	if _, err := Standard().Assemble(env, devNote{"x"}); err == nil || !strings.Contains(err.Error(), "dev_note") {
		t.Fatalf("unregistered: %v", err)
	}
	if _, err := r.Assemble(nil); err == nil {
		t.Fatal("nil fragment")
	}
}

func equalMessages(a, b []Message) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Role != b[i].Role || strings.Join(a[i].Parts, "\x00") != strings.Join(b[i].Parts, "\x00") || len(a[i].Parts) != len(b[i].Parts) {
			return false
		}
	}
	return true
}
