package rules

import (
	"fmt"
	"strings"
)

// A simple command is matched as its words joined by sep, each word as
// the shell will pass it (quotes removed), and a word whose value the
// shell decides when it runs (an expansion, a glob) as dyn: only a
// wildcard of a rule covers it. Neither byte can appear in a rule, and a
// command whose literal words hold one is never allowed.
const (
	sep = "\x1f"
	dyn = "\x00"
)

// cmdPattern is a Bash rule's specifier, compiled.
type cmdPattern struct {
	// any: no specifier, or "*": every command.
	any bool
	// prefix, when set, matches the command of exactly these words or
	// these words followed by any others: "go test:*", and "go test *"
	// (a single trailing wildcard after a space, which Claude Code makes
	// optional).
	prefix string
	// glob matches with "*" standing for any run of characters, spaces
	// (word breaks) included: "git * main", "ls*".
	glob string
}

// compileCommand compiles a Bash rule's specifier. Words are separated
// by spaces and written as the command's words are after the shell
// removed their quotes; a rule cannot name a word that holds a space.
func compileCommand(c string) (cmdPattern, error) {
	if c == "" || c == "*" {
		return cmdPattern{any: true}, nil
	}
	if strings.ContainsAny(c, sep+dyn) {
		return cmdPattern{}, fmt.Errorf("the command holds a control character")
	}
	if prefix, ok := strings.CutSuffix(c, ":*"); ok {
		words := strings.Fields(prefix)
		if len(words) == 0 || strings.Contains(prefix, "*") {
			return cmdPattern{}, fmt.Errorf(`":*" ends a command prefix without other wildcards, as in Bash(go test:*)`)
		}
		return cmdPattern{prefix: strings.Join(words, sep)}, nil
	}
	if strings.Contains(c, ":*") {
		return cmdPattern{}, fmt.Errorf(`":*" may only end the rule, as in Bash(go test:*); use "*" elsewhere`)
	}
	joined := strings.Join(strings.Fields(c), sep)
	if strings.Count(joined, "*") == 1 && strings.HasSuffix(joined, sep+"*") {
		return cmdPattern{prefix: strings.TrimSuffix(joined, sep+"*")}, nil
	}
	return cmdPattern{glob: joined}, nil
}

// match reports whether the command whose key (words joined by sep) is
// key matches p.
func (p cmdPattern) match(key string) bool {
	switch {
	case p.any:
		return true
	case p.prefix != "":
		return key == p.prefix || strings.HasPrefix(key, p.prefix+sep)
	default:
		return wildcard(p.glob, key)
	}
}

// wildcard reports whether s matches pattern, in which "*" stands for any
// run of bytes and every other byte for itself. It runs in time
// O(len(pattern)·len(s)) at worst, without recursion.
func wildcard(pattern, s string) bool {
	p, i := 0, 0
	star, mark := -1, 0
	for i < len(s) {
		switch {
		case p < len(pattern) && pattern[p] == '*':
			star, mark = p, i
			p++
		case p < len(pattern) && pattern[p] == s[i]:
			p++
			i++
		case star >= 0:
			p = star + 1
			mark++
			i = mark
		default:
			return false
		}
	}
	for p < len(pattern) && pattern[p] == '*' {
		p++
	}
	return p == len(pattern)
}
