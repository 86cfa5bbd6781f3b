package config

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/chipchat/chipchat/notify"
)

// NotifyConfig is the [notify] table: when chipchat tells the user a turn
// ended, failed or the agent asks (package notify decides and encodes).
type NotifyConfig struct {
	On             []string `toml:"on"`               // events: "turn_end", "question", "error"
	Method         string   `toml:"method"`           // "auto", "osc9", "osc777", "bell" or "off"
	MinTurnSeconds int      `toml:"min_turn_seconds"` // when the terminal never reports focus, shorter turns do not notify
}

// maxMinTurnSeconds bounds [notify] min_turn_seconds (a day).
const maxMinTurnSeconds = 86400

func defaultNotify() NotifyConfig {
	on := make([]string, len(notify.Events))
	for i, e := range notify.Events {
		on[i] = string(e)
	}
	return NotifyConfig{On: on, Method: string(notify.Auto), MinTurnSeconds: int(notify.DefaultMinTurn / time.Second)}
}

// Settings is the table as package notify takes it.
func (n NotifyConfig) Settings() notify.Settings {
	s := notify.Settings{Method: notify.Method(n.Method), MinTurn: time.Duration(n.MinTurnSeconds) * time.Second}
	for _, e := range n.On {
		s.On = append(s.On, notify.Event(e))
	}
	return s
}

// checkNotify refuses an unknown event or method and a min_turn_seconds
// out of range.
func checkNotify(where string, n NotifyConfig) error {
	for _, e := range n.On {
		if !slices.Contains(notify.Events, notify.Event(e)) {
			return fmt.Errorf("%s: notify.on = %q: allowed are %s", where, e, quoted(notify.Events))
		}
	}
	if !slices.Contains(notify.Methods, notify.Method(n.Method)) {
		return fmt.Errorf("%s: notify.method = %q: allowed are %s", where, n.Method, quoted(notify.Methods))
	}
	if n.MinTurnSeconds < 0 || n.MinTurnSeconds > maxMinTurnSeconds {
		return fmt.Errorf("%s: notify.min_turn_seconds = %d: allowed are 0 to %d seconds", where, n.MinTurnSeconds, maxMinTurnSeconds)
	}
	return nil
}

func quoted[T ~string](vs []T) string {
	q := make([]string, len(vs))
	for i, v := range vs {
		q[i] = fmt.Sprintf("%q", v)
	}
	return strings.Join(q, ", ")
}
