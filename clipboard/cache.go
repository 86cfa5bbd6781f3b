package clipboard

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/chipchat/chipchat/contextref"
)

// Default bounds of the fragment cache.
const (
	DefaultMaxEntries = 200
	DefaultMaxBytes   = 64 << 20
)

// ErrNoEntry is returned by Lookup when no copy of that text is cached.
var ErrNoEntry = errors.New("clipboard: no cached fragment for this text")

// ErrInvalid is wrapped by every reason Lookup refuses a cached entry.
var ErrInvalid = errors.New("clipboard: cached fragment refused")

// StateDir is $XDG_STATE_HOME/chipchat, else ~/.local/state/chipchat.
func StateDir() string {
	if d := os.Getenv("XDG_STATE_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "chipchat")
	}
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		return filepath.Join(os.TempDir(), "chipchat-state")
	}
	return filepath.Join(home, ".local", "state", "chipchat")
}

// Cache is the fragment cache carrier. The zero bounds mean the defaults.
type Cache struct {
	Dir        string
	MaxEntries int
	MaxBytes   int64
}

// DefaultCache is the cache in StateDir()/clipboard.
func DefaultCache() *Cache { return &Cache{Dir: filepath.Join(StateDir(), "clipboard")} }

// entry is one cache file.
type entry struct {
	Text     string          `json:"text"`
	Fragment json.RawMessage `json:"fragment"`
}

// Key is the cache key of a text: the SHA-256 hex of its exact bytes.
func Key(text string) string {
	s := sha256.Sum256([]byte(text))
	return hex.EncodeToString(s[:])
}

func (c *Cache) maxEntries() int {
	if c.MaxEntries > 0 {
		return c.MaxEntries
	}
	return DefaultMaxEntries
}

func (c *Cache) maxBytes() int64 {
	if c.MaxBytes > 0 {
		return c.MaxBytes
	}
	return DefaultMaxBytes
}

// Put stores the fragment of a copied text (atomically, mode 0600), keyed
// by the normalized text (NormalizeText), and
// evicts the oldest entries over the bounds. A fragment that does not
// encode (no environment id, over the limits) is not written.
func (c *Cache) Put(text string, f *contextref.Fragment) error {
	text = NormalizeText(text)
	js, err := f.Marshal()
	if err != nil {
		return err
	}
	raw, err := json.Marshal(entry{Text: text, Fragment: js})
	if err != nil {
		return err
	}
	if int64(len(raw)) > c.maxBytes() {
		return fmt.Errorf("clipboard: the copy is %d bytes, over the cache's %d", len(raw), c.maxBytes())
	}
	if err := os.MkdirAll(c.Dir, 0o700); err != nil {
		return fmt.Errorf("clipboard: %w", err)
	}
	if err := writeAtomic(filepath.Join(c.Dir, Key(text)+".json"), raw); err != nil {
		return err
	}
	c.evict()
	return nil
}

// writeAtomic writes data to path through a temp file in the same
// directory, synced and renamed, mode 0600.
func writeAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
	if err != nil {
		return fmt.Errorf("clipboard: %w", err)
	}
	name := tmp.Name()
	ok := false
	defer func() {
		if !ok {
			tmp.Close()
			os.Remove(name)
		}
	}()
	if err := tmp.Chmod(0o600); err != nil {
		return fmt.Errorf("clipboard: %w", err)
	}
	if _, err := tmp.Write(data); err != nil {
		return fmt.Errorf("clipboard: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		return fmt.Errorf("clipboard: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("clipboard: %w", err)
	}
	if err := os.Rename(name, path); err != nil {
		return fmt.Errorf("clipboard: %w", err)
	}
	ok = true
	return nil
}

// evict removes the oldest entries (by modification time) until at most
// MaxEntries remain and they weigh at most MaxBytes.
func (c *Cache) evict() {
	des, err := os.ReadDir(c.Dir)
	if err != nil {
		return
	}
	type item struct {
		name string
		info fs.FileInfo
	}
	var items []item
	var total int64
	for _, de := range des {
		if !strings.HasSuffix(de.Name(), ".json") || !de.Type().IsRegular() {
			continue
		}
		info, err := de.Info()
		if err != nil {
			continue
		}
		items = append(items, item{de.Name(), info})
		total += info.Size()
	}
	sort.Slice(items, func(i, j int) bool {
		ti, tj := items[i].info.ModTime(), items[j].info.ModTime()
		if ti.Equal(tj) {
			return items[i].name < items[j].name
		}
		return ti.Before(tj)
	})
	for len(items) > 0 && (len(items) > c.maxEntries() || total > c.maxBytes()) {
		os.Remove(filepath.Join(c.Dir, items[0].name))
		total -= items[0].info.Size()
		items = items[1:]
	}
}

// Lookup returns the fragment cached for exactly this text. ErrNoEntry:
// nothing cached; an error wrapping ErrInvalid: an entry exists but is
// refused (over the size bound, malformed, a record that does not decode, a
// text that differs, a link whose record has another kind) and the paste
// must be plain text. The text is looked up normalized (NormalizeText), as
// the draft will hold it: a terminal's paste has CR line ends.
func (c *Cache) Lookup(text string) (*contextref.Fragment, error) {
	text = NormalizeText(text)
	path := filepath.Join(c.Dir, Key(text)+".json")
	info, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, ErrNoEntry
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrInvalid, err)
	}
	if !info.Mode().IsRegular() || info.Size() > c.maxBytes() {
		return nil, fmt.Errorf("%w: the cache entry is over %d bytes", ErrInvalid, c.maxBytes())
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrInvalid, err)
	}
	var e entry
	if err := json.Unmarshal(raw, &e); err != nil {
		return nil, fmt.Errorf("%w: the cache entry is not JSON", ErrInvalid)
	}
	if e.Text != text {
		return nil, fmt.Errorf("%w: the cached text is not the pasted text", ErrInvalid)
	}
	return ValidateFragment(text, e.Fragment)
}

// ValidateFragment decodes a fragment's JSON for the text it came with and
// refuses it whole (no partial import) when it is over the limits, does not
// decode, drops a record (undecodable or a repeated id), or holds a record
// whose kind differs from a link in the text that names its id.
func ValidateFragment(text string, js []byte) (*contextref.Fragment, error) {
	if contextref.UTF16Len(string(js)) > contextref.MaxFragmentLen {
		return nil, fmt.Errorf("%w: the fragment is over %d characters", ErrInvalid, contextref.MaxFragmentLen)
	}
	f, err := contextref.DecodeFragmentJSON(js)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrInvalid, err)
	}
	var probe struct {
		Records []json.RawMessage `json:"records"`
	}
	if err := json.Unmarshal(js, &probe); err != nil || len(probe.Records) != len(f.Records) {
		return nil, fmt.Errorf("%w: %d of its records are invalid", ErrInvalid, len(probe.Records)-len(f.Records))
	}
	if err := CheckLinks(text, f.Records); err != nil {
		return nil, err
	}
	return f, nil
}

// CheckLinks refuses records whose kind differs from a link in text naming
// their id.
func CheckLinks(text string, recs []contextref.Record) error {
	kinds := make(map[string]string, len(recs))
	for _, r := range recs {
		kinds[r.RecordBase().ContextID] = r.RecordBase().Kind
	}
	for _, o := range contextref.Scan(text) {
		if k, ok := kinds[o.ContextID]; ok && k != o.Kind {
			return fmt.Errorf("%w: the link %s is a %s but its record is a %s", ErrInvalid, o.ContextID, o.Kind, k)
		}
	}
	return nil
}
