//go:build !unix

package paste

import (
	"os"
	"time"
)

// waitReadable cannot wait here: a trailing ESC passes at once.
func waitReadable(*os.File, time.Duration) bool { return false }
