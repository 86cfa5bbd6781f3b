package chat

import (
	"fmt"
	"strings"
)

// merge is u with what n knows: an agent sends the context (usage_update)
// and the tokens of a prompt (its answer) in separate events, so a field
// n leaves zero keeps u's.
func (u Usage) merge(n Usage) Usage {
	if n.InputTokens != 0 || n.OutputTokens != 0 {
		u.InputTokens, u.OutputTokens = n.InputTokens, n.OutputTokens
	}
	if n.ContextUsed != 0 || n.ContextSize != 0 {
		u.ContextUsed, u.ContextSize = n.ContextUsed, n.ContextSize
	}
	if n.Currency != "" {
		u.Cost, u.Currency = n.Cost, n.Currency
	}
	return u
}

// UsageLine is the usage as the header shows it: "ctx 42%" when the
// context's size is known, "ctx 12.3k tokens" when only what it holds,
// then the cost ("$0.12", "0.12 EUR"); "" when nothing is known.
func (in Info) UsageLine() string {
	u := in.Usage
	var parts []string
	switch {
	case u.ContextSize > 0:
		pct := u.ContextUsed * 100 / u.ContextSize
		if u.ContextUsed > 0 && pct == 0 {
			parts = append(parts, "ctx <1%")
		} else {
			parts = append(parts, fmt.Sprintf("ctx %d%%", min(pct, 999)))
		}
	case u.ContextUsed > 0:
		parts = append(parts, "ctx "+tokens(u.ContextUsed)+" tokens")
	}
	if cur := strings.ToUpper(strings.TrimSpace(u.Currency)); cur != "" && u.Cost >= 0 {
		if cur == "USD" {
			parts = append(parts, fmt.Sprintf("$%.2f", u.Cost))
		} else {
			parts = append(parts, fmt.Sprintf("%.2f %s", u.Cost, cur))
		}
	}
	return strings.Join(parts, " · ")
}

// tokens is n shortly: 950, 12.3k, 1.2M.
func tokens(n int64) string {
	switch {
	case n < 1000:
		return fmt.Sprint(n)
	case n < 1_000_000:
		return strings.TrimSuffix(fmt.Sprintf("%.1f", float64(n)/1000), ".0") + "k"
	}
	return strings.TrimSuffix(fmt.Sprintf("%.1f", float64(n)/1_000_000), ".0") + "M"
}
