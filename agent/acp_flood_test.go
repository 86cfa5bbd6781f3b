//go:build unix

package agent

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chipchat/chipchat/internal/floodagent"
	"github.com/chipchat/chipchat/message"
)

// These tests run internal/floodagent, an ACP agent that writes raw
// JSON-RPC as fast as it can (floods, back-to-back requests, over-long
// lines, growing tool content), as a re-exec of the test binary, so the
// real stdio path is what it meets: chipchat's line reader, then the SDK.

// TestFloodACPHelperProcess is the flood agent; it does nothing in a
// normal run.
func TestFloodACPHelperProcess(t *testing.T) { runAsAgent(floodagent.Env, floodagent.Main) }

type floodHarness struct {
	t       *testing.T
	a       *ACP
	dir     string
	pidFile string
	logPath string
	answer  func(Permission) PermissionAnswer
}

func newFloodHarness(t *testing.T, opts ACPOptions) *floodHarness {
	t.Helper()
	h := &floodHarness{t: t, dir: t.TempDir(), pidFile: filepath.Join(t.TempDir(), "pid")}
	opts.Env = append(opts.Env, floodagent.Env+"=1", "FLOODAGENT_PIDFILE="+h.pidFile)
	h.a = newSelfACP(t, "TestFloodACPHelperProcess", opts)
	h.logPath = h.a.opts.LogPath
	h.answer = func(p Permission) PermissionAnswer { return PermissionAnswer{OptionID: "ok", Outcome: "selected"} }
	return h
}

// run runs one turn and returns its events; every Permission is
// answered with h.answer.
func (h *floodHarness) run(prompt string) ([]Event, error) {
	h.t.Helper()
	var evs []Event
	err := h.stream(prompt, func(e Event) { evs = append(evs, e) })
	return evs, err
}

// stream runs one turn, handing each event to emit.
func (h *floodHarness) stream(prompt string, emit func(Event)) error {
	h.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	return h.a.Run(ctx, Turn{ThreadID: "th", Prompt: prompt, Dir: h.dir}, func(e Event) {
		emit(e)
		if p, ok := e.(Permission); ok {
			p.Reply <- h.answer(p)
		}
	})
}

// pid is the running agent's pid.
func (h *floodHarness) pid() int {
	h.t.Helper()
	b, err := os.ReadFile(h.pidFile)
	if err != nil {
		h.t.Fatal(err)
	}
	n, err := strconv.Atoi(string(b))
	if err != nil {
		h.t.Fatal(err)
	}
	return n
}

// acpFoldTools folds the tool events into the calls as chat does.
func acpFoldTools(evs []Event) map[string]message.Tool {
	tools := map[string]message.Tool{}
	for _, e := range evs {
		switch e := e.(type) {
		case ToolCall:
			tools[e.Tool.CallID] = acpCopyTool(e.Tool)
		case ToolUpdate:
			tool := tools[e.CallID]
			tool.CallID = e.CallID
			message.ToolUpdate(e).Apply(&tool)
			tools[e.CallID] = tool
		}
	}
	return tools
}

// cpuTime is the CPU time this process used so far.
func cpuTime(t *testing.T) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		t.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func TestACPFloodOfNotificationsIsApplied(t *testing.T) {
	// The SDK closes the connection when 1,024 notifications wait; the
	// agent writes 100,000 as fast as it can. All are applied, in order.
	n := 100_000
	if testing.Short() {
		n = 20_000
	}
	h := newFloodHarness(t, ACPOptions{})
	if _, err := h.run("flood 1"); err != nil { // started and initialized
		t.Fatal(err)
	}
	cpu0, wall0 := cpuTime(t), time.Now()
	evs, err := h.run("flood " + strconv.Itoa(n))
	wall, cpu := time.Since(wall0), cpuTime(t)-cpu0
	if err != nil {
		t.Fatalf("turn: %v", err)
	}
	var want strings.Builder
	for i := 1; i <= n; i++ {
		want.WriteString("c" + strconv.Itoa(i) + ";")
	}
	if got := acpText(evs); got != want.String() {
		t.Fatalf("the reply's text is %d bytes, want the %d chunks concatenated (%d bytes); it starts %q and ends %q",
			len(got), n, want.Len(), got[:min(len(got), 40)], got[max(0, len(got)-40):])
	}
	t.Logf("%d notifications: %d TextDelta events after coalescing; wall %v, chipchat's CPU %v (%.1f µs a notification)",
		n, len(acpOf[TextDelta](evs)), wall.Round(time.Millisecond), cpu.Round(time.Millisecond), float64(cpu.Microseconds())/float64(n))
}

