package ui

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
	"unsafe"

	"charm.land/bubbles/v2/key"
	"github.com/BurntSushi/toml"

	"github.com/chipchat/chipchat/chat"
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
//	resume_history_bytes = 262144  # acp: the thread's turns a new session gets when the agent's own cannot be resumed
//	reply_bytes = 4194304          # a text item shown in full, a tool call's content kept (beyond: head and tail)
//
//	[ui]
//	question_guard = "300ms"       # keys are ignored this long after the agent's question appears ("0": never)
//
//	[acp]
//	terminals = "allow"            # an agent's terminal/create: "allow", "ask" (a permission prompt first) or "deny"
//
//	[keys]                         # any binding, by name: see chipchat --help
//	send = ["enter"]
//	undo = ["ctrl+z"]
type Config struct {
	Agent        string              `toml:"agent"`
	OpenAIAPIKey string              `toml:"openai_api_key"`
	Limits       Limits              `toml:"limits"`
	UI           UISettings          `toml:"ui"`
	ACP          ACPConfig           `toml:"acp"`
	Keys         map[string][]string `toml:"keys"`
	MCPServers   []MCPServerConfig   `toml:"mcp_servers"` // [[mcp_servers]], for acp: agents (mcp.go)
	Path         string              `toml:"-"`           // the file it came from, when any
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
	// What an ACP agent's new session gets of the thread when its own
	// session cannot be resumed.
	ResumeHistoryBytes int64 `toml:"resume_history_bytes"`
	// ReplyBytes: a text item longer than this shows its head and tail; a
	// tool call's content keeps only as much (head and tail), in memory
	// and in the store.
	ReplyBytes int64 `toml:"reply_bytes"`
}

// UISettings are the [ui] table.
type UISettings struct {
	// QuestionGuard: keys are ignored this long after an agent's question
	// appears, so an enter typed for the composer never answers a request
	// the user has not seen ("": DefaultQuestionGuard; "0": no guard).
	QuestionGuardText string `toml:"question_guard"`
}

// maxQuestionGuard bounds [ui] question_guard.
const maxQuestionGuard = 5 * time.Second

// QuestionGuard is the parsed question_guard (DefaultQuestionGuard when
// unset or invalid; the config check refuses an invalid one).
func (u UISettings) QuestionGuard() time.Duration {
	if u.QuestionGuardText == "" {
		return DefaultQuestionGuard
	}
	if u.QuestionGuardText == "0" {
		return 0
	}
	d, err := time.ParseDuration(u.QuestionGuardText)
	if err != nil || d < 0 || d > maxQuestionGuard {
		return DefaultQuestionGuard
	}
	return d
}

// checkQuestionGuard says what is wrong with a question_guard setting.
func checkQuestionGuard(where, s string) error {
	if s == "" || s == "0" {
		return nil
	}
	if d, err := time.ParseDuration(s); err != nil || d < 0 || d > maxQuestionGuard {
		return fmt.Errorf("%s: ui.question_guard = %q: allowed is a duration from \"0\" to \"5s\", such as \"300ms\"", where, s)
	}
	return nil
}

