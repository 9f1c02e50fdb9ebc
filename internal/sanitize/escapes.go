package sanitize

import "strings"

// esc is the escape character, which starts every 7-bit sequence.
const esc = 0x1b

// state is where the parser is within an escape sequence.
type state uint8

// The parser's states, those of the DEC ANSI parser
// (https://vt100.net/emu/dec_ansi_parser) that matter for what is kept.
const (
	ground    state = iota
	escape          // after ESC
	escInter        // ESC and intermediate bytes
	csiEntry        // after CSI
	csiParam        // CSI parameters
	csiInter        // CSI intermediate bytes
	dcsEntry        // after DCS
	dcsParam        // DCS parameters
	dcsInter        // DCS intermediate bytes
	dcsString       // the DCS data string
	oscString       // the OSC string
	sosString       // the SOS, PM or APC string, which end alike
)

// action is what the parser does with a byte besides changing state.
type action uint8

const (
	drop action = iota // consume the byte
	keep               // keep the byte: printable, or a control executed in place
	char               // keep a UTF-8 lead byte and the continuation bytes it announces
)

// StripEscapes removes escape sequences from s the way a VT500-series
// terminal's parser reads them, byte by byte, and keeps everything else:
// text, and the controls a terminal would execute (C0 controls, DEL, and
// raw 8-bit C1 bytes that start no sequence). It is what
// github.com/charmbracelet/x/ansi's Strip did for asktui, byte for byte
// (the tui package's tests check that), in a parser of its own:
//
//   - CSI (ESC [ or the byte 0x9B): parameters and intermediates up to a
//     final byte;
//   - OSC (ESC ] or 0x9D): a string ended by BEL, ST (ESC \ or 0x9C), CAN
//     or SUB;
//   - DCS (ESC P or 0x90): parameters, intermediates and a data string
//     ended by ST, CAN or SUB;
//   - SOS, PM and APC (ESC X, ESC ^, ESC _ or 0x98, 0x9E, 0x9F): a string
//     ended by ST, CAN or SUB;
//   - any other ESC with its intermediates and final byte.
//
// An unterminated sequence at the end swallows the rest of s. Inside OSC
// and DCS strings bytes are consumed whole, UTF-8 or not; elsewhere a
// UTF-8 lead byte (0xC2–0xF4) is kept with the continuation bytes it
// announces and ends any sequence, and other bytes of 0xA0 and above are
// dropped. Strip applies it to text whose C1 code points it has already
// spelt in their 7-bit form.
func StripEscapes(s string) string { return stripEscapes(s, "") }

// stripEscapes is StripEscapes that writes mark where each sequence it
// removes began.
func stripEscapes(s, mark string) string {
	var b strings.Builder
	b.Grow(len(s))
	st := ground
	for i := 0; i < len(s); i++ {
		c := s[i]
		next, act := transition(st, c)
		if st == ground && next != ground {
			b.WriteString(mark)
		}
		switch act {
		case keep:
			b.WriteByte(c)
		case char:
			n := min(utf8Len(c), len(s)-i)
			b.WriteString(s[i : i+n])
			i += n - 1
		case drop:
			// part of an escape sequence, or a stray byte: left out
		}
		st = next
	}
	return b.String()
}

// utf8Len is the length of the UTF-8 sequence that lead byte c (0xC2–0xF4)
// announces.
func utf8Len(c byte) int {
	switch {
	case c >= 0xf0:
		return 4
	case c >= 0xe0:
		return 3
	}
	return 2
}

// isC0 reports whether c is one of the C0 controls a parser executes (or
// ignores) in place: all but CAN, SUB and ESC, which end sequences.
func isC0(c byte) bool {
	return c < 0x20 && c != 0x18 && c != 0x1a && c != esc
}

