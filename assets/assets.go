package assets

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"mime"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// DefaultLimit is the largest attachment a store accepts unless Open is
// given another limit: 20 MiB.
const DefaultLimit = 20 << 20

// IDPrefix starts every asset id.
const IDPrefix = "sha256-"

const (
	tmpPrefix = ".tmp-"
	staleTemp = 24 * time.Hour
	sniffLen  = 512
)

// ErrNotFound is returned by Path for a well-formed id that is not stored.
var ErrNotFound = errors.New("asset not found")

// ErrInvalidID is returned by Path for an id that is not "sha256-" plus 64
// lowercase hex digits.
var ErrInvalidID = errors.New("invalid asset id")

// TooLargeError says an attachment is over the store's size limit.
type TooLargeError struct {
	Limit int64 // the store's limit in bytes
	Size  int64 // the attachment's size when known; 0 when it is only known to be more than Limit
}

func (e *TooLargeError) Error() string {
	if e.Size > 0 {
		return fmt.Sprintf("attachment too large: %s is over the %s limit", HumanSize(e.Size), HumanSize(e.Limit))
	}
	return fmt.Sprintf("attachment too large: more than the %s limit", HumanSize(e.Limit))
}

// Asset describes bytes just stored by PutFile.
type Asset struct {
	ID       string // "sha256-<hex>"
	Name     string // base name of the file
	MimeType string // bare media type, e.g. "image/png", "text/plain"
	Size     int64  // bytes
}

// Store is a content-addressed store of attachment bytes. It is safe for
// concurrent use, also by several processes sharing the directory.
type Store struct {
	dir   string
	limit int64
}

// Open opens (creating it with mode 0700 if needed) the store in dir. A
// limit <= 0 means DefaultLimit.
func Open(dir string, limit int64) (*Store, error) {
	if dir == "" {
		return nil, errors.New("assets: empty directory")
	}
	if limit <= 0 {
		limit = DefaultLimit
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("assets: %w", err)
	}
	s := &Store{dir: dir, limit: limit}
	s.removeStaleTemps()
	return s, nil
}

// Dir is the store's directory.
func (s *Store) Dir() string { return s.dir }

// Limit is the largest attachment the store accepts, in bytes.
func (s *Store) Limit() int64 { return s.limit }

func (s *Store) removeStaleTemps() {
	entries, err := os.ReadDir(s.dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), tmpPrefix) || !e.Type().IsRegular() {
			continue
		}
		if info, err := e.Info(); err == nil && time.Since(info.ModTime()) > staleTemp {
			os.Remove(filepath.Join(s.dir, e.Name()))
		}
	}
}

// Put stores everything r yields and returns its id and size. The bytes are
// streamed to a temp file while hashed, synced and renamed into place; bytes
// already stored are not written again. More than the limit gives a
// *TooLargeError and leaves no file behind.
func (s *Store) Put(r io.Reader) (id string, size int64, err error) {
	tmp, err := os.CreateTemp(s.dir, tmpPrefix+"*")
	if err != nil {
		return "", 0, fmt.Errorf("assets: %w", err)
	}
	tmpName := tmp.Name()
	defer func() {
		if tmp != nil {
			tmp.Close()
		}
		if err != nil {
			os.Remove(tmpName)
		}
	}()

	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(tmp, h), io.LimitReader(r, s.limit+1))
	if err != nil {
		return "", 0, fmt.Errorf("assets: writing attachment: %w", err)
	}
	if n > s.limit {
		return "", 0, &TooLargeError{Limit: s.limit}
	}
	if err = tmp.Sync(); err != nil {
		return "", 0, fmt.Errorf("assets: %w", err)
	}
	if err = tmp.Close(); err != nil {
		tmp = nil
		return "", 0, fmt.Errorf("assets: %w", err)
	}
	tmp = nil

	sum := hexSum(h)
	id = IDPrefix + sum
	sub := filepath.Join(s.dir, sum[:2])
	final := filepath.Join(sub, sum)
	if info, statErr := os.Lstat(final); statErr == nil && info.Mode().IsRegular() && info.Size() == n {
		os.Remove(tmpName) // already stored: the bytes are the same by construction
		return id, n, nil
	}
	if err = os.MkdirAll(sub, 0o700); err != nil {
		return "", 0, fmt.Errorf("assets: %w", err)
	}
	if err = os.Rename(tmpName, final); err != nil {
		return "", 0, fmt.Errorf("assets: %w", err)
	}
	syncDir(sub)
	return id, n, nil
}

func hexSum(h hash.Hash) string { return hex.EncodeToString(h.Sum(nil)) }

// syncDir makes a rename in dir durable; best effort (not every platform can
// sync a directory).
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}

