// Package cell is text as the terminal draws it, cell by cell: how many
// cells a string takes, lines and blocks cut or padded to exactly their
// width, agent text made inert and safe for a column, plain text wrapped,
// Markdown rendered once per width, and the few words every pane writes
// alike (counts, ages, durations). It knows nothing of panes or requests.
//
// The screen is composed from blocks of known size: every line of a block
// is cut or padded to exactly its width once, so blocks join side by side
// and one above the other by plain concatenation. lipgloss's Width, Height
// and Join measure every line of the whole screen again at each step, and
// bubbletea draws after every message, so that measuring was most of each
// frame (see BenchmarkSessionRender).
package cell

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// Width is the number of terminal cells s takes, escape sequences
// ignored. A string of single code points (asktui's own glyphs, most
// text) takes the sum of their widths, which ansi.StringWidthWc measures
// without the grapheme segmentation that ansi.StringWidth spends most of
// its time on; only a string with runes that join a cluster (combining
// marks, joiners, variation selectors, emoji modifiers, flags) takes the
// slow path. TestCellWidthMatchesGraphemes holds the two to the same
// answer.
func Width(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			if clusters(s[i:]) {
				return ansi.StringWidth(s)
			}
			break
		}
	}
	return ansi.StringWidthWc(s)
}

// clusters reports whether s holds a rune that may join another into one
// grapheme cluster of another width: combining marks, joiners and
// selectors anywhere, and, to be safe, any rune of the scripts that
// cluster (Indic to Tibetan, Thai, Lao, Myanmar…: U+0900–U+10FF), of the
// halfwidth forms' sound marks, or beyond the Basic Multilingual Plane
// (emoji, flags, skin tones, historic scripts).
func clusters(s string) bool {
	for _, r := range s {
		switch {
		case r < 0x300:
		case r >= 0x900 && r < 0x1100, r >= 0x10000,
			r >= 0xfe00 && r <= 0xfe0f, // variation selectors
			r == 0xff9e || r == 0xff9f: // halfwidth sound marks
			return true
		case unicode.In(r, unicode.Mn, unicode.Me, unicode.Mc, unicode.Cf):
			return true
		}
	}
	return false
}

// FitLine returns line exactly w cells wide: cut at w, or padded with
// spaces.
func FitLine(line string, w int) string {
	n := Width(line)
	if n > w {
		line = ansi.Truncate(line, w, "")
		n = Width(line)
	}
	if n < w {
		line += strings.Repeat(" ", w-n)
	}
	return line
}

// FitBlock returns s as exactly rows lines of exactly w cells: lines past
// rows are dropped, missing ones are blank.
func FitBlock(s string, w, rows int) []string {
	out := make([]string, 0, rows)
	for line := range strings.SplitSeq(s, "\n") {
		if len(out) == rows {
			break
		}
		out = append(out, FitLine(line, w))
	}
	blank := strings.Repeat(" ", max(w, 0))
	for len(out) < rows {
		out = append(out, blank)
	}
	return out
}

// LineCount is the number of lines of s, as lipgloss.Height counts them.
func LineCount(s string) int { return strings.Count(s, "\n") + 1 }

// NameColumn is the most columns the agents' name column takes: long
// enough to tell "Project scaffolder" from "Project reviewer".
const NameColumn = 20
