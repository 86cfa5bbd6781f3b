package ui

import (
	"strconv"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/chipchat/chipchat/chips"
	"github.com/chipchat/chipchat/contextref"
	"github.com/chipchat/chipchat/message"
	"github.com/chipchat/chipchat/review"
	"github.com/chipchat/chipchat/transcript"
)

// The review pane (package review, DESIGN.md section 11) takes the
// transcript's area while it is open and gets every key but quit (and the
// agent's questions, which come first): /review typed as a message, or
// alt+g, opens it on git's diff; c on a selection of a tool call's diff in
// the transcript opens it on that agent edit with the editor already on the
// selected lines. Each confirmed comment becomes a review-comment chip at
// the composer's caret; esc closes the pane (alt+g too, unless the comment
// editor is open).

// reviewPane is the open pane.
type reviewPane struct {
	m *review.Model
	// want is the selection to comment on once the agent diff is read
	// (the transcript's rows, by line numbers); nil when none.
	want *transcript.CommentDiffMsg
	// comments counts the chips this pane put in the composer.
	comments int
}

// reviewOpts are a pane's options: Options.Review with the project, the
// comparison, the keys and the look filled in.
func (a *App) reviewOpts(cmp review.Comparison) review.Options {
	o := a.opt.Review
	o.ProjectDir, o.Comparison, o.KeyMap = a.opt.Dir, cmp, a.keys.ReviewPane
	if a.opt.NoColor {
		th := review.NoColorTheme()
		o.Theme = &th
	}
	return o
}

// openReview opens the pane on git's diff ("" the working tree against
// HEAD, "--staged", a branch or a commit).
func (a *App) openReview(args string) tea.Cmd {
	cmp, err := review.ParseArgs(args)
	if err != nil {
		return a.notify(err.Error()+" — /review, /review --staged or /review <branch>", true)
	}
	return a.showReview(&reviewPane{m: review.New(a.reviewOpts(cmp))})
}

// reviewAgentDiff opens the pane on the agent edit whose rows the user
// selected in the transcript, with the comment editor on those rows.
func (a *App) reviewAgentDiff(cm transcript.CommentDiffMsg) tea.Cmd {
	m, ok := a.tr.Message(cm.MessageID)
	if !ok {
		return a.notify("that reply is gone", true)
	}
	var diff *message.ToolContent
	for _, it := range m.Items {
		if it.ID != cm.ItemID || it.Tool == nil {
			continue
		}
		for i := range it.Tool.Content {
			if c := &it.Tool.Content[i]; c.Type == "diff" && c.Path == cm.Path {
				diff = c
				break
			}
		}
	}
	if diff == nil {
		return a.notify("no diff of "+cm.Path+" in that tool call", true)
	}
	pane := review.NewAgent(a.reviewOpts(review.Comparison{}), review.AgentDiff{Path: diff.Path, OldText: diff.OldText, NewText: diff.NewText})
	want := cm
	if want.NewText == "" {
		// Deleted rows only: StartLine/EndLine are old-side numbers.
		want.StartLine, want.EndLine = 0, 0
	}
	if want.OldText == "" {
		want.OldStart, want.OldEnd = 0, 0
	}
	return a.showReview(&reviewPane{m: pane, want: &want})
}

func (a *App) showReview(p *reviewPane) tea.Cmd {
	if a.rv != nil {
		a.closeReview()
	}
	a.rv = p
	a.ed.Blur()
	a.tr.Blur()
	a.layout()
	return p.m.Init()
}

func (a *App) closeReview() {
	a.rv = nil
	a.setFocus(paneComposer)
	a.layout()
}

// layoutReview sizes the open pane to the transcript's area.
func (a *App) layoutReview(w, h int) {
	if a.rv != nil {
		a.rv.m.SetSize(w, h)
	}
}

// reviewView draws the open pane in the transcript's area of h lines.
func (a *App) reviewView(h int) string { return fitLines(a.rv.m.View(), h, a.width) }

func (a *App) reviewHints() string {
	k := a.keys.ReviewPane
	if a.rv.m.Editing() {
		return "review comment: " + joinHints(hint(k.Confirm, "adds its chip to the composer"), hint(k.Newline, "newline"), hint(k.Cancel, "drops it"))
	}
	n := ""
	if a.rv.comments > 0 {
		n = " · " + plural(a.rv.comments, "comment") + " in the composer"
	}
	return "review: " + joinHints(hint(k.Select, "select"), hint(k.Comment, "comment"), hint(k.Close, "close")) + n
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}

// insertAtCaret puts a chip at the composer's caret (never over a
// selection) even while another pane has the keys, followed by a space
// when what follows is not one.
func (a *App) insertAtCaret(rec contextref.Record) {
	d := a.ed.Draft()
	d.SetCaret(d.Caret(), false)
	focused := a.ed.Focused()
	a.ed.Focus()
	a.ed.InsertContext(rec, "")
	d.InsertText(" ")
	if !focused {
		a.ed.Blur()
	}
}

// reviewComment puts a confirmed review comment at the composer's caret.
func (a *App) reviewComment(msg review.CommentMsg) tea.Cmd {
	a.insertAtCaret(msg.Record)
	if a.rv != nil {
		a.rv.comments++
	}
	return tea.Batch(a.afterComposer(), a.notify("review comment "+chips.SanitizeLine(msg.Record.Label)+" added to the composer", false))
}

// reviewMsg gives the open review pane its messages (git's results, a
// paste, the wheel); once an agent diff is read, the comment editor opens
// on the rows the user selected.
func (a *App) reviewMsg(msg tea.Msg) tea.Cmd {
	if a.rv == nil {
		return nil
	}
	var cmd tea.Cmd
	a.rv.m, cmd = a.rv.m.Update(msg)
	if w := a.rv.want; w != nil && a.rv.m.Loaded() {
		a.rv.want = nil
		c, ok := a.rv.m.CommentOn("", w.StartLine, w.EndLine, w.OldStart, w.OldEnd)
		if !ok {
			return tea.Batch(cmd, a.notify("those lines are not in the agent's diff: choose them with v", true))
		}
		cmd = tea.Batch(cmd, c)
	}
	return cmd
}

// reviewKey gives the open review pane every key (quit and the overlays
// come first); its toggle closes it unless the comment editor is open.
func (a *App) reviewKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	if a.rv == nil {
		return nil, false
	}
	if key.Matches(msg, a.keys.Review) && !a.rv.m.Editing() {
		a.closeReview()
		return nil, true
	}
	return a.reviewMsg(msg), true
}

// MarkStale is the conversation's PrepareRecords (chat.Options; main
// wires it): at send, each
// review-comment record is replaced by a copy whose sourceStale says
// whether the file's lines at its range still match its diff
// (review.MarkStale; DESIGN.md 3.5). It reads files: chat runs it on its
// store worker, never in Update. A file that cannot be read leaves the
// record as it was.
func MarkStale(projectDir string) func([]contextref.Record) []contextref.Record {
	return func(recs []contextref.Record) []contextref.Record {
		var out []contextref.Record
		for i, r := range recs {
			rc, ok := r.(*contextref.ReviewCommentRecord)
			if !ok {
				continue
			}
			if out == nil {
				out = append([]contextref.Record(nil), recs...)
			}
			c := *rc
			if err := review.MarkStale(projectDir, &c); err == nil {
				out[i] = &c
			}
		}
		if out == nil {
			return recs
		}
		return out
	}
}
