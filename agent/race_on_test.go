//go:build race

package agent

// raceOn: the race detector slows the big flood tests down tenfold; they
// run smaller.
const raceOn = true
