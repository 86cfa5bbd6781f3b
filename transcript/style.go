package transcript

import "charm.land/lipgloss/v2"

var noStyle = lipgloss.NewStyle()
