package fragment

import (
	"strings"
	"unicode"
)

// Strip removes the runtime context from a history: every developer
// message goes (developer messages only ever hold injections, some of them
// unmarked and unclaimable), and from each user message every part the
// registry claims goes, unless its kind is in keep, as does every blank
// part; a user message left without parts goes. Assistant messages are kept
// as they are. The input is not modified.
func (r *Registry) Strip(history []Message, keep ...*Kind) []Message {
	var out []Message
	for _, m := range history {
		switch m.Role {
		case RoleDeveloper:
			continue
		case RoleUser:
			var parts []string
			for _, p := range m.Parts {
				if strings.TrimFunc(p, unicode.IsSpace) == "" {
					continue
				}
				if k, ok := r.Claim(p); ok && !containsKind(keep, k) {
					continue
				}
				parts = append(parts, p)
			}
			if len(parts) > 0 {
				out = append(out, Message{Role: RoleUser, Parts: parts})
			}
		default:
			out = append(out, Message{Role: m.Role, Parts: append([]string(nil), m.Parts...)})
		}
	}
	return out
}

// UserWords is what a compaction keeps of a history: the user messages
// with only the user's real words (no claimed fragment at all, the context
// envelope included), in order.
func (r *Registry) UserWords(history []Message) []Message {
	var out []Message
	for _, m := range r.Strip(history) {
		if m.Role == RoleUser {
			out = append(out, m)
		}
	}
	return out
}

// Compact builds the history that replaces a compacted one: the current
// fragments (assembled afresh, never the stale ones from history), then the
// user's real words, then the summary as a ConversationSummary user
// message. It fails when a current fragment's kind, or the summary's, is
// not registered.
func (r *Registry) Compact(history []Message, summary string, current []Fragment) ([]Message, error) {
	out, err := r.Assemble(current...)
	if err != nil {
		return nil, err
	}
	sum, err := r.Assemble(ConversationSummary{Text: summary})
	if err != nil {
		return nil, err
	}
	out = append(out, r.UserWords(history)...)
	return append(out, sum...), nil
}

// Fork builds the history of a thread forked from history (the caller cuts
// it at the chosen message), and the history of every next turn: the
// current fragments first, then the history stripped of its runtime
// context (Strip), so a stale environment or AGENTS.md fragment is never
// resubmitted as user input. The messages' own context envelopes
// (T3ContextKind) and payload fragments (AttachedFileKind,
// ThreadHistoryKind, AttachmentsOmittedKind) are kept: they belong to the
// user's messages, not to the runtime; so is a compaction's summary (ConversationSummaryKind), which
// stands for the conversation it replaced until the next compaction.
func (r *Registry) Fork(history []Message, current []Fragment) ([]Message, error) {
	out, err := r.Assemble(current...)
	if err != nil {
		return nil, err
	}
	return append(out, r.Strip(history, T3ContextKind, ConversationSummaryKind,
		AttachedFileKind, ThreadHistoryKind, AttachmentsOmittedKind)...), nil
}

func containsKind(ks []*Kind, k *Kind) bool {
	for _, o := range ks {
		if o == k {
			return true
		}
	}
	return false
}
