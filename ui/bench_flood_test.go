package ui

import (
	"sort"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/chipchat/chipchat/agent"
	"github.com/chipchat/chipchat/config"
	"github.com/chipchat/chipchat/terminal"
)

// BenchmarkKeystrokeWhilePaneFloods: the terminal pane runs `yes` while the
// user types in the composer. Each op is what the program does for one
// key: Update, then View (which draws the pane's rows under its lock while
// the reader goroutine ingests). The flood's updates are applied between
// keys as the program would. Reports the 99th percentile per key in ms.
func BenchmarkKeystrokeWhilePaneFloods(b *testing.B) {
	st := benchOpenStore(b)
	project, err := st.Project(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	th, err := st.CreateThread(project.ID)
	if err != nil {
		b.Fatal(err)
	}
	ws := openWorkspace(b, st, nil, project.Key, nil)
	o, err := ws.Load(th.ID)()
	if err != nil {
		b.Fatal(err)
	}
	app := testOptions{Options: Options{Workspace: ws, Opened: o, Dir: b.TempDir(), Config: config.Default()}, Backend: agent.Echo{}, Store: st}.app(b)
	app.panes.pane.Shell = []string{"/bin/sh", "-c", "yes 'drwxr-xr-x  2 root root 4096 Nov 29 23:33 \x1b[01;34mflood\x1b[0m'"}
	defer app.Close()
	app.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	_, open := app.Update(tea.KeyPressMsg{Code: 't', Mod: tea.ModCtrl})
	app.setFocus(paneComposer)
	updates := make(chan tea.Msg, 1)
	var wait tea.Cmd = open
	pump := func() { // the next flood update, off the benchmark goroutine
		if wait != nil {
			w := wait
			go func() { updates <- w() }()
		}
	}
	pump()
	lastLine := func() (n int64) {
		app.panes.pane.Active().Do(func(s *terminal.Screen) { n = s.LastLine() })
		return n
	}
	// The flood is on: the pane has taken a thousand lines.
	for lastLine() < 1000 {
		_, wait = app.Update(<-updates)
		_ = app.View()
		pump()
	}
	before := lastLine()
	key := tea.KeyPressMsg{Code: 'x', Text: "x"}
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		select {
		case m := <-updates: // a flood frame arrives between keys
			_, wait = app.Update(m)
			_ = app.View()
			pump()
		default:
		}
		t0 := time.Now()
		app.Update(key)
		_ = app.View()
		lat = append(lat, time.Since(t0))
		if i%200 == 199 {
			app.ed.Draft().Clear()
		}
	}
	b.StopTimer()
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	b.ReportMetric(float64(lat[len(lat)*99/100])/1e6, "p99-ms")
	if after := lastLine(); after <= before {
		b.Fatalf("the pane ingested nothing while the keys were typed (line %d before, %d after): no flood", before, after)
	}
}
