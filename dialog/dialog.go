package dialog

import (
	tea "charm.land/bubbletea/v2"

	"github.com/chipchat/chipchat/ui/keymap"
)

// Overlay is one thing open over the app: a popup (help, attach, the
// thread list, the stash, a confirmation, the history search), the agent's
// question, a picker of the app's (`/`, modes) or the quote prompt. It is a
// value on the app's overlay stack: it updates itself and returns what
// happened as a typed result for the app; it never holds the app.
type Overlay interface {
	// Update takes a key, a paste or a message meant for it. It returns
	// the overlay to keep (nil: it closed), a command, and a result for
	// the app to act on (nil: none; PassKey: the key is not its own and
	// routing goes on below it).
	Update(msg tea.Msg) (Overlay, tea.Cmd, any)
	// View draws it in at most height lines of width columns.
	View(width, height int) []string
	// Hints is the hint bar while it is on top ("": the pane's).
	Hints() string
	// keymap.Scope is where its keys act (the key table, F1).
	Scope() keymap.Scope
}

// PassKey is the result of an overlay that leaves a key to what is below
// it: the `/` picker lets typing reach the composer.
type PassKey struct{}

// Placement says where an overlay is drawn.
type Placement int

const (
	InArea   Placement = iota // in the main area's place (the default)
	AtBottom                  // over the main area's last rows (the / and modes pickers)
	OnFooter                  // on the footer row (the quote prompt)
)

// Placed is an overlay drawn elsewhere than in the main area's place.
type Placed interface{ Placement() Placement }

// PlaceOf is where o is drawn.
func PlaceOf(o Overlay) Placement {
	if p, ok := o.(Placed); ok {
		return p.Placement()
	}
	return InArea
}
