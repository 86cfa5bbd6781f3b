package main

import (
	"errors"
	"testing"
	"time"

	"github.com/chipchat/chipchat/remote"
	"github.com/chipchat/chipchat/workspace"
)

// The master's changes as the header and the toasts word them: nothing
// for the first connection, the header's "reconnecting" from the loss on
// with the next try's wait, cleared with a "reconnected" line.
func TestLinkStepsWording(t *testing.T) {
	s := linkSteps{host: "devbox"}
	if _, ok := s.step(remote.Change{State: remote.Connected}); ok {
		t.Fatal("the first connection says something")
	}
	for _, c := range []struct {
		ch   remote.Change
		want workspace.LinkEvent
	}{
		{remote.Change{State: remote.Lost, Err: errors.New("Connection reset")},
			workspace.LinkEvent{Status: " · reconnecting to devbox…", Notice: "lost the connection to devbox (Connection reset); reconnecting", Err: true}},
		{remote.Change{State: remote.Retrying, Attempt: 1, Retry: 2 * time.Second, Err: errors.New("remote: devbox: unreachable")},
			workspace.LinkEvent{Status: " · reconnecting to devbox… (next try in 2s)", Notice: "remote: devbox: unreachable; next try in 2s", Err: true}},
		{remote.Change{State: remote.Connected, Attempt: 1}, workspace.LinkEvent{Notice: "reconnected to devbox"}},
	} {
		got, ok := s.step(c.ch)
		if !ok || got != c.want {
			t.Errorf("%+v: %+v, %v; want %+v", c.ch, got, ok, c.want)
		}
	}
	if _, ok := s.step(remote.Change{State: remote.Connected}); ok {
		t.Fatal("a quiet restart of the sentinel says something")
	}
}
