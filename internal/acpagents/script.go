package acpagents

import (
	"strings"

	"github.com/chipchat/chipchat/internal/fakemodel"
)

// The markers a scenario's prompt carries; the fake model keys its reply on
// the last marker in the user's messages.
const (
	MarkPing1      = "PING-ONE"
	MarkPing2      = "PING-TWO"
	MarkPing3      = "PING-THREE"
	MarkEditAllow  = "EDIT-ALLOW"
	MarkEditReject = "EDIT-REJECT"
	MarkShell      = "SHELL-RUN"
	MarkSeq        = "SEQ-RUN" // runs Files.SeqCommand: twelve lines of output
	MarkAttach     = "ATTACH-READ"
	MarkFail       = "MODEL-FAIL" // the model answers HTTP 400
	MarkHang       = "MODEL-HANG" // the model streams text, then stalls
	MarkModel      = "MODEL-SWITCHED"
)

// Reply texts of the fake model.
const (
	ReplyPing1 = "PONG-ONE from the fake model"
	ReplyPing2 = "PONG-TWO from the fake model"
	ReplyPing3 = "PONG-THREE from the fake model"
	// ReplyDone is appended to a marker after its tool result arrived.
	ReplyDone = "-DONE"
	// ReplyAux answers requests that carry no marker (titles, checks).
	ReplyAux = "ok"
)

var marks = []string{MarkPing1, MarkPing2, MarkPing3, MarkEditAllow, MarkEditReject, MarkShell, MarkSeq, MarkAttach, MarkFail, MarkHang, MarkModel}

// ReplyHang is the text the stalling model streams before it stalls.
const ReplyHang = "STALLING after this text"

// FailMessage is the error message of the model's HTTP 400.
const FailMessage = "fakemodel refuses this request (" + MarkFail + ")"

// lastMark is the marker of the user's newest prompt: the last user
// message with text that is not a tool result. A prompt without one (a
// slash command's own prompt, a title request) has none.
func lastMark(e *fakemodel.Exchange) string {
	for i := len(e.Messages) - 1; i >= 0; i-- {
		m := e.Messages[i]
		if m.Role != "user" || len(m.ToolResults) > 0 || strings.TrimSpace(m.Text) == "" {
			continue
		}
		best, at := "", -1
		for _, mk := range marks {
			if j := strings.LastIndex(m.Text, mk); j > at {
				best, at = mk, j
			}
		}
		return best
	}
	return ""
}

// Files is what the edit and shell scenarios work on.
type Files struct {
	Notes      string // absolute path of the file the edits change
	OldLine    string
	AllowLine  string
	RejectLine string
	Command    string // the shell command; prints CommandOut
	CommandOut string
	// SeqCommand prints SeqOut, one number a line (issue 22's Codex run:
	// a command whose output is many lines).
	SeqCommand string
	SeqOut     []string
}

// DefaultFiles is the edit and shell material for a project directory.
func DefaultFiles(project string) Files {
	return Files{
		Notes:      project + "/notes.txt",
		OldLine:    "the old line",
		AllowLine:  "the line after an allowed edit",
		RejectLine: "the line after a rejected edit",
		// Writes a file, so that no agent takes it for a read-only command
		// it may run without asking; no $(…), which Gemini CLI refuses.
		Command:    "printf 'chipchat-%s\\n' 42 | tee shell-out.txt",
		CommandOut: "chipchat-42",
		SeqCommand: "seq 101 112",
		SeqOut:     []string{"101", "102", "103", "104", "105", "106", "107", "108", "109", "110", "111", "112"},
	}
}

// Responder is the fake model's script for agent a.
func Responder(a Agent, f Files) fakemodel.Responder {
	return func(e *fakemodel.Exchange) fakemodel.Reply {
		m := lastMark(e)
		switch m {
		case "":
			return fakemodel.Reply{Text: ReplyAux}
		case MarkPing1:
			return fakemodel.Reply{Text: ReplyPing1}
		case MarkPing2:
			return fakemodel.Reply{Text: ReplyPing2}
		case MarkPing3:
			return fakemodel.Reply{Text: ReplyPing3}
		case MarkAttach:
			return fakemodel.Reply{Text: MarkAttach + ReplyDone}
		case MarkModel:
			return fakemodel.Reply{Text: MarkModel + ReplyDone}
		case MarkHang:
			return fakemodel.Reply{Text: ReplyHang, Hold: true}
		case MarkFail:
			return fakemodel.Reply{Fail: &fakemodel.Failure{Status: 400, Message: FailMessage}}
		}
		var steps []fakemodel.ToolCall
		switch m {
		case MarkEditAllow:
			steps = a.Edit(f.Notes, f.OldLine, f.AllowLine)
		case MarkEditReject:
			steps = a.Edit(f.Notes, f.OldLine, f.RejectLine)
		case MarkShell:
			steps = a.Shell(f.Command)
		case MarkSeq:
			steps = a.Shell(f.SeqCommand)
		}
		n := toolRounds(e)
		if n >= len(steps) || (n > 0 && a.StopOnError && lastResultFailed(e)) {
			return fakemodel.Reply{Text: m + ReplyDone}
		}
		tc := steps[n]
		if !e.HasTool(tc.Name) {
			// Not the main conversation (a title or summary request).
			return fakemodel.Reply{Text: ReplyAux}
		}
		return fakemodel.Reply{Text: "Working on " + m + ".", ToolCalls: []fakemodel.ToolCall{tc}}
	}
}

// toolRounds counts the model's tool-calling messages after the last user
// message with text: how many steps of the scripted turn are done.
func toolRounds(e *fakemodel.Exchange) int {
	n := 0
	for i := len(e.Messages) - 1; i >= 0; i-- {
		m := e.Messages[i]
		if m.Role == "user" && strings.TrimSpace(m.Text) != "" && len(m.ToolResults) == 0 {
			break
		}
		if m.Role == "assistant" && len(m.ToolCalls) > 0 {
			n++
		}
	}
	return n
}

// lastResultFailed reports whether the last tool result was an error or a
// refusal.
func lastResultFailed(e *fakemodel.Exchange) bool {
	rs := e.LastToolResults()
	if len(rs) == 0 {
		return false
	}
	r := rs[len(rs)-1]
	o := strings.ToLower(r.Output)
	return r.IsError || strings.Contains(o, "reject") || strings.Contains(o, "denied") || strings.Contains(o, "cancel")
}