// PutFile stores the regular file at path (symlinks are followed) and
// describes it: base name, MIME type and size. Directories and other
// non-regular files are refused, and so is a file over the limit, before
// any byte is copied.
func (s *Store) PutFile(path string) (Asset, error) {
	info, err := os.Stat(path)
	if err != nil {
		return Asset{}, err
	}
	if err := checkRegular(path, info); err != nil {
		return Asset{}, err
	}
	if info.Size() > s.limit {
		return Asset{}, &TooLargeError{Limit: s.limit, Size: info.Size()}
	}
	f, err := os.Open(path)
	if err != nil {
		return Asset{}, err
	}
	defer f.Close()
	if info, err = f.Stat(); err != nil {
		return Asset{}, err
	}
	if err := checkRegular(path, info); err != nil { // replaced since the first look
		return Asset{}, err
	}

	head := make([]byte, sniffLen)
	k, err := io.ReadFull(f, head)
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		return Asset{}, fmt.Errorf("assets: reading %s: %w", path, err)
	}
	head = head[:k]
	name := filepath.Base(path)
	id, size, err := s.Put(io.MultiReader(bytes.NewReader(head), f))
	if err != nil {
		var tl *TooLargeError
		if errors.As(err, &tl) && tl.Size == 0 {
			if fi, e := f.Stat(); e == nil && fi.Size() > s.limit {
				tl.Size = fi.Size()
			}
		}
		return Asset{}, err
	}
	return Asset{ID: id, Name: name, MimeType: DetectMimeType(name, head), Size: size}, nil
}

func checkRegular(path string, info fs.FileInfo) error {
	switch {
	case info.IsDir():
		return fmt.Errorf("cannot attach %s: it is a directory", path)
	case !info.Mode().IsRegular():
		return fmt.Errorf("cannot attach %s: not a regular file", path)
	}
	return nil
}

// builtinTypes wins over the system's MIME tables: image types IsImage must
// recognise, and source files that those tables map to something else
// (".ts" is a Qt translation file or an MPEG stream to them).
var builtinTypes = map[string]string{
	".png":      "image/png",
	".jpg":      "image/jpeg",
	".jpeg":     "image/jpeg",
	".gif":      "image/gif",
	".webp":     "image/webp",
	".bmp":      "image/bmp",
	".svg":      "image/svg+xml",
	".pdf":      "application/pdf",
	".json":     "application/json",
	".md":       "text/markdown",
	".markdown": "text/markdown",
	".txt":      "text/plain",
	".ts":       "text/plain",
	".tsx":      "text/plain",
	".mts":      "text/plain",
	".cts":      "text/plain",
}

// DetectMimeType gives the bare media type of a file from its name and its
// first bytes (up to 512 are looked at): the extension when it is known,
// else the content. Never empty, never longer than 100 characters.
func DetectMimeType(name string, head []byte) string {
	ext := strings.ToLower(filepath.Ext(name))
	t := builtinTypes[ext]
	if t == "" && ext != "" {
		t = bareType(mime.TypeByExtension(ext))
	}
	if t == "" {
		if len(head) > sniffLen {
			head = head[:sniffLen]
		}
		t = bareType(http.DetectContentType(head))
	}
	if t == "" || len(t) > 100 {
		t = "application/octet-stream"
	}
	return t
}

// bareType drops parameters and lower-cases: "Text/Plain; charset=utf-8" →
// "text/plain".
func bareType(t string) string {
	if t == "" {
		return ""
	}
	if mt, _, err := mime.ParseMediaType(t); err == nil {
		return mt
	}
	t, _, _ = strings.Cut(t, ";")
	return strings.ToLower(strings.TrimSpace(t))
}

// ValidID reports whether id is "sha256-" followed by exactly 64 lowercase
// hex digits.
func ValidID(id string) bool {
	hexPart, ok := strings.CutPrefix(id, IDPrefix)
	if !ok || len(hexPart) != sha256.Size*2 {
		return false
	}
	for i := 0; i < len(hexPart); i++ {
		c := hexPart[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// Path is where the bytes of id are stored. It returns an error wrapping
// ErrInvalidID for a malformed id (nothing outside the store can be named)
// and ErrNotFound when the id is not stored.
func (s *Store) Path(id string) (string, error) {
	if !ValidID(id) {
		return "", fmt.Errorf("%w: %q", ErrInvalidID, id)
	}
	sum := id[len(IDPrefix):]
	p := filepath.Join(s.dir, sum[:2], sum)
	info, err := os.Lstat(p)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return "", fmt.Errorf("%w: %s", ErrNotFound, id)
		}
		return "", fmt.Errorf("assets: %w", err)
	}
	if !info.Mode().IsRegular() {
		return "", fmt.Errorf("%w: %s", ErrNotFound, id)
	}
	return p, nil
}

// Has reports whether id is a valid id whose bytes are stored.
func (s *Store) Has(id string) bool {
	_, err := s.Path(id)
	return err == nil
}

// IsImage reports whether mimeType (parameters and case ignored) is an image
// type the app shows as an image: PNG, JPEG, GIF, WebP, BMP or SVG.
func IsImage(mimeType string) bool {
	switch bareType(mimeType) {
	case "image/png", "image/jpeg", "image/jpg", "image/gif", "image/webp",
		"image/bmp", "image/x-ms-bmp", "image/svg+xml":
		return true
	}
	return false
}

// HumanSize writes a byte count in binary units with at most one decimal:
// "512 B", "1.5 KiB", "20 MiB".
func HumanSize(n int64) string {
	if n < 1024 { // includes negative counts, which only a bug produces
		return strconv.FormatInt(n, 10) + " B"
	}
	units := []string{"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}
	v := float64(n) / 1024
	u := 0
	for u < len(units)-1 && v >= 1024 {
		v /= 1024
		u++
	}
	s := strconv.FormatFloat(v, 'f', 1, 64)
	if s == "1024.0" && u < len(units)-1 { // rounding reached the next unit
		s, u = "1.0", u+1
	}
	return strings.TrimSuffix(s, ".0") + " " + units[u]
}
