package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chipchat/chipchat/internal/floodagent"
	"github.com/chipchat/chipchat/message"
	"github.com/chipchat/chipchat/store"
)

// Issue 23 items 4 and 5 on the real binary: internal/floodagent (raw
// JSON-RPC, nothing paces it) floods chipchat in tmux while keys are
// typed. Key latency is compared with idle latency measured in the same
// run (wall time: a key's trip through tmux and chipchat's event loop is
// what the user waits for). The binary measured is built without -race
// whatever the test binary is (chipchatBinary), and CI runs these once,
// in its end-to-end step.

// TestBoundaryFloodAgentProcess is internal/floodagent for these tests; it
// does nothing in a normal run.
func TestBoundaryFloodAgentProcess(t *testing.T) {
	if os.Getenv(floodagent.Env) != "1" {
		return
	}
	floodagent.Main()
	os.Exit(0)
}

// startSelfAgent runs chipchat in a new project with this test binary's
// helper test as its acp: agent (env's variables set for it) and config's
// extra lines.
func startSelfAgent(t *testing.T, helper, config string, env ...string) (*chipchatApp, execProject) {
	t.Helper()
	root := t.TempDir()
	p := execProject{root: root, proj: filepath.Join(root, "proj"), home: filepath.Join(root, "home"), data: filepath.Join(root, "data")}
	writeFile(t, filepath.Join(p.proj, "README"), "x\n")
	p.config = fmt.Sprintf("agent = %q\n%s", "acp:"+os.Args[0]+" -test.run=^"+helper+"$", config)
	return startChipchat(t, p.proj, p.home, p.data, p.config, env...), p
}

// The bounds on key latency during a flood, as multiples of idle p90 in
// the same run: issue 23's 2×. chipchat decodes the common session
// updates itself (agent/acp_update.go), reads long lines into a buffer it
// keeps, scans strings eight bytes at a time and copies them once. On a
// quiet 2-core machine (load 1–1.6) the flood of 100,000 chunks measured
// 0.99–1.44× and the growing content (100 updates to 10 MB) 1.05–1.73×,
// chipchat's CPU 1.1–1.4 s a run. The test agent writes the growing body
// between the halves of a marshalled update (its json.Marshal of each
// 10 MB body cost 1.4–1.6 s of the same cores and pushed the ratio to
// 2.0). Under load from other work (15+ on 2 cores) the ratios reach 4–5×:
// CI runs these tests alone, one at a time. The ratios are of the app's
// own latency (its key trace), the screen's held to screenRatio: see
// checkKeyLatency.
const (
	floodLatencyRatio = 2
	growLatencyRatio  = 2
)

// checkKeyLatency holds the app's own key latency (its key trace: key
// received → its frame written, for the probe keys typed in idleW and
// busyW) to ratio × idle p90, and the latency seen on screen (screenIdle,
// screenBusy: send-keys → capture-pane, every 2 ms) to screenRatio × its
// idle p90. The screen's figure adds tmux and the polling itself, which
// contend for the same 2 cores as the agent and chipchat: on a slower
// 2-core machine (load 2–3) the growing content measured 1.8–2.4× on
// screen with this code and with the code of a session before alike
// (23ae648), while the app's own ratio was 1.45–1.49 (the flood's 1.2–1.4).
func checkKeyLatency(t *testing.T, what, trace string, idleW, busyW []window, ratio int, screenIdle, screenBusy time.Duration) {
	t.Helper()
	at, lat := keyLatencies(t, trace)
	idle, busy := traced(at, lat, idleW), traced(at, lat, busyW)
	// Every probe is in the trace, once: a window runs from before the
	// key is typed to after the screen showed it, and nothing else is
	// typed inside one (clearComposer).
	if len(idle) != len(idleW) || len(busy) != len(busyW) {
		t.Fatalf("the key trace holds %d keys in the %d idle probes' windows and %d in the %d busy ones'", len(idle), len(idleW), len(busy), len(busyW))
	}
	ip, bp := p90(idle), p90(busy)
	t.Logf("key latency p90 in the app: idle %v (%d keys), %s %v (%d keys), ratio %.2f", ip, len(idle), what, bp, len(busy), float64(bp)/float64(ip))
	// A key's frame is written at once (package tty): the idle p90 is a
	// few hundred µs, not a frame interval, and runs alike differ by
	// more than the bound at that scale; a quarter of a millisecond of
	// slack is that noise floor (as in TestEndToEndStreamingCost).
	if slack := 250 * time.Microsecond; bp > time.Duration(ratio)*ip+slack {
		t.Errorf("key latency p90 in the app %s %v, over %d× idle p90 %v (+%v)", what, bp, ratio, ip, slack)
	}
	// On screen the idle p90 is 5–6 ms now that a key's frame is written
	// at once (it was 16 ms, a frame tick and more, under Bubble Tea's
	// renderer, which measured 25–30 ms during the updates where this
	// code measures 10–20): tmux and the 2 ms polling vary by more than
	// the ratio at that scale, so a frame interval is the slack.
	if slack := time.Second / 60; screenBusy > screenRatio*screenIdle+slack {
		t.Errorf("key latency p90 on screen %s %v, over %d× idle p90 %v (+%v)", what, screenBusy, screenRatio, screenIdle, slack)
	}
}

