package ui

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"github.com/BurntSushi/toml"

	"github.com/chipchat/chipchat/agent"
	"github.com/chipchat/chipchat/composer"
)

// Config is what $XDG_CONFIG_HOME/chipchat/config.toml may set. Every field
// has a default, so the file is optional.
//
//	agent = "echo"                 # the backend when --agent is not given
//
//	[limits]
//	attachment_bytes = 20971520    # largest file ctrl+o attaches
//	composer_rows = 10             # rows the composer grows to before it scrolls
//	scrollback = 10000             # lines of history per terminal
//	excerpt_max_age = "24h"        # terminal excerpts older than this are dropped at send ("0": never)
//	paste_chip_chars = 2000        # a longer paste becomes a pasted-text-N.txt chip (-1: never)
//	paste_chip_lines = 20          # so does a paste of more lines (-1: never)
//	inline_file_bytes = 262144     # openai/exec/echo: an attached text file's content sent inline, per file
//	inline_turn_bytes = 1048576    # … and for all of one message's files together
//	history_bytes = 2097152        # … images and files resent with earlier messages
//	thread_context_bytes = 32768   # … a referenced thread's recent messages
//
//	[keys]                         # any binding, by name: see chipchat --help
//	send = ["enter"]
//	undo = ["ctrl+z"]
type Config struct {
	Agent        string              `toml:"agent"`
	OpenAIAPIKey string              `toml:"openai_api_key"`
	Limits       Limits              `toml:"limits"`
	Keys         map[string][]string `toml:"keys"`
	Path         string              `toml:"-"` // the file it came from, when any
}

// Limits bound what the app accepts.
type Limits struct {
	AttachmentBytes int64  `toml:"attachment_bytes"`
	ComposerRows    int    `toml:"composer_rows"`
	Scrollback      int    `toml:"scrollback"`       // lines of history per terminal
	ExcerptMaxAge   string `toml:"excerpt_max_age"`  // a terminal excerpt older than this is dropped at send
	PasteChipChars  int    `toml:"paste_chip_chars"` // a paste longer than this becomes a pasted-text chip (<0: never)
	PasteChipLines  int    `toml:"paste_chip_lines"` // a paste of more lines than this becomes a pasted-text chip (<0: never)

	// What the harness backends (openai, exec, echo) put inline.
	InlineFileBytes    int64 `toml:"inline_file_bytes"`
	InlineTurnBytes    int64 `toml:"inline_turn_bytes"`
	HistoryBytes       int64 `toml:"history_bytes"`
	ThreadContextBytes int64 `toml:"thread_context_bytes"`
}

// Payload is the limits of what the harness backends put inline.
func (l Limits) Payload() agent.Limits {
	return agent.Limits{InlineFileBytes: l.InlineFileBytes, InlineTurnBytes: l.InlineTurnBytes,
		HistoryBytes: l.HistoryBytes, ThreadContextBytes: l.ThreadContextBytes}
}

// ExcerptAge is the parsed excerpt_max_age (0: excerpts never expire).
func (l Limits) ExcerptAge() time.Duration {
	d, err := time.ParseDuration(l.ExcerptMaxAge)
	if err != nil || d < 0 {
		return 0
	}
	return d
}

// DefaultConfig is the embedded default configuration.
func DefaultConfig() Config {
	return Config{Agent: "echo", Limits: Limits{AttachmentBytes: 20 << 20, ComposerRows: 10, Scrollback: 10000, ExcerptMaxAge: "24h",
		PasteChipChars: 2000, PasteChipLines: 20,
		InlineFileBytes: 256 << 10, InlineTurnBytes: 1 << 20, HistoryBytes: 2 << 20, ThreadContextBytes: 32 << 10}}
}

// ConfigPath is $XDG_CONFIG_HOME/chipchat/config.toml (~/.config/… when
// unset).
func ConfigPath() string {
	dir := os.Getenv("XDG_CONFIG_HOME")
	if dir == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return ""
		}
		dir = filepath.Join(home, ".config")
	}
	return filepath.Join(dir, "chipchat", "config.toml")
}

