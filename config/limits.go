package config

import (
	"strings"
	"unicode/utf8"
)

// LongPaste reports whether pasted text is over paste_chip_chars or
// paste_chip_lines (a limit ≤ 0 is off): the composer keeps it as a
// pasted-text chip, not as prose.
func (l Limits) LongPaste(text string) bool {
	if l.PasteChipChars > 0 && utf8.RuneCountInString(text) > l.PasteChipChars {
		return true
	}
	return l.PasteChipLines > 0 && strings.Count(text, "\n")+1 > l.PasteChipLines
}
