package ui

import (
	"strings"
	"testing"

	"github.com/chipchat/chipchat/config"
	"github.com/chipchat/chipchat/ui/keymap"
)

// Limits out of range and key names no key has are refused at start with
// one line naming the file, the setting and what is allowed; the "off"
// values stay valid.
func TestConfigRefusals(t *testing.T) {
	for _, tc := range []struct {
		text string
		want []string // in the error; nil: accepted
	}{
		{"[limits]\nattachment_bytes = 0\n", []string{"limits.attachment_bytes = 0", "allowed are 1024"}},
		{"[limits]\nattachment_bytes = -5\n", []string{"limits.attachment_bytes = -5"}},
		{"[limits]\ncomposer_rows = -3\n", []string{"limits.composer_rows = -3", "1 to 200"}},
		{"[limits]\nscrollback = 0\n", []string{"limits.scrollback = 0"}},
		{"[limits]\npaste_chip_chars = -2\n", []string{"limits.paste_chip_chars = -2", "-1 (never)"}},
		{"[limits]\npaste_chip_chars = 0\n", []string{"limits.paste_chip_chars = 0"}},
		{"[limits]\npaste_chip_lines = -7\n", []string{"limits.paste_chip_lines = -7"}},
		{"[limits]\nexcerpt_max_age = \"-1h\"\n", []string{"limits.excerpt_max_age", `"0" (never)`}},
		{"[keys]\nsend = [\"ctrl+shift+meta+banana\"]\n", []string{`keys.send = "ctrl+shift+meta+banana"`, `"banana" is not a key`}},
		{"[keys]\nsend = [\"control+s\"]\n", []string{`"control" is not a modifier`}},
		{"[keys]\nsend = [\"shift+ctrl+s\"]\n", []string{"in the order ctrl+alt+shift"}},
		{"[keys]\nsend = [\"\"]\n", []string{"empty key name"}},
		// the documented off values and ordinary settings
		{"[limits]\npaste_chip_chars = -1\npaste_chip_lines = -1\nexcerpt_max_age = \"0\"\n", nil},
		{"[limits]\nattachment_bytes = 209715200\ncomposer_rows = 4\n", nil},
		{"[keys]\nsend = [\"ctrl+s\", \"alt+enter\", \"f5\", \"alt+?\", \"ctrl+alt+shift+up\", \"ctrl++\"]\n", nil},
		// a printable key without a modifier would no longer type its
		// character where text is typed
		{"[keys]\nsend = [\"a\"]\n", []string{`keys.send = "a"`, "types", "composer"}},
		{"[keys]\nsend = [\"space\"]\n", []string{`keys.send = "space"`, "types"}},
		{"[keys]\nsend = [\"+\"]\n", []string{`keys.send = "+"`, "types"}},
		{"[keys]\nsend = [\"shift++\"]\n", []string{`keys.send = "shift++"`, "types"}},
		{"[keys]\nnewline = [\"shift+enter\", \"?\"]\n", []string{`keys.newline = "?"`}},
		{"[keys]\nquit = [\"q\"]\n", []string{`keys.quit = "q"`}},
		{"[keys]\nretry = [\"shift+r\"]\n", []string{`keys.retry = "shift+r"`}},
		{"[keys]\nshell_leave = [\"é\"]\n", []string{`keys.shell_leave = "é"`}},
		{"[keys]\nreview_comment = [\"c\", \"space\"]\ntranscript_up = [\"up\", \"w\"]\nconfirm_yes = [\"y\", \"enter\"]\n", nil},
		{"[keys]\nsend = [\"enter\", \"alt+a\", \"ctrl+space\"]\n", nil},
	} {
		p := writeConfig(t, tc.text)
		_, err := config.Load(p, keymap.CheckKeys)
		if tc.want == nil {
			if err != nil {
				t.Errorf("%q refused: %v", tc.text, err)
			}
			continue
		}
		if err == nil {
			t.Errorf("%q accepted", tc.text)
			continue
		}
		msg := err.Error()
		if strings.Contains(msg, "\n") || !strings.Contains(msg, p) {
			t.Errorf("%q: not one line naming the file: %q", tc.text, msg)
		}
		for _, w := range tc.want {
			if !strings.Contains(msg, w) {
				t.Errorf("%q: error %q lacks %q", tc.text, msg, w)
			}
		}
	}
}
