package ui

import (
	"fmt"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/chipchat/chipchat/chips"
	"github.com/chipchat/chipchat/composer"
	"github.com/chipchat/chipchat/message"
	"github.com/chipchat/chipchat/review"
	"github.com/chipchat/chipchat/transcript"
	"github.com/chipchat/chipchat/ui/keymap"
)

// The review pane (package review, DESIGN.md section 11) takes the
// transcript's area while it is open and gets every key but quit (and the
// agent's questions, which come first): /review typed as a message, or
// alt+g, opens it on git's diff; c on a selection of a tool call's diff in
// the transcript opens it on that agent edit with the editor already on the
// selected lines. Each confirmed comment becomes a review-comment chip at
// the composer's caret; esc closes the pane (alt+g too, unless the comment
// editor is open).

// reviewPane is the review pane's controller: the open pane (m nil when
// none) and what it needs to open one and to put its comments in the
// composer.
type reviewPane struct {
	m *review.Model
	// want is the selection to comment on once the agent diff is read
	// (the transcript's rows, by line numbers); nil when none.
	want *transcript.CommentDiffMsg
	// comments counts the chips this pane put in the composer.
	comments int

	opt   review.Options // Options.Review with the project and the look
	keys  *keymap.Keys
	ed    *composer.Editor
	tr    *transcript.Model
	toast *toastLine
}

// newReviewPane is the controller; opt is Options.Review, th the look
// of [ui] theme (package theme).
func newReviewPane(opt review.Options, dir string, th review.Theme, keys *keymap.Keys, ed *composer.Editor, tr *transcript.Model, toast *toastLine) *reviewPane {
	opt.ProjectDir = dir
	opt.Theme = &th
	return &reviewPane{opt: opt, keys: keys, ed: ed, tr: tr, toast: toast}
}

// shown reports whether the pane is open.
func (r *reviewPane) shown() bool { return r.m != nil }

// options are a pane's options for the comparison cmp.
func (r *reviewPane) options(cmp review.Comparison) review.Options {
	o := r.opt
	o.Comparison, o.KeyMap = cmp, r.keys.ReviewPane
	return o
}

// open opens the pane on git's diff ("" the working tree against HEAD,
// "--staged", a branch or a commit).
func (r *reviewPane) open(args string) (tea.Cmd, paneFx) {
	cmp, err := review.ParseArgs(args)
	if err != nil {
		return r.toast.show(err.Error()+" — /review, /review --staged or /review <branch>", true), paneFx{}
	}
	return r.showModel(review.New(r.options(cmp)), nil)
}

// agentDiff opens the pane on the agent edit whose rows the user selected
// in the transcript, with the comment editor on those rows.
func (r *reviewPane) agentDiff(cm transcript.CommentDiffMsg) (tea.Cmd, paneFx) {
	m, ok := r.tr.Message(cm.MessageID)
	if !ok {
		return r.toast.show("that reply is gone", true), paneFx{}
	}
	diff := message.FindDiff(m.Items, cm.ItemID, cm.Path)
	if diff == nil {
		return r.toast.show("no diff of "+cm.Path+" in that tool call", true), paneFx{}
	}
	pane := review.NewAgent(r.options(review.Comparison{}), review.AgentDiff{Path: diff.Path, OldText: diff.OldText, NewText: diff.NewText, Line: diff.Line})
	return r.showModel(pane, &cm)
}

// showModel opens the pane on m (replacing an open one): it takes the
// keys from the composer and the transcript.
func (r *reviewPane) showModel(m *review.Model, want *transcript.CommentDiffMsg) (tea.Cmd, paneFx) {
	r.m, r.want, r.comments = m, want, 0
	return m.Init(), paneFx{layout: true, focus: focusAway}
}

// close closes the pane; the composer has the keys again.
func (r *reviewPane) close() (tea.Cmd, paneFx) {
	r.m, r.want = nil, nil
	return nil, paneFx{layout: true, focus: focusComposer}
}

// setSize sizes the open pane to the transcript's area.
func (r *reviewPane) setSize(w, h int) {
	if r.m != nil {
		r.m.SetSize(w, h)
	}
}

// view draws the open pane in the transcript's area of h lines.
// The pane draws exactly its size (review.Model.View): when that is the
// area, its frame is taken as it is, not measured again line by line.
func (r *reviewPane) view(h, width int) string {
	if w, ph := r.m.Size(); w == width && ph == h {
		return r.m.View()
	}
	return fitLines(r.m.View(), h, width)
}

func (r *reviewPane) hints() string {
	k := r.keys.ReviewPane
	if r.m.Editing() {
		return "review comment: " + keymap.Join(keymap.Hint(k.Confirm, "adds its chip to the composer"), keymap.Hint(k.Newline, "newline"), keymap.Hint(k.Cancel, "drops it"))
	}
	n := ""
	if r.comments > 0 {
		n = fmt.Sprintf(" · %d comment%s in the composer", r.comments, map[bool]string{false: "s"}[r.comments == 1])
	}
	return "review: " + keymap.Join(keymap.Hint(k.Select, "select"), keymap.Hint(k.Comment, "comment"), keymap.Hint(k.Close, "close")) + n
}

// comment puts a confirmed review comment at the composer's caret (never
// over a selection) even while the pane has the keys, followed by a space.
func (r *reviewPane) comment(msg review.CommentMsg) (tea.Cmd, paneFx) {
	r.ed.InsertAtCaret(msg.Record)
	if r.m != nil {
		r.comments++
	}
	return r.toast.show("review comment "+chips.SanitizeLine(msg.Record.Label)+" added to the composer", false), paneFx{composer: true}
}

// update gives the open pane its messages (git's results, a paste, the
// wheel); once an agent diff is read, the comment editor opens on the rows
// the user selected.
func (r *reviewPane) update(msg tea.Msg) tea.Cmd {
	if r.m == nil {
		return nil
	}
	var cmd tea.Cmd
	r.m, cmd = r.m.Update(msg)
	if w := r.want; w != nil && r.m.Loaded() {
		r.want = nil
		c, ok := r.m.CommentOn("", w.StartLine, w.EndLine, w.OldStart, w.OldEnd)
		if !ok {
			return tea.Batch(cmd, r.toast.show("those lines are not in the agent's diff: choose them with v", true))
		}
		cmd = tea.Batch(cmd, c)
	}
	return cmd
}

// key gives the open pane every key (quit and the overlays come first);
// its toggle closes it unless the comment editor is open.
func (r *reviewPane) key(msg tea.KeyPressMsg) (tea.Cmd, paneFx) {
	if key.Matches(msg, r.keys.Review) && !r.m.Editing() {
		return r.close()
	}
	return r.update(msg), paneFx{}
}