// ACPConfig is the [acp] table: what ACP agents may do.
type ACPConfig struct {
	// Terminals is what an agent's terminal/create does: "allow", "ask"
	// (a permission prompt with the command line first) or "deny" (main
	// passes it as agent.ACPOptions.TerminalPolicy).
	Terminals string `toml:"terminals"`
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
		InlineFileBytes: 256 << 10, InlineTurnBytes: 1 << 20, HistoryBytes: 2 << 20, ThreadContextBytes: 32 << 10,
		ResumeHistoryBytes: 256 << 10, ReplyBytes: chat.DefaultReplyBytes},
		ACP: ACPConfig{Terminals: "allow"}}
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
	if err := checkMCPServers(c.MCPServers); err != nil {
		return DefaultConfig(), fmt.Errorf("config %s: %w", path, err)
	}
	if k := DefaultKeys(); true {
		if err := k.Apply(c.Keys); err != nil {
			return DefaultConfig(), fmt.Errorf("config %s: %w", path, err) // unknown names, empty lists, clashes
		}
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

// bindings lists the app's and the composer's keys by their config names
// (the rows of the key table that point into AppKeys or composer.KeyMap),
// pointing into a Keys that holds copies of app and ed.
func bindings(app *AppKeys, ed *composer.KeyMap) []namedBinding {
	k := &Keys{AppKeys: *app, Editor: *ed}
	var out []namedBinding
	for _, d := range keyTable {
		b := d.field(k)
		if inStruct(b, &k.AppKeys) || inStruct(b, &k.Editor) {
			out = append(out, namedBinding{d.Name, b})
		}
	}
	return out
}

// ApplyKeys rebinds app and composer keys from the config's [keys] table
// (Keys.Apply over the other defaults).
func ApplyKeys(overrides map[string][]string, app *AppKeys, ed *composer.KeyMap) error {
	k := DefaultKeys()
	k.AppKeys, k.Editor = *app, *ed
	err := k.Apply(overrides)
	*app, *ed = k.AppKeys, k.Editor
	return err
}

// Apply rebinds keys from the config's [keys] table. It refuses an unknown
// name, an empty key list, a string that names no key and a key another
// action of the same scope has (a global key such as quit clashes with
// every scope); the error is "keys.NAME = [...]: what is wrong; what is
// allowed", for the caller to prefix with the file.
func (k *Keys) Apply(overrides map[string][]string) error {
	names := make([]string, 0, len(overrides))
	for n := range overrides {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		d, ok := keyDef(n)
		keys := overrides[n]
		switch {
		case !ok:
			return fmt.Errorf("keys.%s: no key has that name (allowed: the names chipchat --help lists, such as send, quit, threads)", n)
		case len(keys) == 0:
			return fmt.Errorf("keys.%s = []: give at least one key, such as [%q]", n, d.Keys[0])
		}
		for _, s := range keys {
			if err := checkKeyName(s); err != nil {
				return fmt.Errorf("keys.%s = %s: %v", n, quoteKeys(keys), err)
			}
		}
		b := d.field(k)
		b.SetKeys(slices.Clone(keys)...)
		b.SetHelp(keys[0], d.Help)
	}
	if err := k.freeOverriddenKeys(overrides); err != nil {
		return err
	}
	return k.checkClashes(overrides)
}

func quoteKeys(keys []string) string {
	q := make([]string, len(keys))
	for i, s := range keys {
		q[i] = strconv.Quote(s)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

// freeOverriddenKeys gives a key the config binds explicitly to the action
// it names: an action the config does not name loses that default key
// where their scopes meet (send = ["alt+enter"] takes alt+enter from
// newline, which keeps shift+enter and ctrl+j). An action left with no key
// is refused, unless it is one of the later additions that may go off
// (Yield); a global key (quit) is never taken, so the clash check refuses
// it.
func (k *Keys) freeOverriddenKeys(overrides map[string][]string) error {
	takers := map[string][]KeyDef{}
	for _, d := range keyTable {
		if keys, named := overrides[d.Name]; named {
			for _, s := range keys {
				takers[s] = append(takers[s], d)
			}
		}
	}
	if len(takers) == 0 {
		return nil
	}
	for _, d := range keyTable {
		if _, named := overrides[d.Name]; named || slices.Contains(d.Scopes, ScopeGlobal) {
			continue
		}
		b := d.field(k)
		var keep []string
		var by KeyDef
		for _, s := range b.Keys() {
			taken := false
			for _, t := range takers[s] {
				if meets(t.Scopes, d.Scopes) {
					taken, by = true, t
				}
			}
			if !taken {
				keep = append(keep, s)
			}
		}
		if len(keep) == len(b.Keys()) {
			continue
		}
		if len(keep) == 0 {
			if !d.Yield {
				return fmt.Errorf("keys.%s = %s: that takes %s's only key (%s); allowed: a key no other action of its scope has, or rebind %s too",
					by.Name, quoteKeys(overrides[by.Name]), d.Name, strings.Join(b.Keys(), ", "), d.Name)
			}
			b.SetEnabled(false)
			continue
		}
		b.SetKeys(keep...)
		b.SetHelp(keep[0], d.Help)
	}
	return nil
}

// meets reports whether keys of scopes a and b can act in one place.
func meets(a, b []Scope) bool {
	for _, x := range a {
		for _, px := range within(x) {
			for _, y := range b {
				if slices.Contains(within(y), px) {
					return true
				}
			}
		}
	}
	return false
}

// checkClashes refuses one key on two actions whose scopes meet.
func (k *Keys) checkClashes(overrides map[string][]string) error {
	type owner struct {
		d     KeyDef
		scope Scope
	}
	owners := map[Scope]map[string]owner{}
	for _, d := range keyTable {
		b := d.field(k)
		if !b.Enabled() {
			continue // its keys went to keys the config named
		}
		for _, s := range d.Scopes {
			for _, place := range within(s) {
				m := owners[place]
				if m == nil {
					m = map[string]owner{}
					owners[place] = m
				}
				for _, key := range b.Keys() {
					prev, ok := m[key]
					if !ok {
						m[key] = owner{d, s}
						continue
					}
					if prev.d.Name == d.Name {
						continue
					}
					// name the one the config set (else the later row)
					set, other, otherScope := d, prev.d, prev.scope
					if _, named := overrides[d.Name]; !named {
						if _, named := overrides[prev.d.Name]; named {
							set, other, otherScope = prev.d, d, s
						}
					}
					return fmt.Errorf("keys.%s = %s: %s is already %s's key in the %s scope (%s); allowed: a key no other action there has",
						set.Name, quoteKeys(set.field(k).Keys()), key, other.Name, place, scopeWhere(otherScope))
				}
			}
		}
	}
	return nil
}

func scopeWhere(s Scope) string {
	switch s {
	case ScopeGlobal:
		return "it acts everywhere"
	case ScopeMain:
		return "it acts in the composer, the transcript and the shelf"
	}
	return "it acts " + string(s)
}

// inStruct reports whether b points into the struct at s.
func inStruct[T any](b *key.Binding, s *T) bool {
	lo := uintptr(unsafe.Pointer(s))
	p := uintptr(unsafe.Pointer(b))
	return p >= lo && p < lo+unsafe.Sizeof(*s)
}

// KeyHelp lists every binding as "name  keys  what it does", for --help.
func KeyHelp(app *AppKeys, ed *composer.KeyMap) []string {
	k := DefaultKeys()
	k.AppKeys, k.Editor = *app, *ed
	return k.HelpLines()
}

// Help lists every key of the table as "name  keys  what it does", in
// table order.
func (k *Keys) HelpLines() []string {
	var out []string
	for _, d := range keyTable {
		out = append(out, keyLine(d, d.field(k)))
	}
	return out
}

func keyLine(d KeyDef, b *key.Binding) string {
	keys := strings.Join(b.Keys(), ", ")
	if !b.Enabled() {
		keys = "(off)"
	}
	return fmt.Sprintf("%-22s %-34s %s", d.Name, keys, d.Help)
}

// HelpByScope is F1: the keys under a heading per scope.
func (k *Keys) HelpByScope() []string {
	var out []string
	for _, s := range scopes {
		var lines []string
		for _, d := range keyTable {
			if d.Scopes[0] == s.s {
				lines = append(lines, "  "+keyLine(d, d.field(k)))
			}
		}
		if len(lines) > 0 {
			out = append(out, s.title+":")
			out = append(out, lines...)
			out = append(out, "")
		}
	}
	return out
}