// LoadConfig reads the config file at path on top of the defaults. A
// missing file is not an error; a malformed one is, naming the file and the
// problem (unknown keys included, so a typo does not pass silently).
func LoadConfig(path string) (Config, error) {
	c := DefaultConfig()
	if path == "" {
		return c, nil
	}
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return c, nil
	}
	if err != nil {
		return c, fmt.Errorf("config %s: %w", path, err)
	}
	md, err := toml.Decode(string(b), &c)
	if err != nil {
		return DefaultConfig(), fmt.Errorf("config %s: %w", path, err)
	}
	if u := md.Undecoded(); len(u) > 0 {
		var names []string
		for _, k := range u {
			names = append(names, k.String())
		}
		return DefaultConfig(), fmt.Errorf("config %s: unknown setting %s", path, strings.Join(names, ", "))
	}
	c.Path = path
	if err := ValidateConfig(c); err != nil {
		return DefaultConfig(), err // limits out of range, key names no key has (configcheck.go)
	}
	d := DefaultConfig()
	if c.Limits.AttachmentBytes <= 0 {
		c.Limits.AttachmentBytes = d.Limits.AttachmentBytes
	}
	if c.Limits.ComposerRows <= 0 {
		c.Limits.ComposerRows = d.Limits.ComposerRows
	}
	if c.Limits.Scrollback <= 0 {
		c.Limits.Scrollback = d.Limits.Scrollback
	}
	if c.Limits.PasteChipChars == 0 {
		c.Limits.PasteChipChars = d.Limits.PasteChipChars
	}
	if c.Limits.PasteChipLines == 0 {
		c.Limits.PasteChipLines = d.Limits.PasteChipLines
	}
	if c.Limits.ExcerptMaxAge == "" {
		c.Limits.ExcerptMaxAge = d.Limits.ExcerptMaxAge
	} else if _, err := time.ParseDuration(c.Limits.ExcerptMaxAge); err != nil && c.Limits.ExcerptMaxAge != "0" {
		return DefaultConfig(), fmt.Errorf("config %s: limits.excerpt_max_age: %q is not a duration like \"24h\" (\"0\": never)", path, c.Limits.ExcerptMaxAge)
	}
	if strings.TrimSpace(c.Agent) == "" {
		c.Agent = d.Agent
	}
	return c, nil
}

// namedBinding is one binding the config file can rebind.
type namedBinding struct {
	name string
	b    *key.Binding
}

// appBindings lists the app-level keys by their config names.
func appBindings(app *AppKeys) []namedBinding {
	return []namedBinding{
		{"quit", &app.Quit}, {"interrupt", &app.Interrupt}, {"help", &app.Help}, {"focus_next", &app.FocusNext},
		{"focus_prev", &app.FocusPrev}, {"cancel", &app.Cancel}, {"attach", &app.Attach}, {"new_thread", &app.NewThread},
		{"threads", &app.Threads}, {"retry", &app.Retry}, {"unqueue", &app.Unqueue}, {"terminal", &app.Terminal}, {"new_terminal", &app.NewTerminal},
		{"next_terminal", &app.NextTerminal}, {"prev_terminal", &app.PrevTerminal}, {"zoom_terminal", &app.ZoomTerminal},
		{"terminal_side", &app.TerminalSide}, {"copy_mode", &app.CopyMode}, {"quick_capture", &app.QuickCapture},
		{"cut", &app.Cut}, {"paste", &app.Paste}, {"expand_paste", &app.ExpandPaste}, {"stash", &app.Stash},
		{"stash_list", &app.StashList}, {"review", &app.Review},
	}
}

