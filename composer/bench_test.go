package composer

import (
	"fmt"
	"strings"
	"testing"

	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"

	"github.com/chipchat/chipchat/chips"
)

// benchLine is an 80-column line of prose.
const benchLine = "The quick brown fox jumps over the lazy dog while the build keeps on failing."

// benchDraft makes n lines of prose with a terminal chip every 10 lines and
// the caret in the middle, in an editor 100×20.
func benchDraft(n int) *Editor {
	e := New(Options{Registry: chips.Default(chips.DefaultTheme()), MaxHeight: 20})
	e.SetWidth(100)
	d := NewDraft()
	for i := 0; i < n; i++ {
		if i > 0 {
			d.InsertText("\n")
		}
		d.InsertText(benchLine[:70])
		if i%10 == 0 {
			d.InsertChip(termRec(fmt.Sprintf("t%d", i)), "")
		}
	}
	d.SetCaret(Pos{n / 2, 35}, false)
	e.SetDraft(d)
	return e
}

func BenchmarkKeystroke(b *testing.B) {
	for _, n := range []int{100, 10000} {
		b.Run(fmt.Sprintf("lines=%d", n), func(b *testing.B) {
			e := benchDraft(n)
			_ = e.View()
			key := tea.KeyPressMsg{Code: 'x', Text: "x"}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				e.Update(key)
				_ = e.View()
			}
		})
	}
}

// BenchmarkTextareaKeystroke is the reference: the stock textarea holding
// the same text (chips as their labels), same keystroke, same size.
func BenchmarkTextareaKeystroke(b *testing.B) {
	for _, n := range []int{100, 10000} {
		ta := benchTextarea(n) // built once: moving its cursor costs seconds
		b.Run(fmt.Sprintf("lines=%d", n), func(b *testing.B) {
			key := tea.KeyPressMsg{Code: 'x', Text: "x"}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				ta, _ = ta.Update(key)
				_ = ta.View()
			}
		})
	}
}

// benchTextarea holds the text of benchDraft(n) with the cursor in the
// middle line, column 35.
func benchTextarea(n int) textarea.Model {
	ta := textarea.New()
	ta.SetWidth(100)
	ta.SetHeight(20)
	ta.MaxHeight = 0
	ta.CharLimit = 0
	line := func(i int) string {
		if i%10 == 0 {
			return benchLine[:70] + "Terminal 1 lines 1-2"
		}
		return benchLine[:70]
	}
	var first, rest strings.Builder
	for i := 0; i < n; i++ {
		if i > 0 && i <= n/2 {
			first.WriteByte('\n')
		}
		if i <= n/2 {
			first.WriteString(line(i))
			continue
		}
		rest.WriteByte('\n')
		rest.WriteString(line(i))
	}
	// The textarea has no way to place its cursor on a line but walking to
	// it, which costs O(lines) a step: slow to set up, outside the timing.
	ta.SetValue(first.String() + rest.String())
	ta.Focus()
	ta.MoveToBegin()
	for ta.Line() < n/2 {
		ta.CursorDown()
	}
	ta.SetCursorColumn(35)
	_ = ta.View()
	return ta
}

// BenchmarkPaste1MiB pastes 1 MiB of text into a 1,000-line draft, then draws.
func BenchmarkPaste1MiB(b *testing.B) {
	var sb strings.Builder
	for sb.Len() < 1<<20 {
		sb.WriteString(benchLine)
		sb.WriteByte('\n')
	}
	paste := tea.PasteMsg{Content: sb.String()[:1<<20]}
	b.SetBytes(1 << 20)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		e := benchDraft(1000)
		_ = e.View()
		b.StartTimer()
		e.Update(paste)
		_ = e.View()
	}
}
