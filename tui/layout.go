package tui

import (
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// The screen is composed from blocks of known size: every line of a block
// is cut or padded to exactly its width once, so blocks join side by side
// and one above the other by plain concatenation. lipgloss's Width, Height
// and Join measure every line of the whole screen again at each step, and
// bubbletea draws after every message, so that measuring was most of each
// frame (see BenchmarkSessionRender).

// cellWidth is the number of terminal cells s takes, escape sequences
// ignored. ASCII text takes the wide-character count, which equals the
// grapheme count there and skips the grapheme segmentation that
// ansi.StringWidth spends most of its time on.
func cellWidth(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return ansi.StringWidth(s)
		}
	}
	return ansi.StringWidthWc(s)
}

// fitLine returns line exactly w cells wide: cut at w, or padded with
// spaces.
func fitLine(line string, w int) string {
	n := cellWidth(line)
	if n > w {
		line = ansi.Truncate(line, w, "")
		n = cellWidth(line)
	}
	if n < w {
		line += strings.Repeat(" ", w-n)
	}
	return line
}

// fitBlock returns s as exactly rows lines of exactly w cells: lines past
// rows are dropped, missing ones are blank.
func fitBlock(s string, w, rows int) []string {
	out := make([]string, 0, rows)
	for line := range strings.SplitSeq(s, "\n") {
		if len(out) == rows {
			break
		}
		out = append(out, fitLine(line, w))
	}
	blank := strings.Repeat(" ", max(w, 0))
	for len(out) < rows {
		out = append(out, blank)
	}
	return out
}

// lineCount is the number of lines of s, as lipgloss.Height counts them.
func lineCount(s string) int { return strings.Count(s, "\n") + 1 }
