//go:build !linux

package hostileagent

import "errors"

// exchange: no atomic exchange here; Race renames three times instead.
func exchange(a, b string) error { return errors.New("no RENAME_EXCHANGE") }
