package agent

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chipchat/chipchat/contextref"
)

func image(id, att, name string) *contextref.ImageRecord {
	return &contextref.ImageRecord{AttachmentRecord: contextref.AttachmentRecord{
		Base: contextref.NewBase(contextref.KindImage, id, name), AttachmentID: att, Name: name, MimeType: "image/png", SizeBytes: 1536,
	}}
}

func file(id, att, name string) *contextref.FileRecord {
	return &contextref.FileRecord{AttachmentRecord: contextref.AttachmentRecord{
		Base: contextref.NewBase(contextref.KindFile, id, name), AttachmentID: att, Name: name, MimeType: "text/plain", SizeBytes: 5,
	}}
}

func sampleMessage() (string, []contextref.Record) {
	img := image("ctx_i", "sha256-aa", "shot.png")
	f := file("ctx_f", "sha256-bb", "notes.txt")
	gone := file("ctx_g", "sha256-cc", "gone.txt")
	unref := file("ctx_u", "sha256-dd", "unreferenced.txt")
	m := &contextref.MentionRecord{Base: contextref.NewBase(contextref.KindMention, "ctx_m", "main.go"), Path: "main.go"}
	s := &contextref.SkillRecord{Base: contextref.NewBase(contextref.KindSkill, "ctx_s", "$review"), Name: "review"}
	text := "See " + contextref.LinkFor(f) + " and " + contextref.LinkFor(img) + ", again " + contextref.LinkFor(f) +
		", " + contextref.LinkFor(m) + " with " + contextref.LinkFor(s) + " and " + contextref.LinkFor(gone) + "."
	return text, []contextref.Record{img, f, gone, unref, m, s}
}

func TestPrepare(t *testing.T) {
	text, recs := sampleMessage()
	paths := map[string]string{"sha256-aa": "/data/assets/aa/aa", "sha256-bb": "/data/assets/bb/bb"}
	turn := Prepare(text, recs, func(id string) (string, bool) { p, ok := paths[id]; return p, ok })
	if turn.Prompt != contextref.Project(text, recs) {
		t.Fatalf("prompt differs from the projection:\n%s", turn.Prompt)
	}
	if turn.Text != text || len(turn.Records) != len(recs) {
		t.Fatal("text or records not kept")
	}
	want := []Attachment{
		{ContextID: "ctx_f", AttachmentID: "sha256-bb", Name: "notes.txt", MimeType: "text/plain", Path: "/data/assets/bb/bb", Size: 5},
		{ContextID: "ctx_i", AttachmentID: "sha256-aa", Name: "shot.png", MimeType: "image/png", Path: "/data/assets/aa/aa", Size: 1536},
		{ContextID: "ctx_g", AttachmentID: "sha256-cc", Name: "gone.txt", MimeType: "text/plain", Size: 5},
	}
	if len(turn.Attachments) != len(want) {
		t.Fatalf("attachments %+v", turn.Attachments)
	}
	for i := range want {
		if turn.Attachments[i] != want[i] {
			t.Errorf("attachment %d: %+v, want %+v", i, turn.Attachments[i], want[i])
		}
	}
	if !turn.Attachments[1].IsImage() || turn.Attachments[0].IsImage() {
		t.Error("IsImage")
	}

	// nil resolve: listed without paths.
	turn = Prepare(text, recs, nil)
	if len(turn.Attachments) != 3 || turn.Attachments[0].Path != "" {
		t.Fatalf("nil resolve: %+v", turn.Attachments)
	}
	// No references: prompt is the text, no attachments.
	turn = Prepare("plain words", recs, nil)
	if turn.Prompt != "plain words" || len(turn.Attachments) != 0 {
		t.Fatalf("no refs: %+v", turn)
	}
	// An id held by two records is missing in the projection and not attached.
	dup := []contextref.Record{image("ctx_i", "a1", "a.png"), image("ctx_i", "a2", "b.png")}
	turn = Prepare("x "+contextref.LinkFor(dup[0]), dup, nil)
	if len(turn.Attachments) != 0 || !strings.Contains(turn.Prompt, `unavailable="true"`) {
		t.Fatalf("dup: %+v", turn)
	}
}

func TestEchoReplyFence(t *testing.T) {
	turn := Turn{Prompt: "look:\n```go\nfmt.Println(\"````\")\n```\ndone"}
	r := EchoReply(turn)
	if !strings.HasPrefix(r, EchoIntro+"\n\n`````text\n── 1 user ──\n<environment_context> … (") {
		t.Fatalf("reply starts %q", r[:120])
	}
	if !strings.Contains(r, "── 2 user · this message ──\n"+turn.Prompt+"\n`````\n") {
		t.Fatalf("prompt not fenced verbatim:\n%s", r)
	}
	if !strings.HasSuffix(r, "No attachments.\n") {
		t.Fatalf("reply ends %q", r[len(r)-40:])
	}
	// Plain prompt: a three-backtick fence.
	if r := EchoReply(Turn{Prompt: "hi `x`"}); !strings.Contains(r, "── 2 user · this message ──\nhi `x`\n```\n") || !strings.Contains(r, "\n```text\n") {
		t.Fatalf("plain: %q", r)
	}
	// A prompt ending in a newline gets no extra blank line.
	if r := EchoReply(Turn{Prompt: "hi\n"}); !strings.Contains(r, "this message ──\nhi\n```\n") {
		t.Fatalf("trailing newline: %q", r)
	}
}

