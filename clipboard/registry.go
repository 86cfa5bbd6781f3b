package clipboard

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Registry is the per-user file that maps environment ids to data
// directories (StateDir()/environments.json, mode 0600, written
// atomically), so a paste can reach the asset store of the environment a
// fragment came from. Two processes registering at once may lose one
// registration (last writer wins); each registers again on its next copy.
type Registry struct{ Path string }

// DefaultRegistry is StateDir()/environments.json.
func DefaultRegistry() *Registry {
	return &Registry{Path: filepath.Join(StateDir(), "environments.json")}
}

// All reads every registration; a missing file is an empty registry.
func (r *Registry) All() (map[string]string, error) {
	b, err := os.ReadFile(r.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]string{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("environment registry: %w", err)
	}
	m := map[string]string{}
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("environment registry %s: %w", r.Path, err)
	}
	return m, nil
}

// Register records that environment envID keeps its data in dataDir
// (made absolute). Nothing is written when the entry is already there.
func (r *Registry) Register(envID, dataDir string) error {
	envID = strings.TrimSpace(envID)
	if envID == "" || dataDir == "" {
		return errors.New("environment registry: empty environment id or data directory")
	}
	abs, err := filepath.Abs(dataDir)
	if err != nil {
		return fmt.Errorf("environment registry: %w", err)
	}
	m, err := r.All()
	if err != nil {
		m = map[string]string{} // a damaged registry is rewritten
	}
	if m[envID] == abs {
		return nil
	}
	m[envID] = abs
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(r.Path), 0o700); err != nil {
		return fmt.Errorf("environment registry: %w", err)
	}
	return writeAtomic(r.Path, b)
}

// Lookup returns the data directory registered for envID.
func (r *Registry) Lookup(envID string) (string, bool) {
	m, err := r.All()
	if err != nil {
		return "", false
	}
	d, ok := m[envID]
	return d, ok
}