func TestACPUpdatesDecodedTwoWaysKeepTheirOrder(t *testing.T) {
	// chipchat decodes most chunks itself and leaves the rest (here every
	// third, carrying _meta) to the SDK: written back to back, they are
	// still applied in the order sent.
	n := 30_000
	if testing.Short() {
		n = 6_000
	}
	h := newFloodHarness(t, ACPOptions{})
	evs, err := h.run("mixed " + strconv.Itoa(n))
	if err != nil {
		t.Fatal(err)
	}
	var want strings.Builder
	for i := 1; i <= n; i++ {
		want.WriteString("c" + strconv.Itoa(i) + ";")
	}
	if got := acpText(evs); got != want.String() {
		i := 0
		for i < min(len(got), want.Len()) && got[i] == want.String()[i] {
			i++
		}
		t.Fatalf("the text (%d bytes, want %d) departs from the order sent at byte %d: %q", len(got), want.Len(), i, got[max(0, i-20):min(len(got), i+20)])
	}
}

func TestACPOverlongLineStopsTheAgent(t *testing.T) {
	h := newFloodHarness(t, ACPOptions{})
	if _, err := h.run("flood 1"); err != nil {
		t.Fatal(err)
	}
	pid := h.pid()
	h.a.mu.Lock()
	p := h.a.proc
	h.a.mu.Unlock()
	_, err := h.run("big " + strconv.Itoa(50<<20))
	if err == nil {
		t.Fatal("a 50 MB line ended the turn without an error")
	}
	const want = "the agent sent a 50 MB message; chipchat reads at most 10 MB"
	if !strings.Contains(err.Error(), want) {
		t.Fatalf("error = %q, want it to say %q", err, want)
	}
	var ae *Error
	if !errors.As(err, &ae) {
		t.Errorf("error %T is not an *agent.Error", err)
	}
	// Stopped cleanly: reaped, its pipes closed, the reader and the SDK's
	// receiver gone.
	select {
	case <-p.exited:
	default:
		t.Error("the agent process was not reaped when the turn failed")
	}
	if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
		t.Errorf("kill(%d, 0) = %v, want ESRCH: the agent still runs", pid, err)
	}
	select {
	case <-p.lines.done:
	default:
		t.Error("the line reader still runs")
	}
	select {
	case <-p.conn.Done():
	default:
		t.Error("the SDK's side of the connection is still open")
	}
	// The next turn (alt+r) starts a new agent.
	evs, err := h.run("flood 3")
	if err != nil {
		t.Fatalf("the turn after the cut: %v", err)
	}
	if got := acpText(evs); got != "c1;c2;c3;" {
		t.Errorf("text after the restart = %q", got)
	}
	if h.pid() == pid {
		t.Error("the next turn did not start a new agent")
	}
	// The log says why.
	if b, _ := os.ReadFile(h.logPath); !strings.Contains(string(b), "agent line over the limit") {
		t.Errorf("the log lacks the cut:\n%s", b)
	}
}

func TestACPLineAtTheSDKLimit(t *testing.T) {
	// A line of exactly acpMaxLine bytes is the longest the SDK takes:
	// it passes; one byte more is cut.
	if testing.Short() {
		t.Skip("20 MB of lines")
	}
	h := newFloodHarness(t, ACPOptions{})
	evs, err := h.run("line " + strconv.Itoa(acpMaxLine))
	if err != nil {
		t.Fatalf("a line of %d bytes: %v", acpMaxLine, err)
	}
	if got := acpText(evs); !strings.HasSuffix(got, "after") || len(got) < acpMaxLine-200 {
		t.Errorf("text is %d bytes ending %q, want the long chunk and then \"after\"", len(got), got[max(0, len(got)-10):])
	}
	_, err = h.run("line " + strconv.Itoa(acpMaxLine+1))
	if err == nil || !strings.Contains(err.Error(), "chipchat reads at most 10 MB") {
		t.Fatalf("a line of %d bytes: err = %v, want the cut", acpMaxLine+1, err)
	}
}