// screenRatio bounds the latency seen on screen (checkKeyLatency).
const screenRatio = 3

// probeKey is the letter typed to measure key latency: it appears in no
// hint, title or flood content.
const probeKey = "J"

// composerProbes counts probeKey in the composer: the rows between its
// top rule and the hint bar.
func composerProbes(scr string) int {
	rows := strings.Split(strings.TrimRight(scr, "\n"), "\n")
	n := 0
	for i := len(rows) - 2; i >= 0 && !strings.HasPrefix(rows[i], "───"); i-- {
		n += strings.Count(rows[i], probeKey)
	}
	return n
}

// keyLatency types probeKey and returns the window from typing it to the
// composer showing it (read every 2 ms; each reading's time is taken
// after capture-pane returns) and the screen that showed it. The window
// starts after the screen read that counts the probes already there, so
// the app's trace of the key falls inside it.
func (a *chipchatApp) keyLatency() (window, string) {
	a.t.Helper()
	before := composerProbes(a.screen())
	start := time.Now()
	a.text(probeKey)
	poll := time.NewTicker(2 * time.Millisecond) // the reading pace
	defer poll.Stop()
	for {
		out, err := exec.Command("tmux", "-L", a.socket, "capture-pane", "-p", "-t", a.name).Output()
		if err != nil {
			a.t.Fatalf("capture-pane: %v", err)
		}
		if composerProbes(string(out)) > before {
			return window{start, time.Now()}, string(out)
		}
		if time.Since(start) > 15*time.Second {
			a.t.Fatalf("the key %q never appeared:\n%s", probeKey, out)
		}
		<-poll.C
	}
}

// idleLatencies are n key latencies with nothing running; each probe's
// window (typed → seen) goes to w.
func (a *chipchatApp) idleLatencies(n int, w *[]window) []time.Duration {
	a.t.Helper()
	var lat []time.Duration
	for range n {
		kw, _ := a.keyLatency()
		lat = append(lat, kw.to.Sub(kw.from))
		*w = append(*w, kw)
	}
	return lat
}

// window is when a probe key was typed and when the screen showed it.
type window struct{ from, to time.Time }

// traced is the latencies the app's key trace (CHIPCHAT_KEYTRACE: key
// received → its frame written) records for the keys received inside
// one of ws: the probes', not the bursts of backspaces between them.
func traced(at []time.Time, lat []time.Duration, ws []window) []time.Duration {
	var out []time.Duration
	for i, t := range at {
		for _, w := range ws {
			if !t.Before(w.from) && !t.After(w.to) {
				out = append(out, lat[i])
				break
			}
		}
	}
	return out
}

// p90 is the 0.9-quantile of ds (sorted in place).
func p90(ds []time.Duration) time.Duration {
	slices.Sort(ds)
	return quantile(ds, 0.9)
}

