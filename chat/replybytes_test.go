//go:build unix

package chat

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chipchat/chipchat/agent"
	"github.com/chipchat/chipchat/internal/floodagent"
	"github.com/chipchat/chipchat/message"
)

// A tool call's content is kept to [limits] reply_bytes, its head and its
// tail, in memory (the items the UI gets) and in the store, however often
// it is replaced.
func TestToolContentKeptToReplyBytes(t *testing.T) {
	const limit = 64 << 10
	fb := &fakeBackend{caps: agent.Capabilities{Cancel: true}, turns: make(chan *fakeTurn, 4)}
	e := newEnvWith(t, fb, fb, func(o *Options) { o.Limits.ReplyBytes = limit })
	e.send("go")
	ft := e.turn()
	rs := until[ReplyStarted](e, nil)
	body := func(n int) string { return "HEAD" + strings.Repeat("x", n) + "TAIL" }
	ft.emit(agent.ToolCall{Tool: message.Tool{CallID: "c", Kind: "execute", Title: "cat", Status: message.ToolInProgress,
		Content: []message.ToolContent{{Type: message.ContentText, Text: body(1 << 20)}}}})
	for k := 1; k <= 50; k++ {
		ft.emit(agent.ToolUpdate{CallID: "c", Content: []message.ToolContent{{Type: message.ContentText, Text: body(k * 20 << 10)}}})
	}
	done := message.ToolCompleted
	ft.emit(agent.ToolUpdate{CallID: "c", Status: &done})
	ft.end <- nil
	until[ReplyFinished](e, replyIs(rs.Reply.ID))
	check := func(where string, tool *message.Tool) {
		t.Helper()
		if tool == nil || len(tool.Content) != 1 {
			t.Fatalf("%s: tool %+v", where, tool)
		}
		s := tool.Content[0].Text
		if len(s) > limit || !strings.HasPrefix(s, "HEADxxx") || !strings.HasSuffix(s, "xxxTAIL") || !strings.Contains(s, "left out (reply_bytes)") {
			t.Errorf("%s: %d bytes (limit %d), %q…%q", where, len(s), limit, s[:min(len(s), 16)], s[max(0, len(s)-16):])
		}
	}
	for _, ev := range e.events {
		if c, ok := ev.(ItemChanged); ok && c.Item.Kind == message.ItemTool {
			if n := len(c.Item.Tool.Content[0].Text); n > limit {
				t.Fatalf("an item the UI got holds %d bytes of content", n)
			}
		}
	}
	stored := e.messages()[1].Items
	check("stored", stored[0].Tool)
}

// TestFloodChatHelperProcess is internal/floodagent for the tests below.
func TestFloodChatHelperProcess(t *testing.T) {
	if os.Getenv(floodagent.Env) != "1" {
		return
	}
	floodagent.Main()
	os.Exit(0)
}

// An ACP agent writing 100,000 message chunks as fast as it can: the
// reply stored is every chunk, in order.
func TestACPFloodReachesTheReply(t *testing.T) {
	n := 100_000
	if testing.Short() || raceOn {
		n = 20_000
	}
	a, err := agent.NewACP("exec "+os.Args[0]+" -test.run='^TestFloodChatHelperProcess$'",
		agent.ACPOptions{Env: []string{floodagent.Env + "=1"}, LogPath: filepath.Join(t.TempDir(), "chipchat.log")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	e := newEnvWith(t, nil, a, nil)
	var ru0 syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru0)
	wall0 := time.Now()
	e.send("flood " + strconv.Itoa(n))
	f := untilWithin[ReplyFinished](e, 2*time.Minute, nil)
	wall := time.Since(wall0)
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	if f.Status != message.StatusDone {
		t.Fatalf("reply %s: %v", f.Status, f.Err)
	}
	var want strings.Builder
	for i := 1; i <= n; i++ {
		want.WriteString("c" + strconv.Itoa(i) + ";")
	}
	reply := e.messages()[1]
	if got := message.ReplyText(reply.Items); got != want.String() {
		t.Fatalf("the stored reply is %d bytes in %d items, want %d bytes", len(got), len(reply.Items), want.Len())
	}
	cpu := time.Duration(ru.Utime.Nano()+ru.Stime.Nano()) - time.Duration(ru0.Utime.Nano()+ru0.Stime.Nano())
	t.Logf("%d notifications through ACP, chat and the store: wall %v, CPU %v", n, wall.Round(time.Millisecond), cpu.Round(time.Millisecond))
}

// untilWithin is until with its own bound (a turn that streams a lot gets
// a longer one).
func untilWithin[T Event](e *env, d time.Duration, ok func(T) bool) T {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	for {
		for i := e.cursor; i < len(e.events); i++ {
			if v, is := e.events[i].(T); is && (ok == nil || ok(v)) {
				e.cursor = i + 1
				return v
			}
		}
		evs := e.s.Wait(ctx)
		if evs == nil {
			var zero T
			e.t.Fatalf("no %T event within %v; saw %v", zero, d, e.events[e.cursor:])
		}
		e.events = append(e.events, evs...)
	}
}
