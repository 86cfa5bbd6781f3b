package transcript

import (
	"testing"

	"github.com/chipchat/chipchat/chips"
)

// pageModel is a focused 120×40 transcript of the 10,000-message bench
// thread, drawn at its end: nothing above the last screen rendered yet.
func pageModel(tb testing.TB, msgs []Message) *Model {
	tb.Helper()
	m := New(chips.Default(chips.DefaultTheme()))
	m.SetSize(120, 40)
	m.SetMessages(msgs)
	m.Focus()
	m.View()
	return m
}

// benchPages presses PageUp then draws, once per op; when warm, the
// pages were all drawn before (PageUp through them, then PageDown back);
// else each op is a page never drawn (a new transcript when the top is
// reached, out of the timing).
func benchPages(b *testing.B, warm bool) {
	msgs := benchThread(10000)
	const pages = 200
	var m *Model
	fresh := func() {
		m = pageModel(b, msgs)
		if warm {
			for range pages {
				press(m, "pgup")
				m.View()
			}
			for range pages {
				press(m, "pgdown")
				m.View()
			}
		}
	}
	fresh()
	n := 0
	b.ReportAllocs()
	for b.Loop() {
		if n == pages {
			b.StopTimer()
			fresh()
			n = 0
			b.StartTimer()
		}
		n++
		press(m, "pgup")
		_ = m.View()
	}
}

// BenchmarkTranscriptPageUpCold: PageUp over pages never drawn at 10,000
// messages (each op renders a screen of messages: glamour and chroma).
func BenchmarkTranscriptPageUpCold(b *testing.B) { benchPages(b, false) }

// BenchmarkTranscriptPageUpWarm: PageUp over pages drawn before.
func BenchmarkTranscriptPageUpWarm(b *testing.B) { benchPages(b, true) }

// jModel is pageModel with the last pages drawn (PageUp through them and
// back), the focus pages above the end: j then moves over messages drawn
// before, as in scripts/bench-tui.sh.
func jModel(tb testing.TB, msgs []Message, pages int) *Model {
	m := pageModel(tb, msgs)
	for range pages {
		press(m, "pgup")
		m.View()
	}
	return m
}

// BenchmarkTranscriptJ: j (the next message) and a frame at 10,000
// messages, over messages drawn before.
func BenchmarkTranscriptJ(b *testing.B) {
	msgs := benchThread(10000)
	var m *Model
	n := 0
	b.ReportAllocs()
	for b.Loop() {
		if n%100 == 0 {
			b.StopTimer()
			m = jModel(b, msgs, 30)
			b.StartTimer()
		}
		n++
		press(m, "j")
		_ = m.View()
	}
}
