//go:build !race

package transcript

import "testing"

// TestJFlat: j (the next message, then the frame) in a 10,000-message
// thread costs at most 1.5× the same in a 100-message thread, in CPU time,
// both sides measured in the same run over messages drawn before.
func TestJFlat(t *testing.T) {
	const steps = 40
	side := func(n int) func() func() {
		return func() func() {
			m := jModel(t, benchThread(n), 6)
			for range steps { // draw what j will reach
				press(m, "j")
				m.View()
			}
			for range steps {
				press(m, "k")
				m.View()
			}
			return func() {
				for range steps {
					press(m, "j")
					m.View()
				}
			}
		}
	}
	best := cheapest(t, 7, side(100), side(10000))
	ratio := float64(best[1]) / float64(best[0])
	t.Logf("j: 100 messages %v, 10,000 messages %v per %d keys: %.2f×", best[0], best[1], steps, ratio)
	if ratio > 1.5 {
		t.Fatalf("j in 10,000 messages costs %.2f× the same in 100 (bound 1.5)", ratio)
	}
}
