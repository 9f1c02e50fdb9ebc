package cell

import (
	"strings"
	"unicode"

	"github.com/charmbracelet/x/ansi"

	"github.com/asktui/asktui/internal/sanitize"
)

// Sanitize makes agent-supplied text inert for the terminal: escape
// sequences go and leave a mark (␛), controls and bidirectional controls
// become visible stand-ins, and tabs become spaces to the next multiple
// of 4 cells. It is [sanitize.Strip] with cells measured as the screen
// measures them (ansi.StringWidth).
func Sanitize(s string) string {
	return sanitize.Strip(s, ansi.StringWidth)
}

// SanitizeLine is [Sanitize] for one-line places such as tab titles and
// inbox rows: newlines become spaces as well.
func SanitizeLine(s string) string {
	return sanitize.StripLine(s, ansi.StringWidth)
}

// DisplayLine makes an agent-supplied name or header safe to draw in a
// column: SanitizeLine, then reduced to characters every terminal draws
// at the same width. Terminals disagree on the width of a ZWJ emoji
// sequence, a skin-tone modifier, a variation selector or a combining
// mark (tmux 3.3 draws each part on its own, most newer terminals draw
// the cluster), so one agent's "👩‍💻" would shift another agent's column
// border. Those joiners and modifiers are dropped: the ZWJ family becomes
// its members side by side, which every terminal measures alike.
func DisplayLine(s string) string {
	s = SanitizeLine(s)
	if isPlainASCII(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		if widthAmbiguous(r) {
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// widthAmbiguous reports whether terminals draw r at different widths
// depending on how they cluster graphemes.
func widthAmbiguous(r rune) bool {
	switch {
	case r == 0x200d: // zero-width joiner
		return true
	case r >= 0x1f3fb && r <= 0x1f3ff: // emoji skin-tone modifiers
		return true
	case r >= 0xe0000 && r <= 0xe007f: // tag characters (subdivision flags)
		return true
	}
	// Variation selectors and combining marks (Mn, Me), and format
	// characters such as zero-width spaces (Cf).
	return unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf)
}

func isPlainASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
