package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/BurntSushi/toml"

	"github.com/chipchat/chipchat/chat"
	"github.com/chipchat/chipchat/remote"
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
//	[notify]                       # a turn's end, an error or the agent's question, while the terminal is not focused
//	on = ["turn_end", "question", "error"]
//	method = "auto"                # "osc9", "osc777", "bell" (BEL) or "off"; auto: OSC 9 (777 where preferred), BEL in tmux without allow-passthrough
//	min_turn_seconds = 10          # when the terminal never reports focus, only longer turns notify
//
//	[acp]
//	terminals = "allow"            # an agent's terminal/create: "allow", "ask" (a permission prompt first) or "deny"
//
//	[keys]                         # any binding, by name: see chipchat --help
//	send = ["enter"]
//	undo = ["ctrl+z"]
type Config struct {
	Agent        string                  `toml:"agent"`
	OpenAIAPIKey string                  `toml:"openai_api_key"`
	Limits       Limits                  `toml:"limits"`
	UI           UISettings              `toml:"ui"`
	ACP          ACPConfig               `toml:"acp"`
	Notify       NotifyConfig            `toml:"notify"`
	Keys         map[string][]string     `toml:"keys"`
	MCPServers   []MCPServerConfig       `toml:"mcp_servers"` // [[mcp_servers]], for acp: agents (mcp.go)
	Remote       RemoteConfig            `toml:"remote"`
	Remotes      map[string]remote.Entry `toml:"remotes"` // [remotes.NAME]: target and agent, for --remote NAME
	Path         string                  `toml:"-"`       // the file it came from, when any
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
	// Theme is the look: one of Themes ("": DefaultTheme; theme.go).
	Theme string `toml:"theme"`
}

// DefaultQuestionGuard is how long keys are ignored after an agent's
// question appears ([ui] question_guard).
const DefaultQuestionGuard = 300 * time.Millisecond

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

// RemoteConfig is the [remote] table: how remote projects (--remote) are
// reached.
type RemoteConfig struct {
	// SSHConfig is an ssh_config file passed as ssh -F ("": ssh's own,
	// ~/.ssh/config).
	SSHConfig string `toml:"ssh_config"`
	// Timeout bounds each remote command but the agent ("15s" when "").
	Timeout string `toml:"timeout"`
	// CacheBytes is the budget of the remote attachment staging directory
	// (1 GiB when 0).
	CacheBytes int64 `toml:"cache_bytes"`
}

// TimeoutDuration is the parsed timeout (remote.DefaultTimeout when unset).
func (r RemoteConfig) TimeoutDuration() time.Duration {
	d, err := time.ParseDuration(r.Timeout)
	if err != nil || d <= 0 {
		return remote.DefaultTimeout
	}
	return d
}

// ExcerptAge is the parsed excerpt_max_age (0: excerpts never expire).
func (l Limits) ExcerptAge() time.Duration {
	d, err := time.ParseDuration(l.ExcerptMaxAge)
	if err != nil || d < 0 {
		return 0
	}
	return d
}

// Default is the embedded default configuration.
func Default() Config {
	return Config{Agent: "echo", Limits: Limits{AttachmentBytes: 20 << 20, ComposerRows: 10, Scrollback: 10000, ExcerptMaxAge: "24h",
		PasteChipChars: 2000, PasteChipLines: 20,
		InlineFileBytes: 256 << 10, InlineTurnBytes: 1 << 20, HistoryBytes: 2 << 20, ThreadContextBytes: 32 << 10,
		ResumeHistoryBytes: 256 << 10, ReplyBytes: chat.DefaultReplyBytes},
		ACP: ACPConfig{Terminals: "allow"}, Notify: defaultNotify()}
}

// Path is $XDG_CONFIG_HOME/chipchat/config.toml (~/.config/… when
// unset).
func Path() string {
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

// Load reads the config file at path on top of the defaults. A
// missing file is not an error; a malformed one is, naming the file and the
// problem (unknown keys included, so a typo does not pass silently).
func Load(path string, checkKeys func(map[string][]string) error) (Config, error) {
	c := Default()
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
		return Default(), tomlError(path, err)
	}
	if u := md.Undecoded(); len(u) > 0 {
		var names []string
		for _, k := range u {
			names = append(names, k.String())
		}
		return Default(), fmt.Errorf("config %s: unknown setting %s", path, strings.Join(names, ", "))
	}
	c.Path = path
	if err := Validate(c); err != nil {
		return Default(), err // limits out of range (check.go)
	}
	if err := checkMCPServers(c.MCPServers); err != nil {
		return Default(), fmt.Errorf("config %s: %w", path, err)
	}
	if checkKeys != nil {
		if err := checkKeys(c.Keys); err != nil {
			return Default(), fmt.Errorf("config %s: %w", path, err) // the key table's: unknown names, key names, clashes
		}
	}
	d := Default()
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
		return Default(), fmt.Errorf("config %s: limits.excerpt_max_age: %q is not a duration like \"24h\" (\"0\": never)", path, c.Limits.ExcerptMaxAge)
	}
	if strings.TrimSpace(c.Agent) == "" {
		c.Agent = d.Agent
	}
	if c.Remote.Timeout != "" {
		if t, err := time.ParseDuration(c.Remote.Timeout); err != nil || t <= 0 {
			return Default(), fmt.Errorf("config %s: remote.timeout: %q is not a positive duration like \"15s\"", path, c.Remote.Timeout)
		}
	}
	if c.Remote.CacheBytes < 0 {
		return Default(), fmt.Errorf("config %s: remote.cache_bytes: %d is negative", path, c.Remote.CacheBytes)
	}
	for name := range c.Remotes {
		if strings.Contains(name, ":") {
			return Default(), fmt.Errorf("config %s: [remotes.%s]: a name holds no ':' (it would read as a target)", path, name)
		}
		if _, err := remote.Parse(name, c.Remotes); err != nil {
			return Default(), fmt.Errorf("config %s: %s", path, strings.TrimPrefix(err.Error(), "remote: "))
		}
	}
	return c, nil
}

// tomlError is a decoding error as "config FILE:LINE:COL: what is wrong"
// when the parser says where (its ParseError), else "config FILE: …".
func tomlError(path string, err error) error {
	var pe toml.ParseError
	if errors.As(err, &pe) && pe.Position.Line > 0 {
		msg := pe.Message
		if msg == "" {
			msg = strings.TrimPrefix(pe.Error(), "toml: ")
		}
		col := pe.Position.Col
		if col < 1 {
			col = 1
		}
		return fmt.Errorf("config %s:%d:%d: %s", path, pe.Position.Line, col, oneLine(msg))
	}
	return fmt.Errorf("config %s: %s", path, oneLine(strings.TrimPrefix(err.Error(), "toml: ")))
}

// oneLine is s on one line, its runs of white space one space.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
