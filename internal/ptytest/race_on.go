//go:build race

package ptytest

// RaceEnabled reports whether the tests run under the race detector.
const RaceEnabled = true
