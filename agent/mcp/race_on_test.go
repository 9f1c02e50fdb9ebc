//go:build race

package mcp

// raceEnabled reports whether the tests run under the race detector.
const raceEnabled = true
