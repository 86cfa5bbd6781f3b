package transcript

import tea "charm.land/bubbletea/v2"

// selection is the selection mode's state.
type selection struct {
	active bool
	at     stop
}

func (m *Model) startSelection() {}

func (m *Model) selectionKey(msg tea.KeyPressMsg) tea.Cmd { return nil }

func (m *Model) selectionLines(q ppos, ls []string) []string { return ls }
