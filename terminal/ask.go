package terminal

// A tab the user must answer before the app's project is reachable (a
// remote project's first ssh connection asking for a password, a
// passphrase or a host key): main starts its command (StartCommand) and
// hands it over with Ask; the app shows the tab, focused, with the note;
// once main saw it end, Answered closes the ask.

// AskMsg is a tab to show, focused, with Note toasted.
type AskMsg struct {
	Terminal *Terminal
	Note     string
}

// AnsweredMsg ends the ask of tab ID: the tab goes when Remove (it went
// well), else it stays for the user to read; the keys leave the pane.
type AnsweredMsg struct {
	ID     string
	Remove bool
}

// Ask hands t to the app as a tab the user must answer; false once the
// app has closed.
func (h *AgentTerminals) Ask(t *Terminal, note string) bool { return h.post(AskMsg{t, note}) }

// Answered tells the app the ask of tab id is over.
func (h *AgentTerminals) Answered(id string, remove bool) { h.post(AnsweredMsg{id, remove}) }
