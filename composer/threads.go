// The `#` thread picker: `#` typed at the start of a word lists this
// project's other threads (title, age) and inserts a thread chip.
//
// The composer does not know the store: the list comes from the
// Options.Threads provider, which the editor runs in a tea.Cmd (off the UI
// goroutine) each time the picker opens; the answer arrives as a
// ThreadsLoadedMsg. Esc closes the picker and leaves the literal `#`, and a
// white space after `#` closes it too, so Markdown headings and `#123` type
// as they always did; Enter with nothing matching closes the picker and
// does what Enter does.
package composer

import (
	"strconv"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/chipchat/chipchat/contextref"
)

// ThreadItem is one thread the `#` picker offers.
type ThreadItem struct {
	EnvironmentID string
	ThreadID      string
	Title         string
	Updated       time.Time // last activity, for the age shown; zero: none shown
}

// ThreadsLoadedMsg carries the provider's list (and the time it was taken,
// which ages are counted from).
type ThreadsLoadedMsg struct {
	Threads []ThreadItem
	Now     time.Time
	Err     error
}

// LoadThreads returns a command that runs list off the UI goroutine and
// reports a ThreadsLoadedMsg.
func LoadThreads(list func() ([]ThreadItem, error)) tea.Cmd {
	return func() tea.Msg {
		items, err := list()
		return ThreadsLoadedMsg{Threads: items, Now: time.Now(), Err: err}
	}
}

// ThreadRecord makes the record of a thread chip: its context id comes from
// the environment and thread ids, so attaching one thread twice points at
// one record; the title is the display snapshot (cut to 200 units).
func ThreadRecord(t ThreadItem) contextref.Record {
	title := contextref.SanitizeLabel(t.Title, "")
	if contextref.UTF16Len(t.Title) <= contextref.MaxLabelLen {
		title = t.Title
	}
	return &contextref.ThreadRecord{
		Base:          contextref.NewBase(contextref.KindThread, contextref.ToContextID("thread-"+t.EnvironmentID+"-"+t.ThreadID), contextref.SanitizeLabel(t.Title, "thread")),
		EnvironmentID: t.EnvironmentID,
		ThreadID:      t.ThreadID,
		Title:         title,
	}
}

// ThreadAge writes how long ago t was, relative to now, in one short unit:
// "now", "5m", "3h", "2d", "4w", "1y". A zero t gives "".
func ThreadAge(t, now time.Time) string {
	if t.IsZero() {
		return ""
	}
	d := now.Sub(t)
	switch {
	case d < time.Minute:
		return "now"
	case d < time.Hour:
		return strconv.Itoa(int(d/time.Minute)) + "m"
	case d < 24*time.Hour:
		return strconv.Itoa(int(d/time.Hour)) + "h"
	case d < 7*24*time.Hour:
		return strconv.Itoa(int(d/(24*time.Hour))) + "d"
	case d < 365*24*time.Hour:
		return strconv.Itoa(int(d/(7*24*time.Hour))) + "w"
	}
	return strconv.Itoa(int(d/(365*24*time.Hour))) + "y"
}

// threadItems turns the loaded threads into picker items: the title (or
// "untitled") and its age; Value is the index into the list.
func threadItems(ts []ThreadItem, now time.Time) []PickerItem {
	items := make([]PickerItem, len(ts))
	for i, t := range ts {
		title := t.Title
		if title == "" {
			title = "untitled " + t.ThreadID
		}
		items[i] = PickerItem{Title: title, Detail: ThreadAge(t.Updated, now), Value: strconv.Itoa(i)}
	}
	return items
}
