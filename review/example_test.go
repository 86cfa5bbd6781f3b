package review_test

import (
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/chipchat/chipchat/internal/vtscreen"
	"github.com/chipchat/chipchat/review"
)

// The parent opens a pane, routes keys and the pane's own messages to it,
// and takes CommentMsg (a chip for the composer) and ClosedMsg. Here the
// runtime is played by a loop that runs each command.
func Example() {
	files, _ := review.ParseUnified([]byte("--- a/app.go\n+++ b/app.go\n@@ -1,2 +1,2 @@\n package app\n-var n = 1\n+var n = 2\n"))
	pane := review.NewFromDiff(review.Options{NoPullRequest: true, NewID: func() string { return "ctx_1" }},
		&review.Diff{Comparison: review.Comparison{Kind: review.WorkingTree}, Files: files})
	pane.SetSize(80, 20)

	var toParent []tea.Msg
	runCmd := func(cmd tea.Cmd) {
		for queue := []tea.Cmd{cmd}; len(queue) > 0; queue = queue[1:] {
			if queue[0] == nil {
				continue
			}
			switch msg := queue[0]().(type) {
			case tea.BatchMsg:
				queue = append(queue, msg...)
			default:
				if review.Owns(msg) {
					_, next := pane.Update(msg)
					queue = append(queue, next)
				} else if msg != nil {
					toParent = append(toParent, msg)
				}
			}
		}
	}
	runCmd(pane.Init())
	for _, k := range []string{"j", "v", "j", "c", "W", "h", "y", "?", "enter", "esc"} {
		_, cmd := pane.Update(vtscreen.Key(k))
		runCmd(cmd)
	}
	for _, msg := range toParent {
		switch msg := msg.(type) {
		case review.CommentMsg:
			r := msg.Record
			fmt.Printf("%s %q %s %s %d-%d %q\n%s\n", r.ContextID, r.Label, r.SectionTitle, r.FilePath, r.StartIndex, r.EndIndex, r.Text, r.Diff)
		case review.ClosedMsg:
			fmt.Println("closed")
		}
	}
	// Output:
	// ctx_1 "app.go L2" Working tree vs HEAD app.go 2-2 "Why?"
	// @@ -1,2 +1,2 @@
	//  package app
	// -var n = 1
	// +var n = 2
	// closed
}
