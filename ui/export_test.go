package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/chipchat/chipchat/chat"
)

// /export's default file is named after the day on the app's clock, not
// the machine's: a session left open past midnight, or a test at a fixed
// time, names the file by the day the app shows.
func TestExportDefaultFileNamedByTheAppsClock(t *testing.T) {
	e := newTestEnv(t)
	t.Setenv("XDG_DATA_HOME", t.TempDir())
	opt := e.options("")
	opt.Clock = chat.NewManualClock(time.Date(2031, 3, 4, 23, 59, 0, 0, time.Local))
	h := e.openWith(opt)
	h.update(windowSize(160, 30))
	h.typeText("/export")
	h.press("enter")
	h.pumpUntil("the export prompt", func() bool { return strings.Contains(h.plain(), "2031-03-04.md") })
	if strings.Contains(h.plain(), time.Now().Format("2006-01-02")+".md") {
		t.Fatalf("the default name carries the machine's day: %q", h.plain())
	}
}
