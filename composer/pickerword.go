// Word tiers of the fuzzy picker: a title that holds the query as a whole
// word ranks above one that holds it as a word's prefix, then one holding
// it inside a word, then one that only has its letters scattered (sahilm/fuzzy's score alone puts a
// short title with scattered letters above a long one holding the word:
// "notes" found "Hello, can you explain what this project does?" first).
// Within a tier the fuzzy score decides, then the items' order.

package composer

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Word tiers, best last.
const (
	tierScattered = iota // only the letters in order
	tierInner            // the query inside a word
	tierPrefix           // the query starts a word of the title
	tierWord             // the query is a whole word (or words) of the title
	tierCount
)

// pickerWordTier returns the best tier of the query q in the title t, case
// folded, and the byte offset in t of the occurrence that gave it (-1 for
// tierScattered, or when q or t is not ASCII: offsets of a folded copy are not
// t's). Words are runs of letters and digits; a query that starts (ends)
// with another character starts (ends) at a boundary by itself.
func pickerWordTier(q, t string) (tier, at int) {
	if q == "" {
		return tierScattered, -1
	}
	if pickerIsASCII(q) && pickerIsASCII(t) {
		return pickerWordTierASCII(q, t)
	}
	lq, lt := strings.ToLower(q), strings.ToLower(t)
	best := tierScattered
	for off := 0; off <= len(lt)-len(lq); {
		i := strings.Index(lt[off:], lq)
		if i < 0 {
			break
		}
		i += off
		if tr := pickerBoundTier(lt, lq, i, pickerWordRune); tr > best {
			best = tr
			if best == tierWord {
				break
			}
		}
		_, n := utf8.DecodeRuneInString(lt[i:])
		off = i + max(n, 1)
	}
	return best, -1
}

func pickerWordTierASCII(q, t string) (tier, at int) {
	best, bestAt := tierScattered, -1
	for i := 0; i+len(q) <= len(t); i++ {
		if pickerLower[t[i]] != pickerLower[q[0]] {
			continue
		}
		k := 1
		for k < len(q) && pickerLower[t[i+k]] == pickerLower[q[k]] {
			k++
		}
		if k < len(q) {
			continue
		}
		if tr := pickerBoundTier(t, q, i, pickerWordRune); tr > best {
			best, bestAt = tr, i
			if best == tierWord {
				break
			}
		}
	}
	return best, bestAt
}

// pickerBoundTier is the tier of q found at byte i of t.
func pickerBoundTier(t, q string, i int, word func(rune) bool) int {
	first, _ := utf8.DecodeRuneInString(q)
	last, _ := utf8.DecodeLastRuneInString(q)
	before, _ := utf8.DecodeLastRuneInString(t[:i])
	after, _ := utf8.DecodeRuneInString(t[i+len(q):])
	starts := i == 0 || !word(first) || !word(before)
	ends := i+len(q) == len(t) || !word(last) || !word(after)
	switch {
	case starts && ends:
		return tierWord
	case starts:
		return tierPrefix
	}
	return tierInner
}

func pickerWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

// pickerTiered folds the word tiers of the matches into their scores, so
// that a better tier always ranks first and the score orders each tier:
// scores are clamped to ±2^28 and a tier adds (hi-lo+1) per step, which
// keeps the span as small as the scores' (pickerRank's counting sort).
func pickerTiered(q string, titles []string, cands []int32, scores []int) {
	if utf8.RuneCountInString(q) < 2 {
		return // one letter matches nearly every title: the score alone ranks (and costs less)
	}
	const limit = 1 << 28
	lo, hi := limit, -limit
	tiers := make([]uint8, len(cands))
	tiered := false
	for k, i := range cands {
		scores[k] = max(-limit, min(scores[k], limit))
		lo, hi = min(lo, scores[k]), max(hi, scores[k])
		tr, _ := pickerWordTier(q, titles[i])
		tiers[k] = uint8(tr)
		tiered = tiered || tr != tierScattered
	}
	if !tiered {
		return
	}
	step := hi - lo + 1
	for k := range scores {
		scores[k] += int(tiers[k]) * step
	}
}
