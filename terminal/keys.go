package terminal

import (
	"strconv"

	tea "charm.land/bubbletea/v2"
)

// KeyBytes translates a key press into the bytes a terminal sends for it.
// appCursor selects the DECCKM form of the arrows (ESC O A). It returns nil
// for keys it does not know.
func KeyBytes(k tea.KeyPressMsg, appCursor bool) []byte {
	mod := k.Mod
	ctrl, alt, shift := mod&tea.ModCtrl != 0, mod&tea.ModAlt != 0, mod&tea.ModShift != 0
	prefix := func(b []byte) []byte {
		if alt && b != nil {
			return append([]byte{0x1b}, b...)
		}
		return b
	}
	// xterm modifier parameter: 1 + shift + 2*alt + 4*ctrl
	mparam := 1
	if shift {
		mparam++
	}
	if alt {
		mparam += 2
	}
	if ctrl {
		mparam += 4
	}
	cursorKey := func(c byte) []byte {
		if mparam > 1 {
			return []byte("\x1b[1;" + strconv.Itoa(mparam) + string(c))
		}
		if appCursor {
			return []byte{0x1b, 'O', c}
		}
		return []byte{0x1b, '[', c}
	}
	tilde := func(n int) []byte {
		if mparam > 1 {
			return []byte("\x1b[" + strconv.Itoa(n) + ";" + strconv.Itoa(mparam) + "~")
		}
		return []byte("\x1b[" + strconv.Itoa(n) + "~")
	}
	switch k.Code {
	case tea.KeyUp:
		return cursorKey('A')
	case tea.KeyDown:
		return cursorKey('B')
	case tea.KeyRight:
		return cursorKey('C')
	case tea.KeyLeft:
		return cursorKey('D')
	case tea.KeyHome:
		return cursorKey('H')
	case tea.KeyEnd:
		return cursorKey('F')
	case tea.KeyInsert:
		return tilde(2)
	case tea.KeyDelete:
		return tilde(3)
	case tea.KeyPgUp:
		return tilde(5)
	case tea.KeyPgDown:
		return tilde(6)
	case tea.KeyEnter:
		return prefix([]byte{'\r'})
	case tea.KeyTab:
		if shift {
			return []byte("\x1b[Z")
		}
		return prefix([]byte{'\t'})
	case tea.KeyBackspace:
		if ctrl {
			return prefix([]byte{0x08})
		}
		return prefix([]byte{0x7f})
	case tea.KeyEscape:
		return prefix([]byte{0x1b})
	case tea.KeySpace:
		if ctrl {
			return prefix([]byte{0})
		}
		return prefix([]byte{' '})
	}
	if k.Code >= tea.KeyF1 && k.Code <= tea.KeyF1+11 {
		n := int(k.Code - tea.KeyF1)
		if n < 4 {
			if mparam > 1 {
				return []byte("\x1b[1;" + strconv.Itoa(mparam) + string(rune('P'+n)))
			}
			return []byte{0x1b, 'O', byte('P' + n)}
		}
		return tilde([]int{15, 17, 18, 19, 20, 21, 23, 24}[n-4])
	}
	if ctrl {
		c := k.Code
		switch {
		case c >= 'a' && c <= 'z':
			return prefix([]byte{byte(c - 'a' + 1)})
		case c >= 'A' && c <= 'Z':
			return prefix([]byte{byte(c - 'A' + 1)})
		case c == '@' || c == '2':
			return prefix([]byte{0})
		case c == '[' || c == '3':
			return prefix([]byte{0x1b})
		case c == '\\' || c == '4':
			return prefix([]byte{0x1c})
		case c == ']' || c == '5':
			return prefix([]byte{0x1d})
		case c == '^' || c == '6':
			return prefix([]byte{0x1e})
		case c == '_' || c == '-' || c == '7':
			return prefix([]byte{0x1f})
		case c == '?' || c == '8':
			return prefix([]byte{0x7f})
		}
		return nil
	}
	if k.Text != "" {
		return prefix([]byte(k.Text))
	}
	if k.Code > 0 && k.Code < 0x10ffff && k.Code >= 0x20 {
		return prefix([]byte(string(k.Code)))
	}
	return nil
}
