//go:build !race

package sshserve

// raceEnabled reports whether the tests run under the race detector.
const raceEnabled = false
