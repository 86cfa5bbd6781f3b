package terminal

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/chipchat/chipchat/contextref"
)

func TestCaptureAcrossScrollback(t *testing.T) {
	s := NewScreen(20, 4, 1000)
	for i := 0; i < 10; i++ {
		feed(s, "\x1b[32mrow "+itoa(i)+"\x1b[0m   \r\n")
	}
	rec, err := CaptureLines(s, "term-1", "Terminal 1", 3, 5, "1")
	if err != nil {
		t.Fatal(err)
	}
	if rec.Text != "row 3\nrow 4\nrow 5" || rec.LineStart != 4 || rec.LineEnd != 6 {
		t.Fatalf("%+v", rec)
	}
	if rec.Label != "Terminal 1 lines 4-6" || rec.TerminalLabel != "Terminal 1" || rec.TerminalID != "term-1" {
		t.Fatalf("%+v", rec)
	}
	// more output scrolls; the numbers stay
	for i := 10; i < 30; i++ {
		feed(s, "row "+itoa(i)+"\r\n")
	}
	rec2, _ := CaptureLines(s, "term-1", "Terminal 1", 5, 3, "2")
	if rec2.Text != rec.Text || rec2.ContextID == rec.ContextID {
		t.Fatalf("%+v", rec2)
	}
	one, _ := CaptureLines(s, "term-1", "Terminal 1", 7, 7, "3")
	if one.Label != "Terminal 1 line 8" || one.Text != "row 7" {
		t.Fatalf("%+v", one)
	}
	// round-trip through the wire schema
	raw, err := contextref.MarshalRecord(rec)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := contextref.DecodeRecord(json.RawMessage(raw)); err != nil {
		t.Fatalf("decode %s: %v", raw, err)
	}
}

func TestCaptureWideAndStrip(t *testing.T) {
	s := NewScreen(20, 3, 10)
	feed(s, "世界\x1b[1mok\x1b[m  \r\n\x1b]0;title\x07tab\there")
	rec, err := CaptureLines(s, "t", "T", 0, 1, "n")
	if err != nil {
		t.Fatal(err)
	}
	if rec.Text != "世界ok\ntab     here" {
		t.Fatalf("%q", rec.Text)
	}
}

func TestCaptureTruncation(t *testing.T) {
	s := NewScreen(200, 10, 2000)
	line := strings.Repeat("x", 199)
	for i := 0; i < 1000; i++ {
		feed(s, line+"\r\n")
	}
	rec, err := CaptureLines(s, "t", "T", 0, 999, "n")
	if err != nil {
		t.Fatal(err)
	}
	if n := contextref.UTF16Len(rec.Text); n > contextref.MaxTerminalTextLen {
		t.Fatalf("too long %d", n)
	}
	lines := strings.Split(rec.Text, "\n")
	if !strings.HasPrefix(lines[0], "[cut: first ") || !strings.HasSuffix(rec.Label, "(cut)") {
		t.Fatalf("no note: %q %q", lines[0], rec.Label)
	}
	if rec.LineEnd != 1000 || int64(len(lines)) != rec.LineEnd-rec.LineStart+1 {
		t.Fatalf("range %d-%d lines %d", rec.LineStart, rec.LineEnd, len(lines))
	}
	if _, err := contextref.DecodeRecord(mustJSON(t, rec)); err != nil {
		t.Fatal(err)
	}
}

func mustJSON(t *testing.T, r contextref.Record) json.RawMessage {
	raw, err := contextref.MarshalRecord(r)
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

func TestQuickCaptureMarks(t *testing.T) {
	s := NewScreen(40, 10, 100)
	feed(s, "\x1b]133;A\x07$ \x1b]133;B\x07echo hi\r\n\x1b]133;C\x07hi\r\nthere\r\n\x1b]133;D;0\x07\x1b]133;A\x07$ ")
	rec, err := QuickCapture(s, "t", "T", "1")
	if err != nil {
		t.Fatal(err)
	}
	if rec.Text != "hi\nthere" || rec.LineStart != 2 || rec.LineEnd != 3 {
		t.Fatalf("%+v", rec)
	}
}

func TestQuickCaptureHeuristic(t *testing.T) {
	s := NewScreen(40, 10, 100)
	feed(s, "user@host:~$ ls\r\na.txt\r\nb.txt\r\nuser@host:~$ ")
	rec, err := QuickCapture(s, "t", "T", "1")
	if err != nil {
		t.Fatal(err)
	}
	if rec.Text != "a.txt\nb.txt" || rec.LineStart != 2 || rec.LineEnd != 3 {
		t.Fatalf("%+v", rec)
	}
}

// Lines are numbered from 1 where a user reads them: the screen's first
// line is line 1 in the label and in lineStart, and the agent's "N | line"
// prefixes (the projection) agree with the label (issue 25 item 11).
func TestCaptureNumbersLinesFromOne(t *testing.T) {
	s := NewScreen(20, 4, 100)
	feed(s, "$ echo hi\r\nhi\r\n$ ")
	rec, err := CaptureLines(s, "t", "Shell 1", 0, 1, "n")
	if err != nil {
		t.Fatal(err)
	}
	if rec.Label != "Shell 1 lines 1-2" || rec.LineStart != 1 || rec.LineEnd != 2 {
		t.Fatalf("label %q, lines %d-%d; want Shell 1 lines 1-2, 1-2", rec.Label, rec.LineStart, rec.LineEnd)
	}
	out := contextref.Project("see [x](t3-context://v1/terminal/"+rec.ContextID+")", []contextref.Record{rec})
	if !strings.Contains(out, "1 | $ echo hi\n2 | hi") || strings.Contains(out, "0 | ") {
		t.Fatalf("projection's numbers do not match the label:\n%s", out)
	}
	one, _ := CaptureLines(s, "t", "Shell 1", 0, 0, "m")
	if one.Label != "Shell 1 line 1" {
		t.Fatalf("label %q", one.Label)
	}
}
