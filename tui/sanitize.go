package tui

import (
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// sanitizeTabWidth is the distance between the tab stops that Sanitize
// expands tabs to.
const sanitizeTabWidth = 4

// Sanitize makes agent-supplied text inert for the terminal, so that a
// question can neither move the cursor, retitle the window, plant a
// hyperlink, query the terminal nor reorder what the human reads.
//
// It removes:
//   - escape sequences, whole: CSI, OSC, DCS, SOS, PM and APC strings and
//     two-byte ESC sequences, whether introduced by ESC (7-bit) or by the C1
//     code points U+0080–U+009F (8-bit), including an unterminated sequence
//     at the end of the text, which swallows the rest as a terminal would;
//   - C0 controls except newline: "\r\n" becomes "\n", a lone "\r" is
//     dropped, and a tab becomes spaces up to the next multiple of 4
//     columns (measured in terminal cells from the start of the line);
//   - DEL and the C1 controls U+0080–U+009F;
//   - the Unicode bidirectional controls U+061C, U+200E, U+200F,
//     U+202A–U+202E and U+2066–U+2069.
//
// Invalid UTF-8 becomes U+FFFD, one per invalid byte. Raw bytes
// 0x80–0x9F are invalid UTF-8, so they too become U+FFFD rather than
// introducing a sequence. Everything else, including emoji and wide CJK
// characters, is kept exactly. Text that needs no change is returned as is,
// without allocating.
//
// Sanitize is idempotent: Sanitize(Sanitize(s)) == Sanitize(s).
func Sanitize(s string) string {
	return sanitize(s, false)
}

// SanitizeLine is [Sanitize] for one-line places such as tab titles and
// inbox rows: newlines become spaces as well.
func SanitizeLine(s string) string {
	return sanitize(s, true)
}

func sanitize(s string, oneLine bool) string {
	if isInert(s, oneLine) {
		return s
	}
	// ansi.Strip parses sequences in their 7-bit form and, in a UTF-8
	// string, leaves C1 code points alone; it also drops invalid bytes
	// silently. So first spell C1 as ESC sequences and mark invalid bytes,
	// then let ansi.Strip remove the sequences, then drop what it keeps
	// (C0 controls, DEL, bidi controls) and expand tabs.
	return sanitizeControls(ansi.Strip(sevenBit(s)), oneLine)
}

// isInert reports whether s is valid UTF-8 with no byte below 0x20 other
// than '\n' (which counts too when oneLine), no DEL, no C1 code point and no
// bidi control.
func isInert(s string, oneLine bool) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 && (c != '\n' || oneLine) || c == 0x7f {
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || isC1(r) || isBidiControl(r) {
			return false
		}
		i += size
	}
	return true
}

// sevenBit returns s with every C1 code point U+0080–U+009F replaced by its
// 7-bit equivalent, ESC followed by the code point minus 0x40 (so U+009B,
// CSI, becomes "\x1b["), and every invalid byte replaced by U+FFFD.
func sevenBit(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b.WriteRune(utf8.RuneError)
		case isC1(r):
			b.WriteByte(ansi.ESC)
			b.WriteByte(byte(r - 0x40))
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// sanitizeControls drops the controls that survive ansi.Strip, expands
// tabs, turns "\n" into a space when oneLine, and re-checks the UTF-8.
func sanitizeControls(s string, oneLine bool) string {
	var b strings.Builder
	b.Grow(len(s))
	col := 0 // cells before seg on the current line
	seg := 0 // start in b of the text not yet counted in col
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '\t':
			col += ansi.StringWidth(b.String()[seg:])
			n := sanitizeTabWidth - col%sanitizeTabWidth
			b.WriteString("    "[:n])
			col += n
			seg = b.Len()
		case r == '\n' && oneLine:
			b.WriteByte(' ')
		case r == '\n':
			b.WriteByte('\n')
			col, seg = 0, b.Len()
		case r == utf8.RuneError && size == 1:
			b.WriteRune(utf8.RuneError)
		case r < 0x20 || r == 0x7f || isC1(r) || isBidiControl(r):
			// Dropped, "\r" included.
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// isC1 reports whether r is a C1 control, U+0080–U+009F.
func isC1(r rune) bool {
	return 0x80 <= r && r <= 0x9f
}

// isBidiControl reports whether r is a Unicode bidirectional formatting
// control: ALM, LRM, RLM, the embeddings and overrides, and the isolates.
func isBidiControl(r rune) bool {
	switch {
	case r == 0x061c, r == 0x200e, r == 0x200f:
		return true
	case 0x202a <= r && r <= 0x202e:
		return true
	case 0x2066 <= r && r <= 0x2069:
		return true
	}
	return false
}
