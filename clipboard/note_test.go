package clipboard

import (
	"errors"
	"strings"
	"testing"
)

// A copy's note counts characters (not bytes) and chips, carries the
// carriers' errors, and is a failure only when nothing took the text.
func TestWriteResultNote(t *testing.T) {
	note, failed := WriteResult{System: "xclip"}.Note("the message", "héllo", 2)
	if note != "copied the message (5 characters, 2 chip(s))" || failed {
		t.Fatalf("note %q failed %v", note, failed)
	}
	bad := errors.New("no display")
	if note, failed := (WriteResult{Errs: []error{bad}}).Note("the selection", "x", 0); !failed || !strings.HasSuffix(note, "· no display") {
		t.Fatalf("nothing took it: %q %v", note, failed)
	}
	if _, failed := (WriteResult{Cached: true, Errs: []error{bad}}).Note("the chip", "x", 1); failed {
		t.Fatal("the cache took it: not a failure")
	}
}
