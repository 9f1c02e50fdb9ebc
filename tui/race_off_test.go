//go:build !race

package tui

// raceEnabled reports whether the tests run under the race detector.
const raceEnabled = false
