package ui

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/chipchat/chipchat/contextref"
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

// ValidateConfig refuses limits out of range, [keys] entries whose key
// names no terminal key can produce (an unknown modifier or key, modifiers
// out of the order key names use, an empty name), a printable key
// without a modifier on an action where text is typed (keycheck.go) and
// an [acp] terminals value that is no policy. The error is one line:
// "config FILE: SETTING = VALUE: what is allowed".
func ValidateConfig(c Config) error {
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
		checkTerminals(where, c.ACP.Terminals),
	} {
		if err != nil {
			return err
		}
	}
	names := make([]string, 0, len(c.Keys))
	for n := range c.Keys {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		for _, k := range c.Keys[n] {
			if err := checkKeyName(k); err != nil {
				return fmt.Errorf("%s: keys.%s = %q: %v", where, n, k, err)
			}
			if err := checkTypingKey(n, k); err != nil {
				return fmt.Errorf("%s: keys.%s = %q: %v", where, n, k, err)
			}
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

// modifierOrder is the order key names put modifiers in.
var modifierOrder = []string{"ctrl", "alt", "shift", "meta", "hyper", "super"}

// namedKeys are the key names other than a single character.
var namedKeys = func() map[string]bool {
	m := map[string]bool{}
	for _, n := range strings.Fields(`enter tab backspace esc space up down left right begin find insert delete select
		pgup pgdown home end capslock scrolllock numlock printscreen pause menu mediaplay mediapause mediaplaypause
		mediareverse mediastop mediafastforward mediarewind medianext mediaprev mediarecord lowervol raisevol mute
		leftshift leftalt leftctrl leftsuper lefthyper leftmeta rightshift rightalt rightctrl rightsuper righthyper rightmeta
		isolevel3shift isolevel5shift`) {
		m[n] = true
	}
	for _, n := range strings.Fields("enter equal mul plus comma minus period div 0 1 2 3 4 5 6 7 8 9 sep up down left right pgup pgdown home end insert delete begin") {
		m["kp"+n] = true
	}
	for i := 1; i <= 63; i++ {
		m[fmt.Sprintf("f%d", i)] = true
	}
	return m
}()

// splitKeyName splits key name k into its modifiers and its key: "ctrl+s"
// is ctrl and s, "ctrl++" ctrl and +, "+" the + key alone.
func splitKeyName(k string) (mods []string, base string) {
	parts := strings.Split(k, "+")
	base, mods = parts[len(parts)-1], parts[:len(parts)-1]
	if base == "" && len(parts) >= 2 && parts[len(parts)-2] == "" {
		base, mods = "+", parts[:len(parts)-2]
	}
	return mods, base
}

// checkKeyName accepts what Bubble Tea names a key press: modifiers from
// modifierOrder, in that order, each once, then one character or one named
// key ("ctrl+shift+up", "alt+x", "?", "f5").
func checkKeyName(k string) error {
	if k == "" {
		return fmt.Errorf("an empty key name")
	}
	mods, base := splitKeyName(k)
	last := -1
	for _, m := range mods {
		i := slices.Index(modifierOrder, m)
		if i < 0 {
			return fmt.Errorf("%q is not a modifier (allowed: %s)", m, strings.Join(modifierOrder, ", "))
		}
		if i <= last {
			return fmt.Errorf("modifiers must come once each, in the order %s", strings.Join(modifierOrder, "+"))
		}
		last = i
	}
	if namedKeys[base] || utf8.RuneCountInString(base) == 1 && base != " " {
		return nil
	}
	return fmt.Errorf("%q is not a key (a single character, or a name such as enter, tab, esc, space, up, pgdown, f1)", base)
}
