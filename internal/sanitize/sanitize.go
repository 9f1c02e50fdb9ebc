// Package sanitize makes untrusted text, such as what an agent asks, inert
// for a terminal. It holds asktui's one definition of the characters that
// are dangerous to print (controls, C1, bidirectional formatting) and two
// policies built on it:
//
//   - [Strip] and [StripLine], for the screen: escape sequences are removed
//     whole, controls dropped, tabs expanded;
//   - [Replace], for plain-text output such as `asktui history`: every
//     control shows as U+FFFD, so the reader sees that something was there.
//
// It imports only the standard library, so the interaction tree (history
// included) can use it.
package sanitize

import (
	"strings"
	"unicode/utf8"
)

// IsC1 reports whether r is a C1 control, U+0080–U+009F.
func IsC1(r rune) bool {
	return 0x80 <= r && r <= 0x9f
}

// IsControl reports whether r is a C0 control (below U+0020), DEL or a C1
// control.
func IsControl(r rune) bool {
	return r < 0x20 || r == 0x7f || IsC1(r)
}

// IsBidiControl reports whether r is a Unicode bidirectional formatting
// control, which can make text read differently from what it is: ALM
// (U+061C), LRM and RLM (U+200E, U+200F), the embeddings and overrides
// (U+202A–U+202E) and the isolates (U+2066–U+2069).
func IsBidiControl(r rune) bool {
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

// TabWidth is the distance between the tab stops that [Strip] expands tabs
// to.
const TabWidth = 4

// Strip makes s inert for the terminal, so that it can neither move the
// cursor, retitle the window, plant a hyperlink, query the terminal nor
// reorder what the human reads.
//
// It removes:
//   - escape sequences, whole: CSI, OSC, DCS, SOS, PM and APC strings and
//     two-byte ESC sequences, whether introduced by ESC (7-bit) or by the C1
//     code points U+0080–U+009F (8-bit), including an unterminated sequence
//     at the end of the text, which swallows the rest as a terminal would
//     (see [StripEscapes]);
//   - C0 controls except newline: "\r\n" becomes "\n", a lone "\r" is
//     dropped, and a tab becomes spaces up to the next multiple of
//     [TabWidth] columns, measured in terminal cells by width from the
//     start of the line (nil width counts one cell per character);
//   - DEL and the C1 controls;
//   - the bidirectional controls ([IsBidiControl]).
//
// Invalid UTF-8 becomes U+FFFD, one per invalid byte. Raw bytes
// 0x80–0x9F are invalid UTF-8, so they too become U+FFFD rather than
// introducing a sequence. Everything else, including emoji and wide CJK
// characters, is kept exactly. Text that needs no change is returned as is,
// without allocating.
//
// Strip is idempotent: Strip(Strip(s)) == Strip(s).
func Strip(s string, width func(string) int) string {
	return strip(s, false, width)
}

// StripLine is [Strip] for one-line places such as tab titles and inbox
// rows: newlines become spaces as well.
func StripLine(s string, width func(string) int) string {
	return strip(s, true, width)
}

func strip(s string, oneLine bool, width func(string) int) string {
	if isInert(s, oneLine) {
		return s
	}
	if width == nil {
		width = utf8.RuneCountInString
	}
	// StripEscapes parses sequences in their 7-bit form and, in a UTF-8
	// string, leaves C1 code points alone; it also drops invalid bytes
	// silently. So first spell C1 as ESC sequences and mark invalid bytes,
	// then remove the sequences, then drop what is left of the controls
	// and expand tabs.
	return dropControls(StripEscapes(sevenBit(s)), oneLine, width)
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
		if r == utf8.RuneError && size == 1 || IsC1(r) || IsBidiControl(r) {
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
		case IsC1(r):
			b.WriteByte(esc)
			b.WriteByte(byte(r - 0x40)) //nolint:gosec // r is a C1 control, U+0080–U+009F: r - 0x40 is an ASCII byte
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// dropControls drops the controls that survive StripEscapes, expands tabs,
// turns "\n" into a space when oneLine, and re-checks the UTF-8.
func dropControls(s string, oneLine bool, width func(string) int) string {
	var b strings.Builder
	b.Grow(len(s))
	col := 0 // cells before seg on the current line
	seg := 0 // start in b of the text not yet counted in col
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '\t':
			col += width(b.String()[seg:])
			n := TabWidth - col%TabWidth
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
		case IsControl(r) || IsBidiControl(r):
			// Dropped, "\r" included.
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// Replace makes s safe and short for one line of plain-text output: line
// breaks and tabs become spaces; other controls ([IsControl], so every
// escape sequence is broken), bidirectional controls and invalid UTF-8
// become U+FFFD, so the reader sees that something was there; and text
// longer than limit characters is cut with "…" (a limit of 0 or less
// keeps it whole).
func Replace(s string, limit int) string {
	var b strings.Builder
	n := 0
	for _, r := range s { // invalid UTF-8 decodes to U+FFFD
		if limit > 0 && n == limit {
			b.WriteString("…")
			break
		}
		n++
		switch {
		case r == '\n' || r == '\r' || r == '\t':
			b.WriteByte(' ')
		case IsControl(r) || IsBidiControl(r):
			b.WriteRune(utf8.RuneError)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