func TestACPGrowingToolContentIsBounded(t *testing.T) {
	// ACP's replace-content pattern: 100 updates each resending content
	// that grows to 10 MB. The item keeps at most ReplyBytes of it, its
	// head and its tail.
	n, size := 100, 10_000_000 // 10 MB: the largest line fits the SDK's 10 MiB
	if testing.Short() || raceOn {
		n, size = 20, 6<<20
	}
	const limit = 4 << 20
	h := newFloodHarness(t, ACPOptions{})
	if _, err := h.run("flood 1"); err != nil {
		t.Fatal(err)
	}
	cpu0, wall0 := cpuTime(t), time.Now()
	// Fold as chat does, keeping only the call as it stands.
	var g message.Tool
	var emitted int64
	events := 0
	err := h.stream("grow "+strconv.Itoa(n)+" "+strconv.Itoa(size), func(e Event) {
		switch e := e.(type) {
		case ToolCall:
			events++
			g = acpCopyTool(e.Tool)
			emitted += contentBytes(e.Tool.Content)
		case ToolUpdate:
			events++
			message.ToolUpdate(e).Apply(&g)
			emitted += contentBytes(e.Content)
			if b := contentBytes(e.Content); b > limit {
				t.Errorf("an update carries %d bytes of content, over the %d kept", b, limit)
			}
		}
	})
	wall, cpu := time.Since(wall0), cpuTime(t)-cpu0
	if err != nil {
		t.Fatal(err)
	}
	var sent int64
	for k := 1; k <= n; k++ {
		sent += int64(size * k / n)
	}
	if g.Status != "completed" || len(g.Content) != 1 {
		t.Fatalf("tool = %+v", g)
	}
	body := g.Content[0].Text
	if len(body) > limit || !strings.HasPrefix(body, "HEADzzz") || !strings.HasSuffix(body, "zzzTAIL") || !strings.Contains(body, "left out (reply_bytes)") {
		t.Errorf("body is %d bytes (limit %d), starts %q, ends %q", len(body), limit, body[:min(20, len(body))], body[max(0, len(body)-20):])
	}
	t.Logf("%d updates, %d MB sent, %d MB emitted in %d tool events; wall %v, chipchat's CPU %v; %s",
		n, sent>>20, emitted>>20, events, wall.Round(time.Millisecond), cpu.Round(time.Millisecond), vmHWM())
}

// vmHWM is this process's peak resident memory, as Linux reports it.
func vmHWM() string {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return "VmHWM unknown"
	}
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "VmHWM:") {
			return strings.Join(strings.Fields(l), " ")
		}
	}
	return "VmHWM unknown"
}

func contentBytes(cs []message.ToolContent) int64 {
	var n int64
	for _, c := range cs {
		n += int64(len(c.Text) + len(c.NewText))
		if c.OldText != nil {
			n += int64(len(*c.OldText))
		}
	}
	return n
}

func TestACPClosedConnectionNamesTheLastLogLine(t *testing.T) {
	// The agent prints junk, then closes its stdout and stays: the turn's
	// error says what the SDK last logged.
	h := newFloodHarness(t, ACPOptions{})
	_, err := h.run("closeout")
	if err == nil {
		t.Fatal("no error")
	}
	if !strings.Contains(err.Error(), "last log:") || !strings.Contains(err.Error(), "failed to parse incoming message") {
		t.Errorf("error = %q, want the SDK's last error line", err)
	}
	b, rerr := os.ReadFile(h.logPath)
	if rerr != nil || !strings.Contains(string(b), "failed to parse incoming message") || !strings.Contains(string(b), "pid=") {
		t.Errorf("log file (%v):\n%s", rerr, b)
	}
	if fi, err := os.Stat(h.logPath); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("log file mode: %v %v", fi.Mode(), err)
	}
}