// bindings lists every rebindable key by its config name.
func bindings(app *AppKeys, ed *composer.KeyMap) []namedBinding {
	return append(appBindings(app), []namedBinding{
		{"send", &ed.Submit}, {"newline", &ed.Newline}, {"left", &ed.Left}, {"right", &ed.Right},
		{"word_left", &ed.WordLeft}, {"word_right", &ed.WordRight}, {"up", &ed.Up}, {"down", &ed.Down},
		{"line_start", &ed.LineStart}, {"line_end", &ed.LineEnd}, {"draft_start", &ed.DocStart}, {"draft_end", &ed.DocEnd},
		{"select_left", &ed.SelectLeft}, {"select_right", &ed.SelectRight}, {"select_word_left", &ed.SelectWordLeft},
		{"select_word_right", &ed.SelectWordRight}, {"select_up", &ed.SelectUp}, {"select_down", &ed.SelectDown},
		{"select_line_start", &ed.SelectLineStart}, {"select_line_end", &ed.SelectLineEnd},
		{"select_draft_start", &ed.SelectDocStart}, {"select_draft_end", &ed.SelectDocEnd}, {"select_all", &ed.SelectAll},
		{"delete_back", &ed.DeleteBack}, {"delete_forward", &ed.DeleteForward}, {"delete_word_back", &ed.DeleteWordBack},
		{"delete_word_forward", &ed.DeleteWordFwd}, {"delete_to_line_start", &ed.DeleteLineStart},
		{"delete_to_line_end", &ed.DeleteLineEnd}, {"undo", &ed.Undo}, {"redo", &ed.Redo},
		{"external_editor", &ed.ExternalEditor}, {"picker_next", &ed.PickerNext}, {"picker_prev", &ed.PickerPrev},
		{"picker_choose", &ed.PickerChoose}, {"picker_close", &ed.PickerClose},
	}...)
}

// ApplyKeys rebinds keys from the config's [keys] table. An unknown name or
// an empty key list is an error naming it.
func ApplyKeys(overrides map[string][]string, app *AppKeys, ed *composer.KeyMap) error {
	byName := map[string]*key.Binding{}
	for _, nb := range bindings(app, ed) {
		byName[nb.name] = nb.b
	}
	names := make([]string, 0, len(overrides))
	for n := range overrides {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		b, ok := byName[n]
		if !ok {
			return fmt.Errorf("[keys]: no binding named %q", n)
		}
		keys := overrides[n]
		if len(keys) == 0 {
			return fmt.Errorf("[keys] %s: give at least one key", n)
		}
		desc := b.Help().Desc
		b.SetKeys(keys...)
		b.SetHelp(keys[0], desc)
	}
	freeOverriddenKeys(overrides, app, ed)
	return checkAppConflicts(app)
}

// yielding are the bindings added with copy/paste and the stash: their
// default keys (ctrl+x, ctrl+v, ctrl+s…) were free to rebind before, so a
// config that binds one of them explicitly to something else keeps working.
var yielding = map[string]bool{"cut": true, "paste": true, "expand_paste": true, "stash": true, "stash_list": true}

// freeOverriddenKeys takes a key the config binds explicitly away from the
// defaults of the yielding bindings the config does not name, so binding,
// say, send = ["ctrl+s"] wins over the default stash key.
func freeOverriddenKeys(overrides map[string][]string, app *AppKeys, ed *composer.KeyMap) {
	taken := map[string]bool{}
	for _, keys := range overrides {
		for _, k := range keys {
			taken[k] = true
		}
	}
	if len(taken) == 0 {
		return
	}
	for _, nb := range bindings(app, ed) {
		if _, named := overrides[nb.name]; named || !yielding[nb.name] {
			continue
		}
		var keep []string
		for _, k := range nb.b.Keys() {
			if !taken[k] {
				keep = append(keep, k)
			}
		}
		if len(keep) == len(nb.b.Keys()) {
			continue
		}
		if len(keep) == 0 {
			nb.b.SetEnabled(false)
			continue
		}
		desc := nb.b.Help().Desc
		nb.b.SetKeys(keep...)
		nb.b.SetHelp(keep[0], desc)
	}
}

// checkAppConflicts refuses one key on two app-level actions (the composer
// shares keys with the app by design: tab, esc, ctrl+n act on an open
// picker first).
func checkAppConflicts(app *AppKeys) error {
	owner := map[string]string{}
	for _, nb := range appBindings(app) {
		if !nb.b.Enabled() {
			continue // its keys went to bindings the config named
		}
		for _, k := range nb.b.Keys() {
			if prev, ok := owner[k]; ok {
				return fmt.Errorf("[keys]: %s is bound to both %s and %s", k, prev, nb.name)
			}
			owner[k] = nb.name
		}
	}
	return nil
}

// KeyHelp lists every binding as "name  keys  what it does", for --help and
// the in-app keymap.
func KeyHelp(app *AppKeys, ed *composer.KeyMap) []string {
	var out []string
	for _, nb := range bindings(app, ed) {
		out = append(out, fmt.Sprintf("%-22s %-34s %s", nb.name, strings.Join(nb.b.Keys(), ", "), nb.b.Help().Desc))
	}
	return out
}
