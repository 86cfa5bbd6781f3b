package workspace

import (
	"fmt"
	"strings"
	"time"

	"github.com/chipchat/chipchat/contextref"
)

// DeleteQuestion reads what the confirmation of deleting thread id asks
// (issue 25 item 9): the whole title, so that a fork and its original
// differ, how long ago it was last updated and how many messages it has —
// `Delete the thread "Fix the parser (fork)", updated 5 minutes ago, 4
// messages? (y/n)`. When the store cannot say, it asks with title (the
// list's). Control characters are the drawing's to strip.
func (w *Workspace) DeleteQuestion(id, title string) func() string {
	st, now := w.o.Store, w.now()
	return func() string {
		t, err := st.Thread(id)
		n, nerr := st.MessageCount(id)
		if err != nil || nerr != nil {
			return deleteQuestion(Thread{Title: title}, -1, now)
		}
		return deleteQuestion(thread(t), n, now)
	}
}

func deleteQuestion(t Thread, messages int, now time.Time) string {
	title := strings.Join(strings.Fields(contextref.Replace(t.Title, func(o contextref.Occurrence) string { return o.Label })), " ")
	if title == "" {
		title = "(new thread)"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Delete the thread %q", title)
	if !t.Updated.IsZero() {
		b.WriteString(", updated " + ago(now.Sub(t.Updated)))
	}
	switch messages {
	case -1: // not known
	case 0:
		b.WriteString(", no messages")
	case 1:
		b.WriteString(", 1 message")
	default:
		fmt.Fprintf(&b, ", %d messages", messages)
	}
	b.WriteString("? (y/n)")
	return b.String()
}

// ago words a duration as "just now", "5 minutes ago", "1 hour ago",
// "3 days ago"…
func ago(d time.Duration) string {
	unit := func(n int64, one string) string {
		if n == 1 {
			return "1 " + one + " ago"
		}
		return fmt.Sprintf("%d %ss ago", n, one)
	}
	switch {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return unit(int64(d/time.Minute), "minute")
	case d < 24*time.Hour:
		return unit(int64(d/time.Hour), "hour")
	case d < 7*24*time.Hour:
		return unit(int64(d/(24*time.Hour)), "day")
	case d < 365*24*time.Hour:
		return unit(int64(d/(7*24*time.Hour)), "week")
	}
	return unit(int64(d/(365*24*time.Hour)), "year")
}
