//go:build !unix

package clipboard

import "errors"

// ServeWayland needs unix sockets with SCM_RIGHTS.
func ServeWayland(display, runtimeDir string, items map[string][]byte, ready func()) error {
	return errors.New("wayland: not supported on this system")
}
