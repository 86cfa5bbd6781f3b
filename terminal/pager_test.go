package terminal

import "testing"

func TestPagerCommand(t *testing.T) {
	t.Setenv("PAGER", "most -s")
	if got := PagerCommand(); len(got) != 2 || got[0] != "most" || got[1] != "-s" {
		t.Fatal(got)
	}
}
