package workspace

import "testing"

// A Link notes each step's status as the UI's command takes it; a nil
// Link (a project here) has no status and no command.
func TestLinkNotesTheStatus(t *testing.T) {
	var none *Link
	if none.Status() != "" || NextLink[any](none) != nil {
		t.Fatal("a nil Link has a status or a command")
	}
	ch := make(chan LinkEvent, 2)
	l := &Link{ch: ch}
	ch <- LinkEvent{Status: " · reconnecting to box…", Notice: "lost", Err: true}
	ch <- LinkEvent{Notice: "reconnected to box"}
	if got := NextLink[any](l)(); got != (LinkEvent{Status: " · reconnecting to box…", Notice: "lost", Err: true}) || l.Status() != " · reconnecting to box…" {
		t.Fatalf("first step %v, status %q", got, l.Status())
	}
	if got := NextLink[any](l)(); got != (LinkEvent{Notice: "reconnected to box"}) || l.Status() != "" {
		t.Fatalf("second step %v, status %q", got, l.Status())
	}
	close(ch)
	if got := NextLink[any](l)(); got != nil {
		t.Fatalf("after the close: %v", got)
	}
}