// busyLatencies types keys one after another until the screen shows the
// turn over (the hint bar says "enter send" again) and returns their
// latencies, every one typed while the turn ran.
func (a *chipchatApp) busyLatencies(w *[]window) []time.Duration {
	a.t.Helper()
	var lat []time.Duration
	deadline := time.Now().Add(3 * time.Minute)
	for {
		kw, scr := a.keyLatency()
		lat = append(lat, kw.to.Sub(kw.from))
		*w = append(*w, kw)
		if strings.Contains(hintBar(scr), "enter send") {
			return lat
		}
		if composerProbes(scr) >= 300 {
			a.clearComposer() // not measured: a tall composer squeezes the transcript
		}
		if time.Now().After(deadline) {
			a.t.Fatalf("the turn never ended:\n%s", scr)
		}
	}
}

// hintBar is the screen's last row.
func hintBar(scr string) string {
	rows := strings.Split(strings.TrimRight(scr, "\n"), "\n")
	return rows[len(rows)-1]
}

// clearComposer empties the composer of the probe keys typed (it holds
// nothing else): one backspace a probe, no more, so no backspace is still
// being handled when the next probe is timed (the key trace would count
// it in the probe's window).
func (a *chipchatApp) clearComposer() {
	a.t.Helper()
	if n := composerProbes(a.screen()); n > 0 {
		a.run("send-keys", "-t", a.name, "-N", strconv.Itoa(n), "BSpace")
	}
	a.waitUntil("no probe key in the composer", func(scr string) bool { return composerProbes(scr) == 0 })
}

// procCPU is the CPU time (user and system) the process pid has used.
func procCPU(t *testing.T, pid int) time.Duration {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		t.Fatal(err)
	}
	// pid (comm) state ppid … utime stime: fields 14 and 15, in ticks
	// of 1/100 s (USER_HZ on Linux).
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
	u, _ := strconv.ParseInt(f[11], 10, 64)
	s, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(u+s) * 10 * time.Millisecond
}

func durations(ds []time.Duration) string {
	var b []string
	for _, d := range ds {
		b = append(b, strconv.FormatInt(d.Milliseconds(), 10))
	}
	return strings.Join(b, " ") + " ms"
}

// The flood: 100,000 agent_message_chunk notifications written back to
// back. All are applied (the stored reply is every chunk in order, its end
// on the screen) while key latency p90 stays ≤ 2× idle p90.
func TestEndToEndBoundaryFloodKeepsKeysFast(t *testing.T) {
	const n, para = 100_000, 10
	trace := filepath.Join(t.TempDir(), "keys.trace")
	a, p := startSelfAgent(t, "TestBoundaryFloodAgentProcess", "", floodagent.Env+"=1", "CHIPCHAT_KEYTRACE="+trace)
	pid := a.pid()
	var idle, busy []time.Duration
	var idleW, busyW []window
	var want strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&want, "c%d;", i)
		if i%para == 0 {
			want.WriteString("\n\n")
		}
	}
	for run := range 3 {
		// Idle keys before each run: the machine's load (other tests,
		// other processes) weighs on both sides alike.
		idle = append(idle, a.idleLatencies(15, &idleW)...)
		a.clearComposer()
		cpu0, wall0 := procCPU(t, pid), time.Now()
		a.text(fmt.Sprintf("paragraphs %d %d", n, para))
		a.keys("Enter")
		a.waitUntil("the turn running", func(scr string) bool { return !strings.Contains(hintBar(scr), "enter send") })
		lat := a.busyLatencies(&busyW)
		busy = append(busy, lat...)
		a.waitFor(fmt.Sprintf("c%d;", n))
		t.Logf("run %d: %v, chipchat's CPU %v; %d keys during the flood: %s", run, time.Since(wall0).Round(time.Millisecond), procCPU(t, pid)-cpu0, len(lat), durations(lat))
		a.clearComposer()
	}
	ip, bp := p90(idle), p90(busy)
	t.Logf("key latency p90 on screen: idle %v (%d keys), during the flood %v (%d keys), ratio %.2f; VmHWM %d MB",
		ip, len(idle), bp, len(busy), float64(bp)/float64(ip), peakRSS(t, pid)>>20)
	a.keys("C-q")
	a.waitFor("EXITED=0")
	checkKeyLatency(t, "during the flood", trace, idleW, busyW, floodLatencyRatio, ip, bp)
	st, err := store.Open(p.data)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	_, reply := lastTurn(t, st, p.proj)
	if reply != want.String() {
		t.Errorf("the stored reply is %d bytes, starts %q, ends %q; want the %d chunks (%d bytes)",
			len(reply), reply[:min(30, len(reply))], reply[max(0, len(reply)-30):], n, want.Len())
	}
}

