//go:build !race

package agent

import (
	"strings"
	"testing"
	"time"

	acp "github.com/coder/acp-go-sdk"
)

// TestACPDecodeUpdateOutpacesTheSDK: chipchat's own decoding of a text
// chunk and of a 1 MB tool output costs at most a quarter of the SDK's
// (measured 11–14× less), both measured in this run, the best of
// several rounds each.
func TestACPDecodeUpdateOutpacesTheSDK(t *testing.T) {
	status := acp.ToolCallStatusInProgress
	for _, c := range []struct {
		name string
		u    acp.SessionUpdate
		n    int
	}{
		{"a text chunk", acp.UpdateAgentMessageText("c12345;"), 2000},
		{"a 1 MB tool output", acp.SessionUpdate{ToolCallUpdate: &acp.SessionToolCallUpdate{SessionUpdate: "tool_call_update", ToolCallId: "g", Status: &status,
			Content: []acp.ToolCallContent{{Content: &acp.ToolCallContentContent{Type: "content", Content: acp.TextBlock(strings.Repeat("line of output\n", 1<<20/15))}}}}}, 2},
	} {
		line := acpUpdateLine(t, c.u)
		best := func(decode func([]byte) (acp.SessionNotification, bool)) time.Duration {
			var least time.Duration
			for range 3 {
				t0 := time.Now()
				for range c.n {
					if _, ok := decode(line); !ok {
						t.Fatalf("%s: not decoded", c.name)
					}
				}
				if d := time.Since(t0); least == 0 || d < least {
					least = d
				}
			}
			return least
		}
		fast, sdk := best(acpDecodeUpdate), best(acpSDKDecode)
		t.Logf("%s: chipchat %v, the SDK %v (%.1f×)", c.name, fast/time.Duration(c.n), sdk/time.Duration(c.n), float64(sdk)/float64(fast))
		if fast*4 > sdk {
			t.Errorf("%s: chipchat's decoding takes %v, the SDK's %v: not 4× faster", c.name, fast/time.Duration(c.n), sdk/time.Duration(c.n))
		}
	}
}
