// Command bareui is the idle reference of chipchat's end-to-end tests: a
// Bubble Tea v2 program with nothing but a static full-screen view, styled
// as chipchat's screen is (a coloured header, text, a rule, a hint bar),
// that schedules no command and never changes its view. Whatever CPU it
// uses while idle is Bubble Tea's renderer's own (its frame ticker), the
// floor no program on that renderer can go below (see
// internal/bareui/README.md).
package main

import (
	"fmt"
	"os"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
)

type model struct{ w, h int }

func (m model) Init() tea.Cmd { return nil }

func (m model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.w, m.h = msg.Width, msg.Height
	case tea.KeyPressMsg:
		if msg.String() == "ctrl+c" || msg.String() == "q" {
			return m, tea.Quit
		}
	}
	return m, nil
}

var (
	header = lipgloss.NewStyle().Bold(true).Foreground(lipgloss.Color("#89b4fa"))
	dim    = lipgloss.NewStyle().Foreground(lipgloss.Color("#6c7086"))
	text   = lipgloss.NewStyle().Foreground(lipgloss.Color("#cdd6f4")).Italic(true)
)

func (m model) View() tea.View {
	var b strings.Builder
	b.WriteString(header.Render(" bareui · a static screen · idle"))
	// Full-width rows, three styled runs each: a frame the size of a
	// full chat screen, so comparing it costs what comparing chipchat's
	// does.
	for i := 1; i < m.h-2; i++ {
		row := fmt.Sprintf(" line %d of a view that never changes ", i)
		fill := strings.Repeat("·", max(m.w-len(row)-12, 0))
		b.WriteString("\n" + header.Render(row) + dim.Render(fill) + text.Render(" end of row "))
	}
	b.WriteString("\n" + dim.Render(strings.Repeat("─", max(m.w, 1))))
	b.WriteString("\n" + dim.Render(" q quit"))
	v := tea.NewView(b.String())
	v.AltScreen = true
	return v
}

func main() {
	if _, err := tea.NewProgram(model{w: 80, h: 24}).Run(); err != nil {
		fmt.Fprintln(os.Stderr, "bareui:", err)
		os.Exit(1)
	}
}
