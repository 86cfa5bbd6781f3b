package terminal

import (
	"os"
	"strconv"
	"strings"
)

// sessionMembers lists the live processes whose session id is sid (the
// shell's job-control groups included), read from /proc.
func sessionMembers(sid int) []int {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var out []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(s[i+1:])
		// state ppid pgrp session
		if len(f) < 4 || f[0] == "Z" {
			continue
		}
		if ses, _ := strconv.Atoi(f[3]); ses == sid {
			out = append(out, pid)
		}
	}
	return out
}
