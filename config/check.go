package config

import (
	"fmt"
	"strings"
	"time"

	"github.com/chipchat/chipchat/contextref"
	"github.com/chipchat/chipchat/mcpserver"
)

// Limits' allowed ranges (issue 14): a setting out of range is refused at
// start, naming the file, the setting and what is allowed. The documented
// "off" values stay valid: paste_chip_chars and paste_chip_lines = -1
// (never), excerpt_max_age = "0" (never).
const (
	minAttachmentBytes = 1 << 10
	maxAttachmentBytes = 4 << 30
	maxComposerRows    = 200
	maxScrollback      = 1_000_000
	maxPasteChipChars  = contextref.MaxContextJSONLen
	maxPasteChipLines  = 1_000_000
	minReplyBytes      = 64 << 10
)

// Validate refuses limits out of range, [keys] entries whose key
// names no terminal key can produce (an unknown modifier or key, modifiers
// out of the order key names use, an empty name), a printable key
// without a modifier on an action where text is typed (keycheck.go) and
// an [acp] terminals value that is no policy. The error is one line:
// "config FILE: SETTING = VALUE: what is allowed".
func Validate(c Config) error {
	where := "config"
	if c.Path != "" {
		where += " " + c.Path
	}
	l := c.Limits
	check := func(ok bool, setting string, v any, allowed string) error {
		if ok {
			return nil
		}
		return fmt.Errorf("%s: limits.%s = %v: %s", where, setting, v, allowed)
	}
	for _, err := range []error{
		check(l.AttachmentBytes >= minAttachmentBytes && l.AttachmentBytes <= maxAttachmentBytes, "attachment_bytes", l.AttachmentBytes,
			fmt.Sprintf("allowed are %d (1 KiB) to %d (4 GiB) bytes", minAttachmentBytes, int64(maxAttachmentBytes))),
		check(l.ComposerRows >= 1 && l.ComposerRows <= maxComposerRows, "composer_rows", l.ComposerRows,
			fmt.Sprintf("allowed are 1 to %d rows", maxComposerRows)),
		check(l.Scrollback >= 1 && l.Scrollback <= maxScrollback, "scrollback", l.Scrollback,
			fmt.Sprintf("allowed are 1 to %d lines", maxScrollback)),
		check(l.PasteChipChars == -1 || l.PasteChipChars >= 1 && l.PasteChipChars <= maxPasteChipChars, "paste_chip_chars", l.PasteChipChars,
			fmt.Sprintf("allowed are 1 to %d characters, or -1 (never)", maxPasteChipChars)),
		check(l.PasteChipLines == -1 || l.PasteChipLines >= 1 && l.PasteChipLines <= maxPasteChipLines, "paste_chip_lines", l.PasteChipLines,
			fmt.Sprintf("allowed are 1 to %d lines, or -1 (never)", maxPasteChipLines)),
		check(l.InlineFileBytes >= 1 && l.InlineFileBytes <= maxAttachmentBytes, "inline_file_bytes", l.InlineFileBytes,
			fmt.Sprintf("allowed are 1 to %d bytes", int64(maxAttachmentBytes))),
		check(l.InlineTurnBytes >= 1 && l.InlineTurnBytes <= maxAttachmentBytes, "inline_turn_bytes", l.InlineTurnBytes,
			fmt.Sprintf("allowed are 1 to %d bytes", int64(maxAttachmentBytes))),
		check(l.HistoryBytes >= 1 && l.HistoryBytes <= maxAttachmentBytes, "history_bytes", l.HistoryBytes,
			fmt.Sprintf("allowed are 1 to %d bytes", int64(maxAttachmentBytes))),
		check(l.ThreadContextBytes >= 1 && l.ThreadContextBytes <= maxAttachmentBytes, "thread_context_bytes", l.ThreadContextBytes,
			fmt.Sprintf("allowed are 1 to %d bytes", int64(maxAttachmentBytes))),
		check(l.ResumeHistoryBytes >= 1 && l.ResumeHistoryBytes <= maxAttachmentBytes, "resume_history_bytes", l.ResumeHistoryBytes,
			fmt.Sprintf("allowed are 1 to %d bytes", int64(maxAttachmentBytes))),
		check(l.ReplyBytes >= minReplyBytes && l.ReplyBytes <= maxAttachmentBytes, "reply_bytes", l.ReplyBytes,
			fmt.Sprintf("allowed are %d (64 KiB) to %d bytes", minReplyBytes, int64(maxAttachmentBytes))),
		checkAge(where, l.ExcerptMaxAge),
		checkQuestionGuard(where, c.UI.QuestionGuardText),
		checkTheme(where, c.UI.Theme),
		checkTerminals(where, c.ACP.Terminals),
		checkNotify(where, c.Notify),
	} {
		if err != nil {
			return err
		}
	}
	return nil
}

// checkTerminals refuses an [acp] terminals value other than the three
// policies.
func checkTerminals(where, v string) error {
	switch v {
	case "allow", "ask", "deny": // agent.TerminalsAllow, TerminalsAsk, TerminalsDeny
		return nil
	}
	return fmt.Errorf(`%s: acp.terminals = %q: allowed are "allow", "ask" (a permission prompt with the command line first) and "deny"`, where, v)
}

func checkAge(where, age string) error {
	if age == "0" || age == "" {
		return nil
	}
	d, err := time.ParseDuration(age)
	if err != nil || d < 0 {
		return fmt.Errorf("%s: limits.excerpt_max_age = %q: allowed is a duration such as \"24h\" or \"30m\", or \"0\" (never)", where, age)
	}
	return nil
}

// MCPServerConfig is one [[mcp_servers]] entry: stdio (command, args,
// env) or http (url, headers).
type MCPServerConfig struct {
	Name    string            `toml:"name"`
	Command string            `toml:"command"`
	Args    []string          `toml:"args"`
	Env     map[string]string `toml:"env"`
	URL     string            `toml:"url"`
	Headers map[string]string `toml:"headers"`
}

// checkMCPServers refuses an entry without a name, with both or neither of
// command and url, a name used twice or chipchat's own.
func checkMCPServers(list []MCPServerConfig) error {
	seen := map[string]bool{}
	for i, s := range list {
		where := fmt.Sprintf("[[mcp_servers]] #%d", i+1)
		if strings.TrimSpace(s.Name) == "" {
			return fmt.Errorf("%s: give it a name", where)
		}
		where = fmt.Sprintf("[[mcp_servers]] %q", s.Name)
		switch {
		case s.Command == "" && s.URL == "":
			return fmt.Errorf("%s: give a command (stdio) or a url (http)", where)
		case s.Command != "" && s.URL != "":
			return fmt.Errorf("%s: a command (stdio) or a url (http), not both", where)
		case s.Command == "" && (len(s.Args) > 0 || len(s.Env) > 0):
			return fmt.Errorf("%s: args and env are for a stdio server (command)", where)
		case s.URL == "" && len(s.Headers) > 0:
			return fmt.Errorf("%s: headers are for an http server (url)", where)
		case s.URL != "" && !strings.HasPrefix(s.URL, "http://") && !strings.HasPrefix(s.URL, "https://"):
			return fmt.Errorf("%s: url %q is not http:// or https://", where, s.URL)
		case s.Name == mcpserver.ServerName:
			return fmt.Errorf("%s: the name %q is chipchat's own server's", where, s.Name)
		case seen[s.Name]:
			return fmt.Errorf("%s: the name is used twice", where)
		}
		seen[s.Name] = true
	}
	return nil
}
