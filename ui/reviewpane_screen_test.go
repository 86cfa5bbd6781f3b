package ui

import (
	"strings"
	"testing"

	"github.com/chipchat/chipchat/internal/vtscreen"
)

// The review pane inside the app, in a real (virtual) terminal at 80 and
// 120 columns: it takes the transcript's rows between the app's header and
// the composer, its file list sits left of a rule, no row is wider than the
// screen, the app's footer names the pane's keys, a confirmed comment's
// chip shows in the composer while the pane stays open, and esc gives the
// transcript back.
func TestScreenReviewPaneInApp(t *testing.T) {
	for _, size := range []struct{ w, h int }{{80, 24}, {120, 30}} {
		t.Run(itoaSize(size.w), func(t *testing.T) {
			e := newTestEnv(t)
			withReviewOptions(e, "")
			e.gitInit(map[string]string{"a.py": "def a():\n    return 1\n", "lib/b.py": "X = 1\n"})
			e.writeFile("a.py", []byte("def a():\n    return 10\n"))
			e.writeFile("lib/b.py", []byte("X = 2\nY = 3\n"))
			th := e.newThread("Screens")
			app := e.options(th.ID).app(t)
			s := vtscreen.New(t, app, size.w, size.h)
			s.WaitForText("chipchat · Screens")
			s.Send(vtscreen.Key("alt+g"))
			text := s.WaitForText("return 10")
			rows := strings.Split(text, "\n")
			if !strings.HasPrefix(strings.TrimSpace(rows[0]), "chipchat · Screens") {
				t.Fatalf("row 0 is the app's header:\n%s", text)
			}
			if !strings.Contains(rows[1], "Review  Working tree vs HEAD · 2 files +3 -2") {
				t.Fatalf("row 1 is the pane's header:\n%s", text)
			}
			if !strings.Contains(rows[2], " M a.py") || !strings.Contains(rows[3], " M lib/b.py") || !strings.Contains(rows[2], "│") {
				t.Fatalf("the file list:\n%s", text)
			}
			for i, r := range rows {
				if w := displayWidth(r); w > size.w {
					t.Fatalf("row %d is %d wide:\n%s", i, w, text)
				}
			}
			last := rows[len(rows)-1]
			if !strings.Contains(last, "review: v select · c comment · esc close") {
				t.Fatalf("footer %q", last)
			}
			rule := rowOfPrefix(rows, "────")
			if rule < 0 || rule != size.h-3 || !strings.Contains(rows[rule-1], "j next line · ] next hunk · } next file · v select") {
				t.Fatalf("the pane ends above the composer's rule (row %d):\n%s", rule, text)
			}
			s.Send(vtscreen.Key("j"))
			s.Send(vtscreen.Key("v"))
			s.Send(vtscreen.Key("j"))
			s.WaitForText("2 lines selected")
			s.Send(vtscreen.Key("c"))
			s.WaitForText("review comment: enter adds its chip")
			s.Type("Why ten?")
			s.WaitForText("Why ten?")
			s.Send(vtscreen.Key("enter"))
			text = s.WaitForText("✎ a.py L2")
			rows = strings.Split(text, "\n")
			if !strings.Contains(rows[1], "Review  Working tree vs HEAD") || !strings.Contains(rows[rowOfPrefix(rows, "────")+1], "✎ a.py L2") {
				t.Fatalf("the chip is in the composer, the pane still open:\n%s", text)
			}
			s.Send(vtscreen.Key("esc"))
			text = s.WaitFor(func(text string) bool { return !strings.Contains(text, "Working tree vs HEAD") })
			if !strings.Contains(text, "✎ a.py L2") {
				t.Fatalf("after esc:\n%s", text)
			}
		})
	}
}

func itoaSize(w int) string {
	if w == 80 {
		return "80"
	}
	return "120"
}

// rowOfPrefix is the first row starting with p, or -1.
func rowOfPrefix(rows []string, p string) int {
	for i, r := range rows {
		if strings.HasPrefix(r, p) {
			return i
		}
	}
	return -1
}
