package agent

import (
	"bytes"
	"fmt"
	"runtime"
	"strings"
	"testing"

	acp "github.com/coder/acp-go-sdk"
)

// TestACPReaderKeepsItsLongLineBuffer: an agent resending a growing tool
// output sends long line after long line; the reader reads them into one
// buffer kept while they come, not one grown again for each (growing a
// byte slice by appending 64 KiB reads costs about five times the line in
// copies: 100 updates to 10 MB were 20 % of chipchat's CPU). Counted in
// bytes allocated: 16 lines of 4 MiB allocate their decoded strings (one
// copy each) and one buffer's growth, under (16+8)·4 MiB; regrowing the
// buffer per line allocates about 5·4 MiB more per line.
func TestACPReaderKeepsItsLongLineBuffer(t *testing.T) {
	const lines, size = 16, 4 << 20
	var src bytes.Buffer
	for i := range lines {
		fmt.Fprintf(&src, `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"tool_call_update","toolCallId":"g","content":[{"type":"content","content":{"type":"text","text":"%d%s"}}]}}}`+"\n",
			i%10, strings.Repeat("z", size-1))
	}
	l := newACPReader(&src)
	got := 0
	l.update = func(n acp.SessionNotification) {
		if u := n.Update.ToolCallUpdate; u != nil && len(u.Content) == 1 && len(u.Content[0].Content.Content.Text.Text) == size {
			got++
		}
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	l.run()
	runtime.ReadMemStats(&after)
	if got != lines {
		t.Fatalf("%d of %d updates applied", got, lines)
	}
	alloc := after.TotalAlloc - before.TotalAlloc
	t.Logf("%d lines of %d MiB: %d MiB allocated", lines, size>>20, alloc>>20)
	if alloc > (lines+8)*size {
		t.Errorf("reading %d lines of %d MiB allocated %d MiB, over %d MiB", lines, size>>20, alloc>>20, (lines+8)*size>>20)
	}
}

// TestACPDecodeCopiesAnEscapedStringOnce: a tool output with escapes (a
// newline every 15 bytes) is decoded into one buffer sized from its raw
// length and handed over as the string: about one line's size allocated,
// not the copy grown by doubling and copied again into a string (5.6× the
// line before).
func TestACPDecodeCopiesAnEscapedStringOnce(t *testing.T) {
	text := strings.Repeat("line of output\n", 4<<20/15)
	line := acpUpdateLine(t, acp.SessionUpdate{ToolCallUpdate: &acp.SessionToolCallUpdate{SessionUpdate: "tool_call_update", ToolCallId: "g",
		Content: []acp.ToolCallContent{{Content: &acp.ToolCallContentContent{Type: "content", Content: acp.TextBlock(text)}}}}})
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	n, ok := acpDecodeUpdate(line)
	runtime.ReadMemStats(&after)
	if !ok || n.Update.ToolCallUpdate.Content[0].Content.Content.Text.Text != text {
		t.Fatal("not decoded as sent")
	}
	alloc := after.TotalAlloc - before.TotalAlloc
	t.Logf("a %d-byte line: %d bytes allocated (%.2f×)", len(line), alloc, float64(alloc)/float64(len(line)))
	if alloc > uint64(len(line))*5/4 {
		t.Errorf("decoding a %d-byte line allocated %d bytes, over 1.25× the line", len(line), alloc)
	}
}
