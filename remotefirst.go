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
// watch of the master begins. Until then every remote command fails at
// once with batch mode's one line (nothing waits on the user).

// firstAsk is what the batch-mode connection could not answer.
type firstAsk struct {
	err error  // Connect's one line
	why string // what ssh asks (remote.Conn.Answerable)
}

// firstTabID is the tab's id in the terminal pane.
const firstTabID = "ssh-first"

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
		argv := p.conn.Interactive().Args
		t, err := terminal.StartCommand(firstTabID, terminal.TabLabel("ssh ", host), scrollback, "", nil, argv)
		if err != nil {
			return down("could not run ssh: " + err.Error())
		}
		post(workspace.LinkEvent{Status: " · connecting to " + host + ": ssh asks in the terminal"})
		if !terms.Ask(t, "connecting to "+host+": "+p.ask.why+" — answer ssh in the terminal") {
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
			terms.Answered(t.ID, false)
			return down(fmt.Sprintf("ssh to %s ended with exit status %d (its words are in the terminal tab); quit and start chipchat again to retry", host, code))
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
