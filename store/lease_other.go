//go:build !unix

package store

import "os"

// fileLocks: there is no portable advisory lock here, so a lease file that
// exists always counts as held (a reply is never interrupted by mistake;
// one left by a crash stays streaming until its lease file is removed).
const fileLocks = false

func lockFile(f *os.File) (bool, error) { return true, nil }
