package composer

import (
	"fmt"

	"charm.land/lipgloss/v2"

	"github.com/chipchat/chipchat/chips"
)

// QueueView is the queue of messages waiting to be sent, drawn above the
// composer: a head line (how many, whether the queue is paused and what
// enter and alt+up do then) in hint, then one line per message, oldest
// first, with title(i) (asked for the lines shown only), the fourth and
// later folded into "… N more" when there are more than four. Every line
// fits width; nil when the queue (n messages) is empty.
func QueueView(n int, title func(i int) string, paused bool, width int, hint lipgloss.Style) []string {
	if n == 0 {
		return nil
	}
	head := fmt.Sprintf("queued (%d) — alt+up takes the last back", n)
	if paused {
		head = fmt.Sprintf("queued (%d), paused — enter on an empty composer sends the next · alt+up takes the last back", n)
	}
	lines := []string{hint.Render(chips.Truncate(" "+head, width))}
	for i := range n {
		if i == 3 && n > 4 {
			lines = append(lines, hint.Render(chips.Truncate(fmt.Sprintf("   … %d more", n-3), width)))
			break
		}
		lines = append(lines, chips.Truncate("   ⏳ "+title(i), width))
	}
	return lines
}
