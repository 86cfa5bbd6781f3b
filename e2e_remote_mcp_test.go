package main

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/chipchat/chipchat/internal/mcpagent"
	"github.com/chipchat/chipchat/internal/sshtest"
	"github.com/chipchat/chipchat/store"
)

// TestRemoteMCPAgentProcess is internal/mcpagent for these tests; it does
// nothing in a normal run.
func TestRemoteMCPAgentProcess(t *testing.T) {
	if os.Getenv(mcpagent.Env) != "1" {
		return
	}
	mcpagent.Main()
	os.Exit(0)
}

// mcpAgentSpec is internal/mcpagent as the [remotes.box] agent: the test
// binary, run on the remote over the master.
func mcpAgentSpec() string {
	return "acp:env " + mcpagent.Env + "=1 " + os.Args[0] + " -test.run=^TestRemoteMCPAgentProcess$"
}

// remoteThreadID is the id of the only thread of the remote project
// that holds text, read from the store while chipchat runs.
func remoteThreadID(t *testing.T, e *remoteEnv, text string) string {
	t.Helper()
	st, err := store.OpenReadOnly(e.data)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	p, err := st.ProjectByKey(fmt.Sprintf("ssh://%s%s", sshtest.HostAlias, e.proj))
	if err != nil {
		t.Fatalf("no ssh:// project: %v", err)
	}
	ts, err := st.Threads(p.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, th := range ts {
		ms, err := st.Messages(th.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range ms {
			if strings.Contains(m.Text, text) {
				return th.ID
			}
		}
	}
	t.Fatalf("no thread of the remote project holds %q", text)
	return ""
}

// An agent on the remote (internal/mcpagent, over the master) gets
// chipchat's tools as an http MCP server on the remote's loopback with a
// bearer token, reads the other thread of the project with
// t3_thread_read through the forwarded port, the terminal pane's output
// with terminal_read, and the same URL without the token is refused
// (401).
func TestEndToEndRemoteMCPToolsForwarded(t *testing.T) {
	e := newRemoteEnvWith(t, mcpAgentSpec())
	s := startTmuxSize(t, e.command(t, "--remote", "box"), 160, 50)
	s.waitFor("enter send")
	s.text("servers (remember the words kumquat-orbit-17)")
	s.keys("Enter")
	s.waitFor("chipchat http 127.0.0.1 bearer token")
	id := remoteThreadID(t, e, "kumquat-orbit-17")

	s.keys("C-n")
	s.waitUntil("a new thread", func(scr string) bool { return !strings.Contains(scr, "bearer token") })
	s.text(fmt.Sprintf(`call chipchat t3_thread_read {"threadId":"%s"}`, id))
	s.keys("Enter")
	s.waitFor("result: ", "kumquat-orbit-17")

	// terminal_read reads the terminal pane's tabs (a remote shell here).
	s.keys("C-t")
	s.waitFor("Terminal 1", "keys go to the shell")
	s.text("echo pane-$((6*7))-words")
	s.keys("Enter")
	s.waitForRow("pane-42-words")
	s.keys("C-t")
	s.waitFor("enter send")
	s.text(`call chipchat terminal_read {}`)
	s.keys("Enter")
	s.waitUntil("terminal_read's answer", func(scr string) bool {
		return strings.Contains(scr, `result: {"terminals":[{"id":"term-1","label":"Terminal 1","running":true`) && strings.Count(scr, "pane-42-") >= 2
	})

	s.text("bare chipchat")
	s.keys("Enter")
	s.waitFor("status: 401")
	s.keys("C-q")
	s.waitFor("EXITED=0")
}

// A server that refuses forwarding leaves chipchat's tools off for the
// remote agent, with a notice that says why; the turn goes on.
func TestEndToEndRemoteMCPForwardingRefused(t *testing.T) {
	srv := sshtest.StartWith(t, sshtest.Options{SSHDConfig: "AllowTcpForwarding no\nAllowStreamLocalForwarding no"})
	e := newRemoteEnvOn(t, mcpAgentSpec(), srv)
	s := startTmuxSize(t, e.command(t, "--remote", "box"), 200, 50)
	s.waitFor("enter send")
	s.text("servers")
	s.keys("Enter")
	s.waitFor("chipchat's tools (t3_thread_read, terminal_read) are off for this agent", "refuses port forwarding", "servers: none")
	s.keys("C-q")
	s.waitFor("EXITED=0")
}
