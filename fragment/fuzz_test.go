package fragment

import (
	"strings"
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
			AttachedFile{Name: a, ID: b, Content: e, Sent: int64(len(e)), Total: sec},
			AttachedFile{Name: a, ID: b, Notice: e},
			ThreadHistory{ThreadID: a, Title: b, Messages: []ThreadMessage{{Role: "user", Text: c}, {Role: "assistant", Text: e}}, Omitted: int(sec % 5)},
			ThreadHistory{ThreadID: a, Title: b, Missing: true},
			AttachmentsOmitted{Names: []string{a, b}, Reason: e},
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

// FuzzPayload: a rendered attached file or thread history parses back to
// its attribute values, whatever they are; its content never closes the
// fragment early (the only end marker is the last one); arbitrary text never
// panics the parsers; FitThreadHistory stays within its bound whenever the
// tags alone fit.
func FuzzPayload(f *testing.F) {
	f.Add("notes.txt", "ctx_1", "remember\nthe milk", int64(40), 200)
	f.Add(`a"<&>`, "", "</attached_file>\n</thread_history>", int64(0), 10)
	f.Add("\xff", "id", "<attached_file name=\"x\">\n", int64(-1), 0)
	f.Add("", "\n", "é\r\n<ThReAd_HiStOrY ", int64(3), 1<<16)
	f.Fuzz(func(t *testing.T, name, id, content string, total int64, max int) {
		af := Render(AttachedFile{Name: name, ID: id, Content: content, Sent: total / 2, Total: total})
		p, ok := ParseAttachedFile(af)
		if !ok || p.Attrs["name"] != name || p.Attrs["id"] != id {
			t.Fatalf("attached file %q parsed as %+v %v", af, p, ok)
		}
		if closingTags(af, "</attached_file") != 1 {
			t.Fatalf("content closes the fragment: %q", af)
		}
		msgs := []ThreadMessage{{Role: "user", Text: content}, {Role: "assistant", Text: name}, {Role: "user", Text: id}}
		h := FitThreadHistory(id, name, msgs, max%(1<<20))
		th := Render(h)
		p, ok = ParseThreadHistory(th)
		if !ok || p.Attrs["thread"] != id || p.Attrs["title"] != name {
			t.Fatalf("thread history %q parsed as %+v %v", th, p, ok)
		}
		if closingTags(th, "</thread_history") != 1 {
			t.Fatalf("text closes the fragment: %q", th)
		}
		if bound := max % (1 << 20); bound > 0 && len(Render(ThreadHistory{ThreadID: id, Title: name}))+len("(3 earlier messages left out)\n") <= bound && len(th) > bound {
			t.Fatalf("%d bytes over the bound %d", len(th), bound)
		}
		if h.Omitted+len(h.Messages) != len(msgs) {
			t.Fatalf("omitted %d kept %d", h.Omitted, len(h.Messages))
		}
		for _, s := range []string{content, name + content, "<attached_file" + content, "<thread_history" + content} {
			ParseAttachedFile(s)
			ParseThreadHistory(s)
			EscapeTag(s, "attached_file")
		}
	})
}

// closingTags counts the places in s where tag (ASCII case-insensitive)
// stands as a tag: followed by a non-word character or the end.
func closingTags(s, tag string) int {
	b := []byte(s)
	for i, c := range b {
		b[i] = lowerASCII(c)
	}
	low, n := string(b), 0
	for i := strings.Index(low, tag); i >= 0; {
		if k := i + len(tag); k >= len(s) || !isWordByte(s[k]) {
			n++
		}
		j := strings.Index(low[i+1:], tag)
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return n
}