// lastReplyTool is the tool call callID of the newest reply of the
// project's newest thread, as stored.
func lastReplyTool(t *testing.T, data, project, callID string) *message.Tool {
	t.Helper()
	st, err := store.Open(data)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	p, err := st.Project(store.ProjectKey(project))
	if err != nil {
		t.Fatal(err)
	}
	ts, err := st.Threads(p.ID)
	if err != nil || len(ts) == 0 {
		t.Fatalf("threads %v %v", ts, err)
	}
	msgs, err := st.Messages(ts[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	for i := len(msgs) - 1; i >= 0; i-- {
		for _, it := range msgs[i].Items {
			if it.Kind == message.ItemTool && it.Tool != nil && it.Tool.CallID == callID {
				return it.Tool
			}
		}
	}
	t.Fatalf("no stored tool call %s", callID)
	return nil
}

// ACP's replace-content pattern: 100 tool_call_updates of one call, each
// resending content that grows to 10 MB (481 MB in all). chipchat keeps
// head and tail within [limits] reply_bytes (4 MiB) in memory and in the
// store, its peak resident memory stays ≤ 250 MB, and keys stay fast.
func TestEndToEndBoundaryGrowingToolContent(t *testing.T) {
	if testing.Short() {
		t.Skip("sends 481 MB")
	}
	const n, size, limit = 100, 10_000_000, 4 << 20
	trace := filepath.Join(t.TempDir(), "keys.trace")
	a, p := startSelfAgent(t, "TestBoundaryFloodAgentProcess", "", append(profileEnv("boundary-grow"), floodagent.Env+"=1", "CHIPCHAT_KEYTRACE="+trace)...)
	pid := a.pid()
	var idles, busy []time.Duration
	var idleW, busyW []window
	for run := range 2 {
		// Idle keys before each run, as in the flood's test.
		idles = append(idles, a.idleLatencies(20, &idleW)...)
		a.clearComposer()
		cpu0, wall0 := procCPU(t, pid), time.Now()
		a.text(fmt.Sprintf("grow %d %d", n, size))
		a.keys("Enter")
		a.waitUntil("the turn running", func(scr string) bool { return !strings.Contains(hintBar(scr), "enter send") })
		lat := a.busyLatencies(&busyW)
		busy = append(busy, lat...)
		a.waitFor("Grow")
		t.Logf("run %d: %v, chipchat's CPU %v; %d keys during the updates", run, time.Since(wall0).Round(time.Millisecond), procCPU(t, pid)-cpu0, len(lat))
	}
	hwm := peakRSS(t, pid)
	idle, bp := p90(idles), p90(busy)
	t.Logf("%d updates growing to %d MB, twice: VmHWM %d MB; key latency p90 on screen idle %v, during %v (%d keys, ratio %.2f)",
		n, size/1_000_000, hwm>>20, idle, bp, len(busy), float64(bp)/float64(idle))
	if hwm > 250<<20 {
		t.Errorf("VmHWM %d MB, over 250 MB", hwm>>20)
	}
	a.keys("C-q")
	a.waitFor("EXITED=0")
	checkKeyLatency(t, "during the updates", trace, idleW, busyW, growLatencyRatio, idle, bp)
	g := lastReplyTool(t, p.data, p.proj, "g")
	if g.Status != message.ToolCompleted || len(g.Content) != 1 {
		t.Fatalf("stored tool call = %+v", g)
	}
	body := g.Content[0].Text
	if len(body) > limit || !strings.HasPrefix(body, "HEADzzz") || !strings.HasSuffix(body, "zzzTAIL") || !strings.Contains(body, "left out (reply_bytes)") {
		t.Errorf("stored content is %d bytes (limit %d), starts %q, ends %q", len(body), limit, body[:min(20, len(body))], body[max(0, len(body)-20):])
	}
}
