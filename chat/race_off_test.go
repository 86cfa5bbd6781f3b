//go:build !race

package chat

const raceOn = false
