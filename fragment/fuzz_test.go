package fragment

import (
	"testing"
	"time"
	"unicode"
)

// FuzzMatches: Render of every marked kind is matched by its kind and
// claimed by the registry as that kind, whatever the values; an unmarked
// kind's rendering is never matched or claimed. Arbitrary text never
// panics, and Matches agrees with a direct reading of the rule.
func FuzzMatches(f *testing.F) {
	f.Add("/src", "zsh", "2026-05-04", "Europe/Paris", "text", int64(0))
	f.Add("", "", "", "", "", int64(-1))
	f.Add("</environment_context>", "<skill>", "</INSTRUCTIONS>", "\n\n", "</t3_context>  ", int64(1<<40))
	f.Add("\u212a", "\u00a0", "\x00", "\xff", "  </skill>\n", int64(99))
	reg := Standard()
	f.Fuzz(func(t *testing.T, a, b, c, d, e string, sec int64) {
		frags := []Fragment{
			EnvironmentContext{Cwd: a, Shell: b, CurrentDate: c, Timezone: d},
			UserInstructions{Dir: a, Text: e},
			TurnAborted{Reason: e},
			SkillInstructions{Name: a, Path: b, Contents: e},
			T3Context{Entries: e},
			ConversationSummary{Text: e},
			TimeNotice{Now: time.Unix(sec%(1<<35), 0).UTC()},
		}
		for _, fr := range frags {
			k := fr.Kind()
			text := Render(fr)
			claimed, ok := reg.Claim(text)
			if k.Marked() {
				if !k.Matches(text) {
					t.Fatalf("%s: Matches(Render) false for %q", k.Name, text)
				}
				if !ok || claimed != k {
					t.Fatalf("%s: claimed as %v for %q", k.Name, claimed, text)
				}
				if body, ok := k.Unwrap(text); !ok || body != fr.Body() {
					t.Fatalf("%s: Unwrap %q %v", k.Name, body, ok)
				}
			} else {
				if k.Matches(text) {
					t.Fatalf("%s: unmarked kind matched %q", k.Name, text)
				}
				if ok {
					t.Fatalf("%s: unmarked rendering claimed as %s", k.Name, claimed.Name)
				}
			}
		}
		// Arbitrary text: Matches is the rule, read directly.
		for _, text := range []string{a, b + e, e} {
			for _, k := range reg.Kinds() {
				if got, want := k.Matches(text), ruleMatches(k, text); got != want {
					t.Fatalf("%s: Matches(%q) = %v, rule says %v", k.Name, text, got, want)
				}
			}
			reg.Claim(text)
		}
	})
}

// ruleMatches is the claim rule written out rune by rune.
func ruleMatches(k *Kind, text string) bool {
	if k.Begin == "" || k.End == "" {
		return false
	}
	rs := []byte(text)
	i := 0
	for i < len(rs) {
		r, n := decode(rs[i:])
		if !unicode.IsSpace(r) {
			break
		}
		i += n
	}
	j := len(rs)
	for j > i {
		r, n := decodeLast(rs[i:j])
		if !unicode.IsSpace(r) {
			break
		}
		j -= n
	}
	head, tail := rs[i:], rs[i:j]
	return foldPrefix(head, k.Begin) && foldSuffix(tail, k.End)
}

func decode(b []byte) (rune, int) {
	r := []rune(string(b))
	if len(r) == 0 {
		return 0, 1
	}
	n := len(string(r[0]))
	if r[0] == unicode.ReplacementChar && (len(b) < 3 || string(b[:3]) != "\uFFFD") {
		n = 1
	}
	return r[0], n
}

func decodeLast(b []byte) (rune, int) {
	for n := 1; n <= 4 && n <= len(b); n++ {
		s := string(b[len(b)-n:])
		rs := []rune(s)
		if len(rs) == 1 && (rs[0] != unicode.ReplacementChar || s == "\uFFFD") {
			return rs[0], n
		}
	}
	return unicode.ReplacementChar, 1
}

func foldPrefix(b []byte, m string) bool {
	if len(b) < len(m) {
		return false
	}
	return foldEq(b[:len(m)], m)
}

func foldSuffix(b []byte, m string) bool {
	if len(b) < len(m) {
		return false
	}
	return foldEq(b[len(b)-len(m):], m)
}

func foldEq(b []byte, m string) bool {
	for i := range b {
		x, y := b[i], m[i]
		if 'A' <= x && x <= 'Z' {
			x += 32
		}
		if 'A' <= y && y <= 'Z' {
			y += 32
		}
		if x != y {
			return false
		}
	}
	return true
}
