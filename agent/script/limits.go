package script

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
)

// Bounds on a scenario file, checked before the YAML parser sees it: the
// parser's time and memory grow with the square of the nesting depth (a
// 400 KB file of nested brackets took it past 24 GB), so a file that is
// too big or nests too deeply is refused outright.
const (
	// MaxFileBytes is the largest scenario file [Parse] and [Load] accept:
	// 256 KiB, twenty times the largest embedded scenario. The YAML parser
	// allocates about 400 bytes per byte of such a file.
	MaxFileBytes = 256 << 10
	// MaxNesting is the deepest nesting of lists and mappings, block or
	// flow, that a scenario file may have. Thirty nested when steps with
	// tool arguments sixty levels deep stay well within it.
	MaxNesting = 256
)

// The errors a [ParseError] wraps when a file is over a bound; test them
// with errors.Is.
var (
	// ErrTooLarge: the file is larger than [MaxFileBytes].
	ErrTooLarge = errors.New("scenario file too large")
	// ErrTooDeep: the file nests lists and mappings deeper than
	// [MaxNesting].
	ErrTooDeep = errors.New("scenario file nests too deeply")
)

// readScenario reads the file at path, refusing one larger than
// MaxFileBytes without reading all of it.
func readScenario(path string) ([]byte, error) {
	f, err := os.Open(path) //nolint:gosec // the scenario file the user named
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }() // read only: nothing was written to lose
	return io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
}

// checkBounds refuses a file over MaxFileBytes or nested deeper than
// MaxNesting, before any parsing.
func checkBounds(label string, data []byte) *ParseError {
	if len(data) > MaxFileBytes {
		return &ParseError{Scenario: label, Err: ErrTooLarge,
			Msg: fmt.Sprintf("the file is %d bytes, over the limit of %d bytes (%d KiB); split it into several scenarios",
				len(data), MaxFileBytes, MaxFileBytes>>10)}
	}
	if line, col, ok := nestedWithin(data, MaxNesting); !ok {
		return &ParseError{Scenario: label, Line: line, Column: col, Err: ErrTooDeep,
			Msg: fmt.Sprintf("lists and mappings nest more than %d deep; flatten the file", MaxNesting)}
	}
	return nil
}

// nestedWithin reports whether the YAML in data nests its collections at
// most limit deep, and if not, the line and column where it first goes
// deeper. It runs in one pass without allocating per byte, and may
// overestimate the depth of odd but valid files (a multi-line plain
// scalar's continuation lines count as a level), never underestimate it
// by more than half (a block list indented as far as its parent key).
//
// It counts open flow collections ("[" and "{" outside quoted scalars and
// comments) plus the block collections open at the line: the columns of
// its indentation and of each "- " or "? " entry that starts a nested node
// on the line, as in "- - - x". Block scalars ("|" and ">") are skipped.
func nestedWithin(data []byte, limit int) (line, col int, ok bool) {
	s := &nestScan{limit: limit, block: -2}
	s.indents = s.stack[:0]
	for n := 1; len(data) > 0; n++ {
		var l []byte
		l, data = cutLine(data)
		if i, ok := s.line(l); !ok {
			return n, i + 1, false
		}
	}
	return 0, 0, true
}

// nestScan is the state of nestedWithin's scan.
type nestScan struct {
	limit   int
	flow    int     // open flow collections
	indents []int   // columns of the open block collections, increasing
	quote   byte    // the quote of a quoted scalar open at the line's end
	block   int     // while in a block scalar, the column its lines must exceed; else -2
	extra   int     // entries opened inside this line's flow collections
	start   bool    // at the start of a node, where a quote or "[" opens one
	stack   [64]int // indents' first storage
}

// cutLine splits off data's first line, which ends at "\n", "\r\n" or a
// lone "\r", as in YAML.
func cutLine(data []byte) (line, rest []byte) {
	i := bytes.IndexAny(data, "\r\n")
	if i < 0 {
		return data, nil
	}
	next := i + 1
	if data[i] == '\r' && next < len(data) && data[next] == '\n' {
		next++
	}
	return data[:i], data[next:]
}

// line scans one line. When the nesting goes deeper than the limit it
// returns the index where, and false.
func (s *nestScan) line(l []byte) (int, bool) {
	ind := 0 // the indentation, in spaces
	for ind < len(l) && l[ind] == ' ' {
		ind++
	}
	j := ind // the line's first token
	for j < len(l) && isSpace(l[j]) {
		j++
	}
	blank := j == len(l) || l[j] == '#'
	if s.block > -2 && (blank || ind > s.block) {
		return 0, true // a block scalar's content
	}
	s.block, s.start, s.extra = -2, true, 0
	i := 0
	switch {
	case s.quote != 0:
		if i = closeQuote(l, 0, s.quote); i < 0 {
			return 0, true
		}
		s.quote, i, s.start = 0, i+1, false
	case s.flow > 0:
	case blank:
		return 0, true
	default:
		var ok bool
		if i, ok = s.blockEntries(l, ind, j); !ok {
			return i, false
		}
	}
	// The rest of the line: flow collections, quotes, comments and block
	// scalar headers.
	for ; i < len(l); i++ {
		var ok bool
		if i, ok = s.char(l, i); !ok {
			return i, false
		}
	}
	return 0, true
}

