package tui

import (
	"strings"
	"unicode"
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
// ignored. A string of single code points (asktui's own glyphs, most
// text) takes the sum of their widths, which ansi.StringWidthWc measures
// without the grapheme segmentation that ansi.StringWidth spends most of
// its time on; only a string with runes that join a cluster (combining
// marks, joiners, variation selectors, emoji modifiers, flags) takes the
// slow path. TestCellWidthMatchesGraphemes holds the two to the same
// answer.
func cellWidth(s string) int {
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

// frame is the geometry of the screen's body: where the question panel,
// the inbox and the activity pane go.
type frame struct {
	wide           bool // session columns side by side
	panelW, panelH int  // the question panel
	sideW          int  // the left column (wide session)
	inboxRows      int  // rows of the inbox block, title included (0 = hidden)
	activityRows   int  // rows of the activity pane under the panel (narrow session)
}

// Session layout: side by side from wideFrom columns, the question panel
// a little over half the width, between minPanelW and maxPanelW (longer
// lines read badly), and the activity column the rest, at least minSideW
// (tool calls stay readable).
const (
	wideFrom  = 120
	minPanelW = 60
	maxPanelW = 96
	minSideW  = 48
)

// frame lays out the body. With nothing waiting, the activity takes the
// whole body. Narrow screens stack the inbox, the panel and the activity;
// the panel keeps its room first, the inbox and activity get what is
// left.
func (m *model) frame() frame {
	w, h := m.contentWidth(), m.bodyHeight()
	f := frame{panelW: w, panelH: h}
	waiting := len(m.requests)
	if m.kind != kindSession || waiting == 0 {
		return f
	}
	if m.width >= wideFrom {
		f.wide = true
		f.panelW = min(max(w*11/20, minPanelW), maxPanelW, w-3-minSideW)
		f.sideW = w - 3 - f.panelW // " │ "
		f.inboxRows = min(waiting+1, max(h/3, 3))
		if waiting+1 > f.inboxRows {
			f.inboxRows = max(f.inboxRows, 3) // title, a row, the "more" line
		}
		return f
	}
	used := 0
	if waiting > 1 && h >= 14 {
		f.inboxRows = min(waiting+1, 4)
		if waiting+1 > f.inboxRows {
			f.inboxRows++ // the "more" line
		}
		used += f.inboxRows + 1 // and a gap
	}
	rest := h - used
	f.panelH = max(rest, 1)
	if rest >= 20 {
		// The panel takes the rows it needs (at least half), the
		// activity the rest.
		r := m.activeRequest()
		need := max(m.layoutFit(r, w, rest, true).used(), rest/2)
		if spare := rest - need - 1; spare >= 5 {
			f.activityRows = spare
			f.panelH = need
		}
	}
	return f
}

// panelSize is the question panel's size on this screen: what the panel
// is drawn in and what its form is sized for, which must agree, or the
// form draws rows the panel cuts off (an Other row below the list, with
// no mark that it is there).
func (m *model) panelSize() (w, h int) {
	if m.kind == kindRun {
		w, h = m.contentWidth(), m.bodyHeight()
		_, h = m.runPanelRows(w, h)
		return w, h
	}
	f := m.frame()
	return f.panelW, f.panelH
}

// contentWidth is the screen's width inside its one-column margins.
func (m *model) contentWidth() int {
	if m.embedded {
		return max(m.width, 1)
	}
	return max(m.width-2, 1)
}
