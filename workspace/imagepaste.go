package workspace

import (
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/chipchat/chipchat/assets"
	"github.com/chipchat/chipchat/contextref"
)

// Dropped images (issue 25 item 22): a terminal that gets a file dropped on
// it pastes the file's path, often quoted ('/a b/shot.png') or with
// backslash escapes (/a\ b/shot.png), sometimes as a file:// URL. A paste
// that is exactly one path of an existing image file becomes an image chip;
// anything else stays text.

// maxPastedPath bounds the text looked at as a dropped path.
const maxPastedPath = 4096

// imageExts are the file name extensions a dropped path may end with.
var imageExts = map[string]bool{".png": true, ".jpg": true, ".jpeg": true, ".gif": true, ".webp": true, ".bmp": true}

// PastedImagePath reads pasted text as one dropped image path: white space
// around it trimmed, one pair of single or double quotes removed (inside
// double quotes \" and \\ are escapes), else backslash escapes undone
// (an unescaped space means it is not one path), a file:// URL decoded,
// ~/ expanded with home. ok only for one absolute path whose name ends in
// an image extension (.png, .jpg, .jpeg, .gif, .webp, .bmp, any case). No
// I/O: the file itself is checked by AttachImage.
func PastedImagePath(text, home string) (path string, ok bool) {
	s := strings.TrimSpace(text)
	if s == "" || len(s) > maxPastedPath || strings.ContainsAny(s, "\n\r\x00") {
		return "", false
	}
	switch q := s[0]; {
	case len(s) >= 2 && q == '\'' && s[len(s)-1] == '\'':
		s = s[1 : len(s)-1]
		if strings.ContainsRune(s, '\'') {
			return "", false
		}
	case len(s) >= 2 && q == '"' && s[len(s)-1] == '"':
		var ok bool
		if s, ok = unescape(s[1:len(s)-1], `"\`, false); !ok {
			return "", false
		}
	default:
		var ok bool
		if s, ok = unescape(s, "", true); !ok {
			return "", false
		}
	}
	if strings.HasPrefix(s, "file://") {
		u, err := url.Parse(s)
		if err != nil || u.Host != "" && u.Host != "localhost" || u.RawQuery != "" || u.Fragment != "" {
			return "", false
		}
		s = u.Path
	}
	if home != "" && strings.HasPrefix(s, "~/") {
		s = filepath.Join(home, s[2:])
	}
	if !filepath.IsAbs(s) || strings.HasSuffix(s, "/") || !imageExts[strings.ToLower(filepath.Ext(s))] {
		return "", false
	}
	return filepath.Clean(s), true
}

// unescape undoes backslash escapes: of the characters in only (any
// character when only is ""); a backslash before another one stays.
// noSpace refuses an unescaped space (two paths, or prose).
func unescape(s, only string, noSpace bool) (string, bool) {
	if !strings.ContainsAny(s, `\ `) {
		return s, true
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s) && (only == "" || strings.IndexByte(only, s[i+1]) >= 0):
			i++
			b.WriteByte(s[i])
		case c == ' ' && noSpace:
			return "", false
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), true
}

// ErrNotImage is AttachImage's error for a path that is not an image file.
var ErrNotImage = errors.New("not an image file")

// AttachImage is Attach for a dropped image path (PastedImagePath): a
// regular file whose first bytes and name say it is an image, kept in the
// asset store as an image chip's record. Anything else (missing, a
// directory, not an image) is an error and nothing is stored.
func (w *Workspace) AttachImage(path string) func() (contextref.Record, error) {
	attach := w.Attach(path)
	return func() (contextref.Record, error) {
		info, err := os.Stat(path)
		if err != nil {
			return nil, NoFile(path, err)
		}
		if !info.Mode().IsRegular() {
			return nil, fmt.Errorf("%s: %w", path, ErrNotImage)
		}
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		head := make([]byte, 512)
		k, _ := io.ReadFull(f, head)
		f.Close()
		if !assets.IsImage(assets.DetectMimeType(filepath.Base(path), head[:k])) || !sniffedImage(head[:k]) {
			return nil, fmt.Errorf("%s: %w", path, ErrNotImage)
		}
		rec, err := attach()
		if err != nil {
			return nil, err
		}
		if rec.RecordBase().Kind != contextref.KindImage {
			return nil, fmt.Errorf("%s: %w", path, ErrNotImage)
		}
		return rec, nil
	}
}

// sniffedImage reports whether the content itself is an image (a text file
// named shot.png is not).
func sniffedImage(head []byte) bool {
	return assets.IsImage(assets.DetectMimeType("", head))
}

// NoFile words a missing file as "no file PATH" (issue 25 item 13: not the
// raw "stat PATH: no such file or directory"); other errors are kept.
func NoFile(path string, err error) error {
	if errors.Is(err, os.ErrNotExist) {
		return errors.New("no file " + path)
	}
	return err
}
