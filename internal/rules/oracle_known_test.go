//go:build linux

package rules

import (
	"regexp"
	"slices"
)

// The bypasses of the matcher as it is today, which the oracle catches.
// The rewrite of the shell matcher removes them: when it lands, empty
// knownBypasses and knownBypassKinds and set knownBypassSyntax to nil.
// TestOracle then fails on any command of the corpus that the new
// matcher still lets through, and FuzzOracle looks at every input.

// knownBypasses are the commands of the oracle's corpus that the current
// matcher allows (under oracleRules) and the oracle catches, grouped by
// what the oracle saw. TestOracle fails on a command of the list that is
// no longer allowed or no longer caught, so that the list stays true.
var knownBypasses = []string{}

// knownBypassKinds are the kinds of finding that the current matcher lets
// through in forms the fuzzer finds at once (any wrapper left bare, any
// redirection into the project, any control character): FuzzOracle
// passes over a run whose findings are all of these kinds.
var knownBypassKinds = []string{}

// knownBypassSyntax matches the inputs that hold a construct through
// which the current matcher lets a value run code, or a command come
// from xargs's input: prompt expansion, arithmetic (nested in another
// expansion), xargs. FuzzOracle passes over them.
var knownBypassSyntax *regexp.Regexp

// knownBypass reports whether FuzzOracle passes over cmd, or over a run
// of it whose findings are of kinds (none: before it runs).
func knownBypass(cmd string, kinds []string) bool {
	if knownBypassSyntax != nil && knownBypassSyntax.MatchString(cmd) || slices.Contains(knownBypasses, cmd) {
		return true
	}
	for _, k := range kinds {
		if !slices.Contains(knownBypassKinds, k) {
			return false
		}
	}
	return len(kinds) > 0
}
