//go:build !unix

package agent

import "os"

// acpNonBlock: opening does not block on a FIFO here.
const acpNonBlock = 0

func acpIsSocketErr(error) bool { return false }

func acpLinks(os.FileInfo) uint64 { return 1 }

func acpIsLoopErr(error) bool { return false }
