// Package sanitize makes untrusted text, such as what an agent asks, inert
// for a terminal. It holds asktui's one definition of the characters that
// are dangerous to print (controls, C1, bidirectional formatting) and two
// policies built on it:
//
//   - [Strip] and [StripLine], for the screen: escape sequences are removed
//     whole and leave a mark (␛), controls become visible stand-ins, tabs
//     are expanded;
//   - [Visible], for what a human approves (a command, a path): nothing is
//     removed, every character that acts or does not show is replaced by
//     a visible stand-in;
//   - [Replace], for plain-text output such as `asktui history`: every
//     control shows as U+FFFD, so the reader sees that something was there.
//
// It imports only the standard library, so the interaction tree (history
// included) can use it.
package sanitize

import (
	"fmt"
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
// reorder what the human reads, and so that what it took out stays
// visible: text on either side of a removed sequence is never joined up
// as if nothing had been between.
//
// It replaces:
//   - escape sequences, whole, with [Mark] (␛): CSI, OSC, DCS, SOS, PM and
//     APC strings and two-byte ESC sequences, whether introduced by ESC
//     (7-bit) or by the C1 code points U+0080–U+009F (8-bit), including an
//     unterminated sequence at the end of the text, which swallows the
//     rest as a terminal would (see [StripEscapes]);
//   - C0 controls except newline and tab with their control pictures
//     (U+2400–U+241F: BEL is ␇), DEL with ␡, and the other C1 controls and
//     the bidirectional controls ([IsBidiControl]) with their code in the
//     form \u202e ([Visible]); "\r\n" becomes "\n" without a mark;
//   - a tab with spaces up to the next multiple of [TabWidth] columns,
//     measured in terminal cells by width from the start of the line (nil
//     width counts one cell per character).
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

// Mark is what [Strip] leaves where it removed an escape sequence: U+241B
// SYMBOL FOR ESCAPE.
const Mark = "␛"

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
	// then replace the sequences, then mark what is left of the controls
	// and expand tabs.
	return markControls(stripEscapes(sevenBit(s), Mark), oneLine, width)
}

// Visible shows s exactly, for approving a command, a path or an
// argument: every character that would act on a terminal or not show at
// all is replaced by a visible stand-in, and nothing else changes. C0
// controls but newline and tab become their control pictures (ESC is ␛,
// CR ␍), DEL ␡; C1 controls, bidirectional controls and characters that
// take no room (zero-width spaces and joiners, word joiners, the byte
// order mark, soft hyphens, tag characters) become their code, as \u009b
// or \U000e0041; an invalid byte becomes \xff. The stand-ins of C1 and
// the invisible characters are JSON's own escapes, so a JSON text stays
// valid JSON with the same meaning.
func Visible(s string) string {
	clean := true
	for _, r := range s {
		if r == utf8.RuneError || needsStandIn(r) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b.WriteString(`\x`)
			b.WriteString(hex2(s[i]))
		case needsStandIn(r):
			b.WriteString(standIn(r))
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// needsStandIn reports whether Visible replaces r.
func needsStandIn(r rune) bool {
	return r != '\n' && r != '\t' && IsControl(r) || IsBidiControl(r) || IsInvisible(r)
}

// standIn is the visible stand-in of r, a control or invisible character.
func standIn(r rune) string {
	switch {
	case r < 0x20:
		return string(0x2400 + r)
	case r == 0x7f:
		return "␡"
	case r > 0xffff:
		return fmt.Sprintf(`\U%08x`, r)
	}
	return fmt.Sprintf(`\u%04x`, r)
}

func hex2(c byte) string {
	const digits = "0123456789abcdef"
	return string([]byte{digits[c>>4], digits[c&0xf]})
}

// IsInvisible reports whether r takes no room on screen and is no
// control: the soft hyphen, the combining grapheme joiner, the zero-width
// space, non-joiner and joiner (U+200B–U+200D), the line and paragraph
// separators, the word joiner and invisible operators (U+2060–U+2064), the
// Hangul fillers, the Mongolian vowel separator, the byte order mark, the
// interlinear annotation characters and the tag characters
// (U+E0000–U+E007F). In a command they hide what runs.
func IsInvisible(r rune) bool {
	switch {
	case r == 0xad, r == 0x34f, r == 0x115f, r == 0x1160, r == 0x180e, r == 0x3164, r == 0xfeff, r == 0xffa0:
		return true
	case 0x200b <= r && r <= 0x200d, r == 0x2028, r == 0x2029, 0x2060 <= r && r <= 0x2064:
		return true
	case 0xfff9 <= r && r <= 0xfffb, 0xe0000 <= r && r <= 0xe007f:
		return true
	}
	return false
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

// markControls marks the controls that survive StripEscapes, expands
// tabs, turns "\n" into a space when oneLine, and re-checks the UTF-8.
func markControls(s string, oneLine bool, width func(string) int) string {
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
		case r == '\r' && strings.HasPrefix(s[i+1:], "\n"):
			// "\r\n" is a line break.
		case r == utf8.RuneError && size == 1:
			b.WriteRune(utf8.RuneError)
		case IsControl(r) || IsBidiControl(r):
			b.WriteString(standIn(r))
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