// transition is the parser's move from st on byte c.
func transition(st state, c byte) (state, action) {
	var (
		next state
		act  action // drop, unless the move says otherwise
		ok   bool
	)
	switch st {
	case ground:
		next, act, ok = ground, keep, c < 0x80 && c != 0x18 && c != 0x1a && c != esc // text, C0 controls and DEL
	case escape, escInter:
		next, act, ok = inEscape(st, c)
	case csiEntry, csiParam, csiInter:
		next, act, ok = inCSI(st, c)
	case dcsEntry, dcsParam, dcsInter:
		next, ok = inDCS(st, c)
	case dcsString, oscString, sosString:
		next, ok = inString(st, c)
	}
	if ok {
		return next, act
	}
	return anywhere(c)
}

// inEscape is the move from escape or escInter on c, if they have one of
// their own.
func inEscape(st state, c byte) (state, action, bool) {
	switch {
	case isC0(c):
		return st, keep, true
	case c == 0x7f:
		return st, drop, true
	case 0x20 <= c && c <= 0x2f:
		return escInter, drop, true
	case st == escInter:
		// only a final byte, below, ends it
	case c == 'P':
		return dcsEntry, drop, true
	case c == 'X' || c == '^' || c == '_':
		return sosString, drop, true
	case c == '[':
		return csiEntry, drop, true
	case c == ']':
		return oscString, drop, true
	}
	if 0x30 <= c && c <= 0x7e {
		return ground, drop, true // the final byte
	}
	return st, drop, false
}

// inCSI is the move within a CSI sequence on c, if it has one of its own.
func inCSI(st state, c byte) (state, action, bool) {
	switch {
	case isC0(c):
		return st, keep, true
	case c == 0x7f:
		return st, drop, true
	case 0x20 <= c && c <= 0x2f:
		return csiInter, drop, true
	case 0x30 <= c && c <= 0x3f && st == csiInter:
		return ground, drop, true // malformed: a parameter after an intermediate
	case 0x30 <= c && c <= 0x3f:
		return csiParam, drop, true
	case 0x40 <= c && c <= 0x7e:
		return ground, drop, true // the final byte
	}
	return st, drop, false
}

// inDCS is the move within a DCS sequence's parameters and intermediates
// on c, if it has one of its own; c is dropped.
func inDCS(st state, c byte) (state, bool) {
	switch {
	case st == dcsEntry && (0x08 <= c && c <= 0x0d || c == esc):
		return dcsString, true
	case isC0(c), c == 0x7f:
		return st, true
	case 0x20 <= c && c <= 0x2f:
		return dcsInter, true
	case 0x30 <= c && c <= 0x3f && st != dcsInter:
		return dcsParam, true
	case 0x30 <= c && c <= 0x7e:
		return dcsString, true
	}
	return st, false
}

// inString is the move within a DCS, OSC, SOS, PM or APC string on c, if
// it has one of its own: every byte but an end (and, in SOS, PM and APC, a
// byte of 0x80 and above) is consumed, and c is dropped.
func inString(st state, c byte) (state, bool) {
	switch {
	case c == esc:
		return escape, true
	case c == 0x9c, c == 0x18, c == 0x1a, c == 0x07 && st == oscString:
		return ground, true // ST, CAN, SUB, and BEL for OSC
	case st != sosString, c < 0x80:
		return st, true
	}
	return st, false
}

// anywhere is the move on c that is the same from every state, unless the
// state has a move of its own.
func anywhere(c byte) (state, action) {
	switch {
	case c == esc:
		return escape, drop
	case c == 0x90:
		return dcsEntry, drop
	case c == 0x98, c == 0x9e, c == 0x9f:
		return sosString, drop
	case c == 0x9b:
		return csiEntry, drop
	case c == 0x9d:
		return oscString, drop
	case c == 0x18, c == 0x1a, 0x80 <= c && c <= 0x9f:
		return ground, keep // CAN, SUB and the other C1 bytes execute
	case 0xc2 <= c && c <= 0xf4:
		return ground, char
	}
	return ground, drop
}
