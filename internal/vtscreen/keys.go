package vtscreen

import (
	"strings"

	tea "charm.land/bubbletea/v2"
)

var keyCodes = map[string]rune{
	"enter": tea.KeyEnter, "left": tea.KeyLeft, "right": tea.KeyRight, "up": tea.KeyUp, "down": tea.KeyDown,
	"home": tea.KeyHome, "end": tea.KeyEnd, "pgup": tea.KeyPgUp, "pgdown": tea.KeyPgDown,
	"backspace": tea.KeyBackspace, "delete": tea.KeyDelete, "esc": tea.KeyEscape, "tab": tea.KeyTab,
	"space": tea.KeySpace, "f1": tea.KeyF1, "f2": tea.KeyF2, "f3": tea.KeyF3, "f4": tea.KeyF4, "f5": tea.KeyF5,
	"f6": tea.KeyF6, "f7": tea.KeyF7, "f8": tea.KeyF8, "f9": tea.KeyF9, "f10": tea.KeyF10, "f11": tea.KeyF11,
	"f12": tea.KeyF12,
}

// Key is the key press a terminal reports for a key name as Bubble Tea
// writes it: "x", "ctrl+a", "alt+shift+left", "enter", "f1", "space".
func Key(k string) tea.KeyPressMsg {
	var mod tea.KeyMod
	for {
		switch {
		case strings.HasPrefix(k, "ctrl+") && len(k) > 5:
			mod |= tea.ModCtrl
			k = k[5:]
			continue
		case strings.HasPrefix(k, "alt+") && len(k) > 4:
			mod |= tea.ModAlt
			k = k[4:]
			continue
		case strings.HasPrefix(k, "shift+") && len(k) > 6:
			mod |= tea.ModShift
			k = k[6:]
			continue
		}
		break
	}
	if c, ok := keyCodes[k]; ok {
		if c == tea.KeySpace && mod == 0 {
			return tea.KeyPressMsg{Code: c, Text: " "}
		}
		return tea.KeyPressMsg{Code: c, Mod: mod}
	}
	r := []rune(k)[0]
	if mod == 0 || mod == tea.ModShift {
		return tea.KeyPressMsg{Code: r, Text: k, Mod: mod}
	}
	return tea.KeyPressMsg{Code: r, Mod: mod}
}
