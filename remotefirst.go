package main

import (
	"context"
	"fmt"

	"github.com/chipchat/chipchat/terminal"
	"github.com/chipchat/chipchat/workspace"
)

// The first connection of a remote project (issue 28 item 2): when the
// batch-mode connection failed on a question a person can answer
// (remote.Conn.Answerable: a host key not known yet, a password, a
// passphrase), the app opens at once and the interactive ssh runs in a
// tab of its terminal pane, shown and focused, for the user to answer.
// Once it ends the connection is made in batch mode over the master it
// left, the tab goes, the agent's program is looked up there and the
// watch of the master begins. When that ssh fails (a mistyped password or
// passphrase), it runs again in a new tab, up to firstAttempts times. Until then every remote command fails at
// once with batch mode's one line (nothing waits on the user).

// firstAsk is what the batch-mode connection could not answer.
type firstAsk struct {
	err error  // Connect's one line
	why string // what ssh asks (remote.Conn.Answerable)
}

// firstTabID is the first attempt's tab id in the terminal pane; a
// later attempt's is firstTabID-N.
const firstTabID = "ssh-first"

// firstAttempts is how many times the interactive ssh runs before
// chipchat gives up: after a mistyped password or passphrase (ssh itself
// asks up to three times each run) ssh asks again in a new tab, the
// failed one kept for its words.
const firstAttempts = 3

// firstConnect is watch's first step for a project with ask set: it runs
// the interactive connection in a tab of terms (scrollback lines) and
// reports true once connected; spec is the agent to look up then.
func (p *remoteProject) firstConnect(terms *terminal.AgentTerminals, scrollback int, spec string) func(context.Context, func(workspace.LinkEvent)) bool {
	return func(ctx context.Context, post func(workspace.LinkEvent)) bool {
		host := p.Host()
		down := func(why string) bool {
			post(workspace.LinkEvent{Status: " · not connected to " + host, Notice: why, Err: true})
			return false
		}
		note := "connecting to " + host + ": " + p.ask.why + " — answer ssh in the terminal"
		for attempt := 1; ; attempt++ {
			id := firstTabID
			if attempt > 1 {
				id = fmt.Sprintf("%s-%d", firstTabID, attempt)
			}
			t, err := terminal.StartCommand(id, terminal.TabLabel("ssh ", host), scrollback, "", nil, p.conn.Interactive().Args)
			if err != nil {
				return down("could not run ssh: " + err.Error())
			}
			status := " · connecting to " + host + ": ssh asks in the terminal"
			if attempt > 1 {
				status += fmt.Sprintf(" (try %d of %d)", attempt, firstAttempts)
			}
			post(workspace.LinkEvent{Status: status})
			if !terms.Ask(t, note) {
				t.Close()
				return false
			}
			select {
			case <-t.Done():
			case <-ctx.Done():
				t.Close()
				return false
			}
			if _, code := t.Exited(); code != 0 {
				terms.Answered(t.ID, false) // the tab stays, for ssh's words
				if attempt == firstAttempts {
					return down(fmt.Sprintf("ssh to %s ended with exit status %d, %d times (its words are in the terminal tabs); quit and start chipchat again to retry", host, code, attempt))
				}
				note = fmt.Sprintf("ssh to %s ended with exit status %d: asking again (try %d of %d) — answer ssh in the terminal", host, code, attempt+1, firstAttempts)
				continue
			}
			if err := p.conn.Connect(ctx); err != nil {
				terms.Answered(t.ID, false)
				return down(oneLine(err.Error()))
			}
			terms.Answered(t.ID, true)
			post(workspace.LinkEvent{Notice: "connected to " + host})
			if err := checkRemoteAgent(p, spec); err != nil {
				post(workspace.LinkEvent{Notice: oneLine(err.Error()), Err: true})
			}
			return true
		}
	}
}
