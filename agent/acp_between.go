package agent

// BetweenTurns is a backend that tells what changes in a thread's session
// while no turn of it runs: an ACP agent names the session (Claude's
// adapter sends session_info_update once its title request returns, after
// the first turn ended), or changes its commands, modes or options. Such
// events otherwise wait for the next turn. f is called on the backend's
// own goroutine, never with a lock of the backend held; it must not
// block.
type BetweenTurns interface {
	OnBetweenTurns(f func(threadID string, evs []Event))
}

// OnBetweenTurns sets the callback for state updates that arrive while no
// turn of their session runs (nil: kept for the next turn).
func (a *ACP) OnBetweenTurns(f func(threadID string, evs []Event)) {
	a.mu.Lock()
	a.between = f
	a.mu.Unlock()
}

// betweenTurns hands what changed in session sid's state to the between
// callback, unless a turn of it runs (its flush tells it) or it is being
// loaded (the turn that loads it does). a.mu must not be held.
func (a *ACP) betweenTurns(sid string) {
	a.mu.Lock()
	f, s := a.between, a.state[sid]
	thread := ""
	for th, id := range a.sessions {
		if id == sid {
			thread = th
			break
		}
	}
	var evs []Event
	if f != nil && thread != "" && s != nil && !s.loading && a.turns[sid] == nil {
		evs = s.events(true)
	}
	a.mu.Unlock()
	if len(evs) > 0 {
		f(thread, evs)
	}
}
