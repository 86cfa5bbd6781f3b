package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chipchat/chipchat/internal/floodagent"
)

// Issue 23 item 6 from a fake agent on the real binary: permission
// requests with 500 options and with none (internal/floodagent replays
// them and says what chipchat answered).

// askFile writes the updates and permission requests floodagent's "ask"
// replays: a tool call, then its permission with options.
func askFile(t *testing.T, dir string, options []map[string]string) string {
	t.Helper()
	call := map[string]any{"update": map[string]any{"sessionUpdate": "tool_call", "toolCallId": "p1", "title": "Delete the build cache",
		"kind": "delete", "status": "pending"}}
	perm := map[string]any{"permission": map[string]any{"toolCall": map[string]any{"toolCallId": "p1"}, "options": options}}
	var b strings.Builder
	for _, v := range []any{call, perm} {
		l, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(l)
		b.WriteByte('\n')
	}
	p := filepath.Join(dir, "ask.jsonl")
	writeFile(t, p, b.String())
	return p
}

// untilShown sends key until the screen shows want, waiting up to 250 ms
// after each: keys right after a prompt appears are ignored for a moment,
// and a key that got through is seen before the next is sent (two escapes
// in a row read as alt+esc).
func (a *chipchatApp) untilShown(key, want string) string {
	a.t.Helper()
	for range 40 {
		a.keys(key)
		deadline := time.Now().Add(250 * time.Millisecond)
		for time.Now().Before(deadline) {
			if scr := a.screen(); strings.Contains(scr, want) {
				return scr
			}
			time.Sleep(10 * time.Millisecond) // the polling pace
		}
	}
	a.t.Fatalf("%s never brought %q:\n%s", key, want, a.screen())
	return ""
}

// 500 options: the list scrolls with the highlight always on screen and
// says "n of m"; after 45 × ↓ the highlighted option is the one shown
// highlighted, and enter answers that one.
func TestEndToEndBoundaryFiveHundredOptions(t *testing.T) {
	a, p := startSelfAgent(t, "TestBoundaryFloodAgentProcess", "", floodagent.Env+"=1")
	var opts []map[string]string
	for i := 1; i <= 500; i++ {
		name, kind := fmt.Sprintf("Option %d", i), "allow_once"
		if i == 46 {
			name, kind = "Always allow everything", "allow_always"
		}
		opts = append(opts, map[string]string{"optionId": fmt.Sprintf("o%d", i), "name": name, "kind": kind})
	}
	file := askFile(t, p.root, opts)
	a.text("ask " + file)
	a.keys("Enter")
	a.waitFor("Delete the build cache", "1. Option 1", "1 of 500")
	var scr string
	for i := 2; i <= 46; i++ {
		scr = a.untilShown("Down", fmt.Sprintf("%d of 500", i))
	}
	if !strings.Contains(scr, "> 46. Always allow everything") {
		t.Fatalf("the highlighted option is not on the screen:\n%s", scr)
	}
	a.keys("Enter")
	a.waitFor(`answered: {"outcome":{"optionId":"o46","outcome":"selected"}}`, "enter send")
	a.keys("C-q")
	a.waitFor("EXITED=0")
}

// No options: the prompt says so and what esc answers, and esc answers
// exactly that.
func TestEndToEndBoundaryZeroOptions(t *testing.T) {
	a, p := startSelfAgent(t, "TestBoundaryFloodAgentProcess", "", floodagent.Env+"=1")
	file := askFile(t, p.root, []map[string]string{})
	a.text("ask " + file)
	a.keys("Enter")
	a.waitFor("Delete the build cache", "The agent offered no options to pick: esc answers cancelled.")
	a.untilShown("Escape", `answered: {"outcome":{"outcome":"cancelled"}}`)
	a.waitFor("enter send")
	a.keys("C-q")
	a.waitFor("EXITED=0")
}
