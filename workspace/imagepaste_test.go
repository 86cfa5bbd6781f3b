package workspace

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chipchat/chipchat/contextref"
)

// Issue 25 item 22: what terminals paste for a dropped file.
func TestPastedImagePath(t *testing.T) {
	for _, c := range []struct {
		text, want string
		ok         bool
	}{
		{"/tmp/shot.png", "/tmp/shot.png", true},
		{"  /tmp/shot.PNG \n", "/tmp/shot.PNG", true},
		{`'/tmp/my shots/a b.jpg'`, "/tmp/my shots/a b.jpg", true},
		{`"/tmp/my \"best\" shot.jpeg"`, `/tmp/my "best" shot.jpeg`, true},
		{`/tmp/my\ shots/it\'s\ here.webp`, "/tmp/my shots/it's here.webp", true},
		{"file:///tmp/my%20shots/a.gif", "/tmp/my shots/a.gif", true},
		{"~/Desktop/shot.png", "/home/u/Desktop/shot.png", true},
		{"/tmp/../tmp/x.bmp", "/tmp/x.bmp", true},
		{"/tmp/my shots/a.png", "", false},    // an unescaped space: prose, or two paths
		{"/tmp/a.png /tmp/b.png", "", false},  // two paths
		{"look at /tmp/a.png", "", false},     // prose
		{"shot.png", "", false},               // relative
		{"/tmp/notes.txt", "", false},         // not an image name
		{"/tmp/a.png\n/tmp/b.png", "", false}, // two lines
		{"file://host/tmp/a.png", "", false},  // another host
		{`'/tmp/it's.png'`, "", false},        // a quote inside single quotes
		{"/tmp/pics/", "", false},             // a directory
		{"", "", false},
	} {
		got, ok := PastedImagePath(c.text, "/home/u")
		if ok != c.ok || got != c.want {
			t.Errorf("PastedImagePath(%q) = %q %v, want %q %v", c.text, got, ok, c.want, c.ok)
		}
	}
}

// AttachImage keeps an image file as an image record; a missing file, a
// text file named .png or a directory is an error and nothing is kept.
func TestAttachImage(t *testing.T) {
	e := newEnv(t, 0)
	w := e.workspace()
	p := e.file("shot one.png", tinyPNG)
	rec := must(t, w.AttachImage(p))
	if ir, ok := rec.(*contextref.ImageRecord); !ok || ir.Name != "shot one.png" || ir.MimeType != "image/png" {
		t.Fatalf("record %#v", rec)
	}
	missing := filepath.Join(e.dir, "nope.png")
	if _, err := w.AttachImage(missing)(); err == nil || err.Error() != "no file "+missing {
		t.Errorf("a missing file: %v", err)
	}
	if _, err := w.AttachImage(e.file("fake.png", []byte("just text")))(); !errors.Is(err, ErrNotImage) {
		t.Errorf("a text file named .png: %v", err)
	}
	if _, err := w.AttachImage(e.dir)(); !errors.Is(err, ErrNotImage) {
		t.Errorf("a directory: %v", err)
	}
}

// Issue 25 item 13: attaching a missing file says "no file PATH", not the
// raw stat error.
func TestAttachMissingFileSaysNoFile(t *testing.T) {
	e := newEnv(t, 0)
	missing := filepath.Join(e.dir, "nope.txt")
	_, err := e.workspace().Attach(missing)()
	if err == nil || err.Error() != "no file "+missing || strings.Contains(err.Error(), "stat") {
		t.Fatalf("attaching a missing file: %v", err)
	}
}

func FuzzPastedImagePath(f *testing.F) {
	for _, s := range []string{"/tmp/a.png", `'/a b.png'`, `"/a\"b.png"`, `/a\ b.png`, "file:///a%20b.png", "~/x.gif", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, ok := PastedImagePath(s, "/home/u")
		if !ok {
			if p != "" {
				t.Fatalf("not ok but a path %q", p)
			}
			return
		}
		if !filepath.IsAbs(p) || filepath.Clean(p) != p || strings.ContainsAny(p, "\n\r\x00") {
			t.Fatalf("%q gave the path %q", s, p)
		}
		if !imageExts[strings.ToLower(filepath.Ext(p))] {
			t.Fatalf("%q gave %q, not an image name", s, p)
		}
	})
}
