package review

import (
	"unicode"
	"unicode/utf8"
)

// Word-level changes: a deleted line and the added line paired with it
// (rows.go pairLines) are split into words (letters, digits and _), runs
// of spaces and single other characters; the words an edit script of the
// two word lists deletes or inserts are highlighted. When too little of
// the two lines is shared, nothing is: the whole line changed.

// span is a byte range [from, to) of a line's display text.
type span struct{ from, to int }

// maxWords bounds the words of a line that get a word diff.
const maxWords = 1000

func splitWords(s string) []span {
	var out []span
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		j := i + size
		switch {
		case isWordRune(r):
			for j < len(s) {
				r2, sz := utf8.DecodeRuneInString(s[j:])
				if !isWordRune(r2) {
					break
				}
				j += sz
			}
		case r == ' ':
			for j < len(s) && s[j] == ' ' {
				j++
			}
		}
		out = append(out, span{i, j})
		i = j
	}
	return out
}

func isWordRune(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }

// wordChanges is the changed byte ranges of old and new (display texts).
func wordChanges(old, new string) (oldSpans, newSpans []span) {
	a, b := splitWords(old), splitWords(new)
	if len(a) > maxWords || len(b) > maxWords || len(a) == 0 || len(b) == 0 {
		return nil, nil
	}
	in := interner{}
	modA, modB := diffInts(in.all(len(a), func(i int) string { return old[a[i].from:a[i].to] }),
		in.all(len(b), func(i int) string { return new[b[i].from:b[i].to] }))
	oldSpans, keptA := collect(old, a, modA)
	newSpans, keptB := collect(new, b, modB)
	// Shared text below a third of either line: a rewrite, not an edit.
	if keptA*3 < nonSpace(old) || keptB*3 < nonSpace(new) {
		return nil, nil
	}
	return oldSpans, newSpans
}

// collect merges adjacent changed words into spans and counts the bytes
// kept, spaces not counted (nearly any two lines share some).
func collect(s string, ws []span, mod []bool) (out []span, kept int) {
	for i, w := range ws {
		if !mod[i] {
			kept += nonSpace(s[w.from:w.to])
			continue
		}
		if n := len(out); n > 0 && out[n-1].to == w.from {
			out[n-1].to = w.to
		} else {
			out = append(out, w)
		}
	}
	return out, kept
}

func nonSpace(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] != ' ' {
			n++
		}
	}
	return n
}
