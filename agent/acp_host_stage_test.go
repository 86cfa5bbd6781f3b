//go:build unix

package agent

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"unicode/utf8"
)

// An acp: agent on a Host gets a small image as an image block and a
// small text file embedded, as locally; a binary file and a file too
// large to embed are staged on the host (Host.Stage) and sent as
// resource links to their paths there, and such a file is not refused
// at the local limit (the host's is ACPHostMaxAttachment).
func TestACPOnHostStagesBinaryAndLargeFiles(t *testing.T) {
	host := &fakeHost{stageDir: t.TempDir()}
	h := newACPHarness(t, ACPOptions{Host: host})
	img := acpWriteFile(t, "a1", []byte("\x89PNG small"))
	txt := acpWriteFile(t, "a2", []byte("plain notes\n"))
	bin := acpWriteFile(t, "a3", []byte("ELF\x00\x01\x02 binary"))
	big := acpWriteFile(t, "a4", bytes.Repeat([]byte("a long log line\n"), ACPDefaultMaxAttachment/16+1))
	if max := h.a.Capabilities().MaxAttachment; max != ACPHostMaxAttachment {
		t.Errorf("MaxAttachment on a Host = %d, want %d", max, ACPHostMaxAttachment)
	}
	h.mustTurn("a", "look",
		Attachment{ContextID: "i", Name: "shot.png", MimeType: "image/png", Path: img},
		Attachment{ContextID: "t", Name: "notes.txt", MimeType: "text/plain", Path: txt},
		Attachment{ContextID: "b", Name: "blob.bin", MimeType: "application/octet-stream", Path: bin},
		Attachment{ContextID: "l", Name: "big.log", MimeType: "text/plain", Path: big, Size: int64(ACPDefaultMaxAttachment + 16)})
	blocks := acpBlocksOf(h.event("prompt"))
	if len(blocks) != 5 {
		t.Fatalf("blocks = %v", blocks)
	}
	if blocks[1]["type"] != "image" || blocks[2]["type"] != "resource" || blocks[2]["text"] != "plain notes\n" {
		t.Errorf("the image and the text file are not sent as locally: %v, %v", blocks[1], blocks[2])
	}
	for i, name := range []string{"blob.bin", "big.log"} {
		b := blocks[3+i]
		uri, _ := b["uri"].(string)
		if b["type"] != "link" || b["name"] != name || !strings.HasPrefix(uri, "file://"+host.stageDir+"/") || !strings.HasSuffix(uri, "/"+name) {
			t.Errorf("%s: block %v, want a link to its staged path under %s", name, b, host.stageDir)
		}
	}
	if got := strings.Join(host.staged, ","); got != "blob.bin,big.log" {
		t.Errorf("staged %q, want blob.bin,big.log", got)
	}
}

// acpIsBinary: a NUL or invalid UTF-8 is binary; text, and text whose
// first 8000 bytes end inside a multibyte rune, is not.
func TestACPIsBinary(t *testing.T) {
	for _, c := range []struct {
		data string
		want bool
	}{
		{"hello\n", false},
		{"a\x00b", true},
		{"\xff\xfe", true},
		{strings.Repeat("a", 7999) + "é and more", false},
		{"", false},
	} {
		if got := acpIsBinary(acpWriteFile(t, "f", []byte(c.data))); got != c.want {
			t.Errorf("acpIsBinary(%q) = %v, want %v", clipForTest(c.data), got, c.want)
		}
	}
}

func clipForTest(s string) string {
	if len(s) > 20 {
		return s[:20] + "…"
	}
	return s
}

// exit255Host is a droppingHost whose commands end as ssh does when the
// connection goes: status 255, whatever the command's own.
type exit255Host struct{ droppingHost }

func (h exit255Host) Command(ctx context.Context, dir string, argv, env []string) (*exec.Cmd, error) {
	return h.droppingHost.Command(ctx, dir, append([]string{"sh", "-c", `"$@"; exit 255`, "sh"}, argv...), env)
}

// An acp: agent on a Host that ends with ssh's 255 while the connection
// dropped fails the turn saying so in words, not as the bare status with
// the agent's last line of stderr; the same status with the connection
// up is the agent's own.
func TestACPOnHostSaysTheConnectionDropped(t *testing.T) {
	for _, dropped := range []bool{true, false} {
		h := newACPHarness(t, ACPOptions{Host: exit255Host{droppingHost{&fakeHost{stageDir: t.TempDir()}, dropped}}})
		_, err := h.turn("a", "[crash]")
		said := err != nil && strings.Contains(err.Error(), "the connection to fakehost dropped while the agent ran")
		if said != dropped {
			t.Errorf("dropped %v: %v", dropped, err)
		}
		if !dropped && (err == nil || !strings.Contains(err.Error(), "exit status 255")) {
			t.Errorf("connection up: %v", err)
		}
	}
}

// FuzzACPIsBinary: acpIsBinary never fails, and says binary exactly when
// the first 8000 bytes hold a NUL or are not UTF-8 (up to a rune cut at
// their end when the file goes on).
func FuzzACPIsBinary(f *testing.F) {
	f.Add([]byte("hello\n"))
	f.Add([]byte("a\x00b"))
	f.Add([]byte("\xff\xfe"))
	f.Add(append(bytes.Repeat([]byte("a"), 7999), "é"...))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		p := dir + "/f"
		if err := os.WriteFile(p, data, 0o600); err != nil {
			t.Fatal(err)
		}
		head := data
		if len(head) > 8000 {
			head = head[:8000]
		}
		want := bytes.IndexByte(head, 0) >= 0
		if !want && !utf8.Valid(head) {
			want = true
			if len(data) >= 8000 {
				for cut := 1; cut <= 3 && cut <= len(head); cut++ {
					if utf8.Valid(head[:len(head)-cut]) {
						want = false
						break
					}
				}
			}
		}
		if got := acpIsBinary(p); got != want {
			t.Errorf("acpIsBinary(%d bytes) = %v, want %v", len(data), got, want)
		}
	})
}
