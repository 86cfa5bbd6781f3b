//go:build race

package chat

// raceOn: the race detector slows the flood test down; it runs smaller.
const raceOn = true
