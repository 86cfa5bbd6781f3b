package workspace

import (
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"

	"github.com/chipchat/chipchat/contextref"
)

// CommonPrefix is the longest prefix of every string of ss (ss not empty).
func CommonPrefix(ss []string) string {
	p := ss[0]
	for _, s := range ss[1:] {
		for !strings.HasPrefix(s, p) {
			p = p[:len(p)-1]
		}
	}
	return p
}

// ExpandPath resolves ~ and relative paths against the project directory.
func ExpandPath(p, dir, home string) string {
	if p == "~" || strings.HasPrefix(p, "~/") {
		p = filepath.Join(home, strings.TrimPrefix(p, "~"))
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(dir, p)
	}
	return filepath.Clean(p)
}

// CompletePath lists the entries that complete input (directories end in
// "/"), written the way the user wrote the input. It reads the file system:
// run it in a command.
func CompletePath(input, dir, home string) []string {
	base, prefix := filepath.Split(input)
	entries, err := os.ReadDir(ExpandPath(base+".", dir, home))
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		name := e.Name()
		if !strings.HasPrefix(name, prefix) || strings.HasPrefix(name, ".") && !strings.HasPrefix(prefix, ".") {
			continue
		}
		if e.IsDir() {
			name += "/"
		}
		out = append(out, base+name)
	}
	sort.Strings(out)
	return out
}

// OpenPath runs xdg-open (or open on macOS) in the background, else says
// where the file is; it returns what to tell the user.
func OpenPath(p, name string) string {
	for _, tool := range []string{"xdg-open", "open"} {
		if bin, err := exec.LookPath(tool); err == nil {
			c := exec.Command(bin, p)
			if err := c.Start(); err == nil {
				go func() { _ = c.Wait() }()
				return "opened " + name
			}
		}
	}
	return name + " is at " + p
}

// Open is what opening a chip does (transcript o, the shelf's open): a
// mention's path under dir, a file's or an image's stored bytes, shown with
// OpenPath; the func (run it in a command) says what to tell the user. ok
// false: the record has nothing to open.
func (w *Workspace) Open(r contextref.Record, dir string) (open func() string, ok bool) {
	if m, ok := r.(*contextref.MentionRecord); ok {
		p := filepath.Join(dir, m.Path)
		return func() string { return OpenPath(p, m.Path) }, true
	}
	att := contextref.AttachmentOf(r)
	if att == nil {
		return nil, false
	}
	where, name := w.Path(att.AttachmentID), att.Name
	return func() string {
		p, err := where()
		if err != nil {
			return name + ": the bytes are not in this environment's asset store"
		}
		return OpenPath(p, name)
	}, true
}
