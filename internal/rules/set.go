package rules

import (
	"errors"
	"slices"
	"strings"

	"github.com/asktui/asktui/interaction"
)

// Limits on a rules file.
const (
	// MaxFileBytes is the largest rules file read.
	MaxFileBytes = 1 << 20
	// MaxRules is the most rules a file may hold.
	MaxRules = 10_000
)

// header starts a new rules file.
const header = `# asktui rules: the standing answers asktui gives agents' permission
# requests for you (docs/rules.md). One rule a line:
#
#   allow|deny  DIRECTORY  [session=SESSION]  RULE
#
# RULE is in Claude Code's permission-rule syntax: Bash(go test:*),
# Edit(src/**), Read(./docs/**), WebFetch(domain:go.dev), mcp__github.
# A rule stands only for agents working in DIRECTORY; deny wins.
# Lines starting with # are comments. asktui reads this file again
# as soon as it changes.
`

// Set is the rules of a rules file, in order, with the file's other
// lines (comments, blank lines) kept for rewriting it.
type Set struct {
	rules []Rule
	lines []string // the file's lines, without their newlines
	at    []int    // at[i] is the line of rules[i]
	// guarded are the resolved directories no rule allows an edit in:
	// the rules file's own (see [Set.allowsEdit]).
	guarded []string
}

// guard keeps every rule from allowing an edit in the directories dirs,
// resolved (those that cannot be resolved are kept as written).
func (s *Set) guard(dirs ...string) {
	for _, d := range dirs {
		if r, err := resolve(d); err == nil {
			d = r
		}
		if d != "" && !slices.Contains(s.guarded, d) {
			s.guarded = append(s.guarded, d)
		}
	}
}

// Parse reads a rules file. home is the directory ~ stands for. Any line
// that is neither blank, a comment nor a rule makes the whole file
// invalid: an INVALID_RULE error names the line.
func Parse(data []byte, home string) (*Set, error) {
	if len(data) > MaxFileBytes {
		return nil, invalid("the rules file is %d bytes, over the limit of %d", len(data), MaxFileBytes)
	}
	text := strings.TrimSuffix(string(data), "\n")
	s := &Set{}
	if text != "" {
		s.lines = strings.Split(text, "\n")
	}
	for i, line := range s.lines {
		line = strings.TrimSuffix(line, "\r")
		s.lines[i] = line
		t := strings.TrimSpace(line)
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		if len(s.rules) == MaxRules {
			return nil, invalid("line %d: the rules file holds more than %d rules", i+1, MaxRules)
		}
		r, err := ParseRule(t)
		if err != nil {
			return nil, invalid("line %d: %s", i+1, messageOf(err))
		}
		r.compile(home)
		s.rules = append(s.rules, r)
		s.at = append(s.at, i)
	}
	return s, nil
}

// Rules returns the rules in order; rule n of the file is Rules()[n-1].
// The slice is the caller's.
func (s *Set) Rules() []Rule {
	if s == nil {
		return nil
	}
	return append([]Rule(nil), s.rules...)
}

// Len returns how many rules there are.
func (s *Set) Len() int {
	if s == nil {
		return 0
	}
	return len(s.rules)
}

// withRule returns the file's text with r added as its last line; an
// empty file gets the header first.
func (s *Set) withRule(r Rule) []byte {
	lines := s.linesOrHeader()
	return join(append(lines, r.String()))
}

// without returns the file's text without rule n (from 1).
func (s *Set) without(n int) []byte {
	i := s.at[n-1]
	lines := append(append([]string(nil), s.lines[:i]...), s.lines[i+1:]...)
	return join(lines)
}

// replacing returns the file with rule n's line written as r.
func (s *Set) replacing(n int, r Rule) []byte {
	lines := append([]string(nil), s.lines...)
	lines[s.at[n-1]] = r.String()
	return join(lines)
}

// linesOrHeader returns a copy of the file's lines, or the header's for a
// file without any.
func (s *Set) linesOrHeader() []string {
	if s == nil || len(s.lines) == 0 {
		return append(strings.Split(strings.TrimSuffix(header, "\n"), "\n"), "")
	}
	return append([]string(nil), s.lines...)
}

func join(lines []string) []byte {
	return []byte(strings.Join(lines, "\n") + "\n")
}

// messageOf is an error's message without its code.
func messageOf(err error) string {
	var e *interaction.Error
	if errors.As(err, &e) {
		return e.Message
	}
	return err.Error()
}
