//go:build !race

package transcript

import "testing"

// TestSearchNextFlat: going to the next match (the step and the frame
// drawn after it) in a 10,000-message thread costs at most three times the
// same in a 100-message thread (issue 27 item 1), in CPU time, both sides
// measured in the same run.
func TestSearchNextFlat(t *testing.T) {
	const steps = 60 // fewer than the small thread's matches: every step is to a message not drawn yet
	side := func(n int) func() func() {
		return func() func() {
			m := newTest(100, 40)
			m.SetMessages(benchThread(n))
			m.Focus()
			m.View()
			m.Update(m.Search("handler")())
			if _, _, total, _ := m.SearchStatus(); total < steps+1 {
				t.Fatalf("%d messages: %d matches, want more than %d", n, total, steps)
			}
			return func() {
				for range steps {
					m.SearchStep(1)
					m.View()
				}
			}
		}
	}
	best := cheapest(t, 5, side(100), side(10000))
	ratio := float64(best[1]) / float64(best[0])
	t.Logf("next match: 100 messages %v, 10,000 messages %v per %d steps: %.2f×", best[0], best[1], steps, ratio)
	if ratio > 3 {
		t.Fatalf("the next match in 10,000 messages costs %.2f× the same in 100 (bound 3)", ratio)
	}
}
