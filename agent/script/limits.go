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
	f, err := os.Open(path)
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
	var (
		flow    int     // open flow collections
		indents []int   // columns of the open block collections, increasing
		quote   byte    // the quote of a quoted scalar open at the line's end
		block   = -2    // while in a block scalar, the column its lines must exceed
		stack   [64]int // indents' first storage
	)
	indents = stack[:0]
	for n := 1; len(data) > 0; n++ {
		// A line ends at "\n", "\r\n" or a lone "\r", as in YAML.
		l := data
		if i := bytes.IndexAny(data, "\r\n"); i >= 0 {
			next := i + 1
			if data[i] == '\r' && next < len(data) && data[next] == '\n' {
				next++
			}
			l, data = data[:i], data[next:]
		} else {
			data = nil
		}
		ind := 0 // the indentation, in spaces
		for ind < len(l) && l[ind] == ' ' {
			ind++
		}
		j := ind // the line's first token
		for j < len(l) && (l[j] == ' ' || l[j] == '\t') {
			j++
		}
		blank := j == len(l) || l[j] == '#'
		i, start := 0, true // start: at the start of a node, where a quote or "[" opens one
		extra := 0          // entries opened inside this line's flow collections
		switch {
		case block > -2 && (blank || ind > block):
			continue // a block scalar's content
		case quote != 0:
			block = -2
			if i = closeQuote(l, 0, quote); i < 0 {
				continue
			}
			quote, i, start = 0, i+1, false
		case flow > 0:
			block = -2
		default:
			block = -2
			if blank {
				continue
			}
			for len(indents) > 0 && indents[len(indents)-1] > ind {
				indents = indents[:len(indents)-1]
			}
			// The line's own column, and one for each "- " or "? " that
			// opens a nested node after it.
			for i = j; ; {
				if len(indents) == 0 || indents[len(indents)-1] < i {
					indents = append(indents, i)
					if len(indents)+flow > limit {
						return n, i + 1, false
					}
				}
				if i+1 < len(l) && (l[i] == '-' || l[i] == '?') && (l[i+1] == ' ' || l[i+1] == '\t') {
					i++
					for i < len(l) && (l[i] == ' ' || l[i] == '\t') {
						i++
					}
					if i < len(l) && l[i] != '#' {
						continue
					}
				}
				break
			}
		}
		// The rest of the line: flow collections, quotes, comments and
		// block scalar headers.
		for ; i < len(l); i++ {
			c := l[i]
			switch {
			case c == ' ' || c == '\t':
				continue
			case c == '#' && (i == 0 || l[i-1] == ' ' || l[i-1] == '\t'):
				i = len(l)
				continue
			case start && (c == '"' || c == '\''):
				if i = closeQuote(l, i+1, c); i < 0 {
					quote, i = c, len(l)
					continue
				}
				start = false
			case start && flow == 0 && (c == '|' || c == '>'):
				// Its lines are those indented past the collection that
				// holds it (not past the column of the scalar itself).
				block = -1
				if k := len(indents) - 1; k >= 0 {
					if indents[k] == i && k > 0 {
						k--
					}
					block = indents[k]
				}
				i = len(l)
				continue
			case start && (c == '&' || c == '!'):
				for i+1 < len(l) && l[i+1] != ' ' && l[i+1] != '\t' && (flow == 0 || !isFlowIndicator(l[i+1])) {
					i++
				}
			case c == '[' || c == '{':
				if !start && flow == 0 {
					start = false // inside a plain scalar of a block: text
					continue
				}
				flow++
				if len(indents)+flow+extra > limit {
					return n, i + 1, false
				}
				start = true
			case (c == ']' || c == '}') && flow > 0:
				flow--
				start = false
			case c == ',' && flow > 0:
				start = true
			case start && (c == '-' || c == '?') && (i+1 == len(l) || l[i+1] == ' ' || l[i+1] == '\t'):
				// An entry opening a nested node after a tag, as in
				// "! - - - x", which the parser takes as lists in lists.
				if flow == 0 {
					indents = append(indents, i)
				} else {
					extra++
				}
				if len(indents)+flow+extra > limit {
					return n, i + 1, false
				}
			case c == ':' && (i+1 == len(l) || l[i+1] == ' ' || l[i+1] == '\t' ||
				flow > 0 && isFlowIndicator(l[i+1])):
				start = true
			default:
				start = false
			}
		}
	}
	return 0, 0, true
}

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
