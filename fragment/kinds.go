package fragment

import (
	"strings"
	"time"
)

// The kinds chipchat ships. Standard registers all of them.
var (
	// EnvironmentContextKind: where the agent runs (cwd, shell, date, zone).
	EnvironmentContextKind = &Kind{Name: "environment_context", Role: RoleUser,
		Begin: "<environment_context>", End: "</environment_context>"}
	// UserInstructionsKind: the project's AGENTS.md.
	UserInstructionsKind = &Kind{Name: "user_instructions", Role: RoleUser,
		Begin: "# AGENTS.md instructions", End: "</INSTRUCTIONS>"}
	// TurnAbortedKind: the previous turn was interrupted by the user.
	TurnAbortedKind = &Kind{Name: "turn_aborted", Role: RoleUser,
		Begin: "<turn_aborted>", End: "</turn_aborted>"}
	// SkillInstructionsKind: a skill's SKILL.md, sent when a message
	// references that skill's chip.
	SkillInstructionsKind = &Kind{Name: "skill", Role: RoleUser,
		Begin: "<skill>", End: "</skill>"}
	// T3ContextKind: the provider projection's context envelope
	// (DESIGN.md 3.5), as a marked user-side kind.
	T3ContextKind = &Kind{Name: "t3_context", Role: RoleUser,
		Begin: `<t3_context version="1">`, End: "</t3_context>"}
	// ConversationSummaryKind: the summary a compaction leaves in place of
	// the turns it folded.
	ConversationSummaryKind = &Kind{Name: "conversation_summary", Role: RoleUser,
		Begin: "<conversation_summary>", End: "</conversation_summary>"}
	// TimeNoticeKind is unmarked: it gave up reversibility on purpose. A
	// one-shot reminder is only meaningful in the turn it was sent, so it
	// carries no markers, can never be claimed back from history text, and
	// the compaction and fork helpers simply never carry it over (they drop
	// every developer message). It is a stand-alone developer message.
	TimeNoticeKind = &Kind{Name: "time_notice", Role: RoleDeveloper, StandAlone: true}
)

// Standard returns a new registry holding every kind above and the payload
// kinds (AttachedFileKind, ThreadHistoryKind, AttachmentsOmittedKind).
func Standard() *Registry {
	r := &Registry{}
	for _, k := range []*Kind{EnvironmentContextKind, UserInstructionsKind, TurnAbortedKind,
		SkillInstructionsKind, T3ContextKind, ConversationSummaryKind, TimeNoticeKind,
		AttachedFileKind, ThreadHistoryKind, AttachmentsOmittedKind} {
		if err := r.Register(k); err != nil {
			panic(err)
		}
	}
	return r
}

// EnvironmentContext renders as
//
//	<environment_context>
//	  <cwd>/src/app</cwd>
//	  <shell>zsh</shell>
//	  <current_date>2026-05-04</current_date>
//	  <timezone>Europe/Paris</timezone>
//	</environment_context>
//
// Values are given by the caller; empty ones are left out; & < > are
// escaped.
type EnvironmentContext struct {
	Cwd, Shell, CurrentDate, Timezone string
}

func (EnvironmentContext) Kind() *Kind { return EnvironmentContextKind }

func (e EnvironmentContext) Body() string {
	var b strings.Builder
	b.WriteByte('\n')
	for _, f := range [...]struct{ tag, v string }{
		{"cwd", e.Cwd}, {"shell", e.Shell}, {"current_date", e.CurrentDate}, {"timezone", e.Timezone},
	} {
		if f.v == "" {
			continue
		}
		b.WriteString("  <" + f.tag + ">" + escape(f.v) + "</" + f.tag + ">\n")
	}
	return b.String()
}

// UserInstructions is the project's AGENTS.md. It renders as
// "# AGENTS.md instructions for <Dir>\n\n<INSTRUCTIONS>\n<Text>\n</INSTRUCTIONS>",
// Dir and Text verbatim.
type UserInstructions struct {
	Dir, Text string
}

func (UserInstructions) Kind() *Kind { return UserInstructionsKind }

func (u UserInstructions) Body() string {
	return " for " + u.Dir + "\n\n<INSTRUCTIONS>\n" + u.Text + "\n"
}

// DefaultAbortReason is TurnAborted's text when no reason is given.
const DefaultAbortReason = "The user interrupted the previous turn on purpose. Its reply may be incomplete. " +
	"If any commands or tools were aborted, they may have partially executed; verify the current state before retrying."

// TurnAborted tells the model the previous turn was interrupted:
// "<turn_aborted>\n<Reason>\n</turn_aborted>" (DefaultAbortReason when
// Reason is empty).
type TurnAborted struct {
	Reason string
}

func (TurnAborted) Kind() *Kind { return TurnAbortedKind }

func (t TurnAborted) Body() string {
	r := t.Reason
	if r == "" {
		r = DefaultAbortReason
	}
	return "\n" + r + "\n"
}

// SkillInstructions carries a skill's SKILL.md:
// "<skill>\n<name>N</name>\n<path>P</path>\n<Contents>\n</skill>". Name and
// Path are escaped, Contents is verbatim.
type SkillInstructions struct {
	Name, Path, Contents string
}

func (SkillInstructions) Kind() *Kind { return SkillInstructionsKind }

func (s SkillInstructions) Body() string {
	return "\n<name>" + escape(s.Name) + "</name>\n<path>" + escape(s.Path) + "</path>\n" + s.Contents + "\n"
}

// T3Context is the projection's envelope: "<t3_context version=\"1\">\n" +
// Entries + "\n</t3_context>", byte for byte what contextref.Project appends
// after the marked text and a blank line. Entries are already escaped by
// the projection.
type T3Context struct {
	Entries string
}

func (T3Context) Kind() *Kind { return T3ContextKind }

func (c T3Context) Body() string { return "\n" + c.Entries + "\n" }

// ConversationSummary is what a compaction keeps of the turns it folded:
// "<conversation_summary>\n<Text>\n</conversation_summary>".
type ConversationSummary struct {
	Text string
}

func (ConversationSummary) Kind() *Kind { return ConversationSummaryKind }

func (s ConversationSummary) Body() string { return "\n" + s.Text + "\n" }

// TimeNotice is a one-shot reminder of the current time, unmarked on
// purpose (see TimeNoticeKind): "Reminder: the current time is Monday,
// 2026-05-04 14:03 CEST (UTC+02:00)." Now is given by the caller.
type TimeNotice struct {
	Now time.Time
}

func (TimeNotice) Kind() *Kind { return TimeNoticeKind }

func (n TimeNotice) Body() string {
	return "Reminder: the current time is " + n.Now.Format("Monday, 2006-01-02 15:04 MST (UTC-07:00)") + "."
}