func TestEchoReplyAttachments(t *testing.T) {
	text, recs := sampleMessage()
	dir := t.TempDir()
	png := filepath.Join(dir, "aa")
	if err := os.WriteFile(png, []byte("\x89PNG\r\n\x1a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	notes := filepath.Join(dir, "bb")
	if err := os.WriteFile(notes, []byte("milk\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	turn := Prepare(text, recs, func(id string) (string, bool) {
		switch id {
		case "sha256-aa":
			return png, true
		case "sha256-bb":
			return notes, true
		}
		return "", false
	})
	r := EchoReply(turn)
	for _, want := range []string{
		"Attachments:\n",
		"- notes.txt (text/plain, 5 B): inline as text\n",
		"- shot.png (image/png, 1.5 KiB): an image part\n",
		"- gone.txt (text/plain, 5 B): not available: a notice with its name\n",
		turn.Prompt + "\n\n<attached_file name=\"notes.txt\" id=\"ctx_f\">\nmilk\n\n</attached_file>\n\n" +
			"[image part: shot.png, image/png, 1.5 KiB]\n\n" +
			"<attached_file name=\"gone.txt\" id=\"ctx_g\">\n(not available: its bytes could not be read)\n</attached_file>\n```\n",
	} {
		if !strings.Contains(r, want) {
			t.Errorf("reply lacks %q:\n%s", want, r)
		}
	}
	if strings.Contains(r, "unreferenced") || strings.Contains(r, "No attachments") {
		t.Errorf("reply:\n%s", r)
	}
}

// Echo shows the history as the openai harness sends it, one line per part
// of the earlier messages, and the skill a message referenced earlier.
func TestEchoReplyHistory(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, ".agents/skills/review"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".agents/skills/review/SKILL.md"), []byte("Be thorough.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	turn := Prepare("and now?", nil, nil)
	turn.Dir = dir
	turn.History = []HistoryMessage{
		{Role: "user", Text: "first question\nwith two lines", Skills: []string{"review"}},
		{Role: "assistant", Text: strings.Repeat("long answer ", 20), Interrupted: true},
	}
	r := EchoReply(turn)
	for _, want := range []string{
		"── 1 user ──\n<environment_context> … (",
		"\n<skill> … (5 lines, ",
		"── 2 user ──\nfirst question … (2 lines, 29 B)\n",
		"── 3 assistant ──\nlong answer long answer long answer long answer long answer long answer … (240 B)\n",
		"── 4 user ──\n<turn_aborted> … (3 lines",
		"── 5 user · this message ──\nand now?\n```\n",
	} {
		if !strings.Contains(r, want) {
			t.Errorf("reply lacks %q:\n%s", want, r)
		}
	}
}

func TestEchoStreamsWholeReply(t *testing.T) {
	text, recs := sampleMessage()
	turn := Prepare(text, recs, nil)
	var chunks []string
	e := Echo{ChunkDelay: time.Microsecond, ChunkSize: 7}
	if err := e.stream(context.Background(), turn, func(d string) { chunks = append(chunks, d) }); err != nil {
		t.Fatal(err)
	}
	want := EchoReply(turn)
	if strings.Join(chunks, "") != want {
		t.Fatal("streamed text differs from EchoReply")
	}
	if len(chunks) < 10 {
		t.Fatalf("only %d chunks", len(chunks))
	}
	for _, c := range chunks[:len(chunks)-1] {
		if n := len([]rune(c)); n != 7 {
			t.Fatalf("chunk %q has %d runes", c, n)
		}
	}
	if e.Name() != "echo" {
		t.Error("name")
	}
	// Defaults: no delay configured still streams in 24-rune chunks.
	chunks = nil
	if err := (Echo{ChunkDelay: -1}).stream(context.Background(), Turn{Prompt: strings.Repeat("é", 100)}, func(d string) { chunks = append(chunks, d) }); err != nil {
		t.Fatal(err)
	}
	if len([]rune(chunks[0])) != 24 {
		t.Fatalf("default chunk %q", chunks[0])
	}
}

func TestEchoHonoursCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var n atomic.Int32
	first := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		done <- Echo{ChunkDelay: time.Hour}.stream(ctx, Turn{Prompt: strings.Repeat("x", 1000)}, func(string) {
			if n.Add(1) == 1 {
				close(first)
			}
		})
	}()
	<-first // the first chunk went out; the next one is an hour away
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("err = %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Stream did not return after cancel (its next chunk was an hour away)")
	}
	if n.Load() != 1 {
		t.Fatalf("%d chunks, want the one before the cancel", n.Load())
	}
	// Already cancelled: nothing emitted.
	n.Store(0)
	if err := (Echo{}).stream(ctx, Turn{Prompt: "x"}, func(string) { n.Add(1) }); !errors.Is(err, context.Canceled) || n.Load() != 0 {
		t.Fatalf("pre-cancelled: %v, %d", err, n.Load())
	}
}

func TestNew(t *testing.T) {
	for _, spec := range []string{"", "echo", " echo "} {
		b, err := New(spec)
		if err != nil || b.Name() != "echo" {
			t.Errorf("New(%q) = %v, %v", spec, b, err)
		}
	}
	_, err := New("nope")
	if err == nil || err.Error() != `unknown agent "nope" (available: echo, exec:<command>, acp:<command>, openai:<base-url>#<model>)` {
		t.Fatalf("New(nope) = %v", err)
	}
}