// blockEntries closes the block collections that a line indented by ind
// ends, and opens those it starts: one at its first token, at j, and one
// for each "- " or "? " that opens a nested node after it. It returns
// where the rest of the line starts, or where the nesting went too deep
// and false.
func (s *nestScan) blockEntries(l []byte, ind, j int) (int, bool) {
	for len(s.indents) > 0 && s.indents[len(s.indents)-1] > ind {
		s.indents = s.indents[:len(s.indents)-1]
	}
	for i := j; ; {
		if len(s.indents) == 0 || s.indents[len(s.indents)-1] < i {
			s.indents = append(s.indents, i)
			if !s.within() {
				return i, false
			}
		}
		if i+1 >= len(l) || !entryAt(l, i) {
			return i, true
		}
		i++
		for i < len(l) && isSpace(l[i]) {
			i++
		}
		if i == len(l) || l[i] == '#' {
			return i, true
		}
	}
}

// char scans the byte at l[i], after the line's block entries. It returns
// the index of the last byte it took, or where the nesting went too deep
// and false.
func (s *nestScan) char(l []byte, i int) (int, bool) {
	c := l[i]
	switch {
	case isSpace(c):
	case c == '#' && (i == 0 || isSpace(l[i-1])):
		return len(l), true // a comment
	case s.start && (c == '"' || c == '\''):
		if i = closeQuote(l, i+1, c); i < 0 {
			s.quote = c
			return len(l), true
		}
		s.start = false
	case s.start && s.flow == 0 && (c == '|' || c == '>'):
		s.blockScalar(i)
		return len(l), true
	case s.start && (c == '&' || c == '!'):
		return s.property(l, i), true
	case c == '[' || c == '{':
		if !s.start && s.flow == 0 {
			return i, true // inside a plain scalar of a block: text
		}
		s.flow++
		s.start = true
		return i, s.within()
	case (c == ']' || c == '}') && s.flow > 0:
		s.flow--
		s.start = false
	case c == ',' && s.flow > 0:
		s.start = true
	case s.start && entryAt(l, i):
		// An entry opening a nested node after a tag, as in "! - - - x",
		// which the parser takes as lists in lists.
		if s.flow == 0 {
			s.indents = append(s.indents, i)
		} else {
			s.extra++
		}
		return i, s.within()
	case c == ':' && (i+1 == len(l) || isSpace(l[i+1]) || s.flow > 0 && isFlowIndicator(l[i+1])):
		s.start = true
	default:
		s.start = false
	}
	return i, true
}

// within reports whether the collections open are within the limit.
func (s *nestScan) within() bool { return len(s.indents)+s.flow+s.extra <= s.limit }

// blockScalar notes the header of a block scalar ("|" or ">") at column
// i: its lines are those indented past the collection that holds it (not
// past the column of the scalar itself).
func (s *nestScan) blockScalar(i int) {
	s.block = -1
	k := len(s.indents) - 1
	if k < 0 {
		return
	}
	if s.indents[k] == i && k > 0 {
		k--
	}
	s.block = s.indents[k]
}

// property returns the index of the last byte of the anchor or tag that
// starts at l[i].
func (s *nestScan) property(l []byte, i int) int {
	for i+1 < len(l) && !isSpace(l[i+1]) && (s.flow == 0 || !isFlowIndicator(l[i+1])) {
		i++
	}
	return i
}

// entryAt reports whether l[i] is "-" or "?" followed by a space, a tab or
// the end of the line: an entry of a block list or mapping.
func entryAt(l []byte, i int) bool {
	return (l[i] == '-' || l[i] == '?') && (i+1 == len(l) || isSpace(l[i+1]))
}

// isSpace reports whether c is a space or a tab.
func isSpace(c byte) bool { return c == ' ' || c == '\t' }

// isFlowIndicator reports whether c ends a plain scalar in a flow
// collection.
func isFlowIndicator(c byte) bool {
	return c == ',' || c == '[' || c == ']' || c == '{' || c == '}'
}

// closeQuote returns the index of the quote q that closes a quoted scalar
// in l at or after i, or -1 when it stays open past the line.
func closeQuote(l []byte, i int, q byte) int {
	for ; i < len(l); i++ {
		switch {
		case q == '"' && l[i] == '\\':
			i++
		case l[i] == q && q == '\'' && i+1 < len(l) && l[i+1] == '\'':
			i++
		case l[i] == q:
			return i
		}
	}
	return -1
}
