package chips

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// WrapHanging wraps each of lines to width (F1's help: a key's row is its
// name, its keys, then its help after two spaces or more), continuation
// rows indented to where a line's last column starts, so a long help stays
// in its column; where that column leaves less than 20 columns (80 wide),
// or the line has none, they are indented four past the line's own indent
// — never back at the left edge. Nothing is cut.
func WrapHanging(lines []string, width int) []string {
	var rows []string
	for _, l := range lines {
		rows = append(rows, wrapHanging(l, width)...)
	}
	return rows
}

func wrapHanging(l string, width int) []string {
	if ansi.StringWidth(l) <= width {
		return []string{l}
	}
	start := -1
	for i := 1; i+1 < len(l); i++ {
		if l[i] == ' ' && l[i-1] == ' ' && l[i+1] != ' ' {
			start = i + 1
		}
	}
	col := 0
	if start > 0 {
		col = ansi.StringWidth(l[:start])
	}
	if col == 0 || col > width-20 {
		ind := min(len(l)-len(strings.TrimLeft(l, " "))+4, width/2)
		parts := strings.Split(ansi.Wrap(l, width, ""), "\n")
		more := strings.Join(parts[1:], " ")
		if strings.HasPrefix(l, parts[0]) { // the rest as written: a word cut at the edge stays whole
			more = strings.TrimLeft(l[len(parts[0]):], " ")
		}
		rest := strings.Split(ansi.Wrap(more, width-ind, ""), "\n")
		rows := []string{parts[0]}
		for _, p := range rest {
			rows = append(rows, strings.Repeat(" ", ind)+p)
		}
		return rows
	}
	parts := strings.Split(ansi.Wrap(l[start:], width-col, ""), "\n")
	rows := []string{l[:start] + parts[0]}
	for _, p := range parts[1:] {
		rows = append(rows, strings.Repeat(" ", col)+p)
	}
	return rows
}
