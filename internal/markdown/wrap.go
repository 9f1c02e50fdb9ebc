package markdown

import (
	"io"
	"strings"
	"unicode"
	"unicode/utf8"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/asktui/asktui/styles"
)

// breakMark is the mark at the end of a line where a word wider than the
// line is cut, when the styles give none.
const breakMark = "↩"

// Wrap breaks styled text into lines of at most width cells, each styled
// on its own. It breaks only at spaces (and at the text's own line
// breaks), never inside a word: a command's "--listen-address", a path
// or a URL stays whole, where a wrap that breaks at hyphens would show
// "--listen-" and "address" as if they were two arguments. A word wider
// than the line is cut where the line ends, and the cut is marked at the
// end of the line (st.Markdown.Break, ↩), so that no line reads as a
// word that ends there. Spaces at a break are dropped; the spaces that
// begin the text (code's indentation) are kept.
func Wrap(s string, width int, st *styles.Styles) []string {
	mark := breakMark
	if st != nil {
		if m := st.Markdown.Break.String(); m != "" {
			mark = m
		}
	}
	lines, cut := wrapLines(s, width)
	return marked(lines, cut, mark)
}

// marked is lines with mark at the end of each line that ends inside a
// word.
func marked(lines []string, cut []bool, mark string) []string {
	for i := range lines {
		if i < len(cut) && cut[i] {
			lines[i] += mark
		}
	}
	return lines
}

// token is one piece of styled text: a grapheme of width cells, or an
// escape sequence (width 0).
type token struct {
	s     string
	width int
}

// wrapper builds the lines of wrapMarked.
type wrapper struct {
	width int
	out   strings.Builder // the text, "\n" between its lines
	cut   []bool          // cut[i]: line i ends inside a word
	cur   int             // cells on the line being written

	word   []token // the word being read
	wordW  int
	spaces string // the spaces before it
	spaceW int
	esc    string // escapes read among the spaces: never dropped
	start  bool   // nothing written on this line of the text yet
}

// wrapLines is Wrap without the marks: the lines, and which of them end
// inside a word.
func wrapLines(s string, width int) (lines []string, cut []bool) {
	w := &wrapper{width: max(width, 1), cut: []bool{false}, start: true}
	var state byte
	for len(s) > 0 {
		seq, cells, n, next := ansi.DecodeSequence(s, state, nil)
		state = next
		if n <= 0 {
			break
		}
		s = s[n:]
		r, _ := utf8.DecodeRuneInString(seq)
		switch c := seq[0]; {
		case seq == "\n":
			w.flush()
			w.out.WriteString(w.esc)
			w.esc, w.spaces, w.spaceW = "", "", 0
			w.newline(false)
			w.start = true
		case cells == 0 && (c < ' ' || c >= 0x80 && c <= 0x9f):
			// An escape sequence: it goes with the word it is in, or
			// waits among the spaces for the next one.
			if len(w.word) > 0 {
				w.word = append(w.word, token{seq, 0})
			} else {
				w.esc += seq
			}
		case r == ' ' || unicode.IsSpace(r) && r != '\u00a0':
			w.flush()
			w.spaces += seq
			w.spaceW += cells
		default:
			w.word = append(w.word, token{seq, cells})
			w.wordW += cells
		}
	}
	w.flush()
	w.out.WriteString(w.esc)

	// Each line styled on its own: the pen and any link are closed at
	// the end of a line and opened again at the start of the next.
	var b strings.Builder
	b.Grow(w.out.Len() + w.out.Len()/8)
	ww := lipgloss.NewWrapWriter(&b)
	_, _ = io.WriteString(ww, w.out.String())
	_ = ww.Close()
	return strings.Split(b.String(), "\n"), w.cut
}

// newline ends the line being written; cut says it ends inside a word.
func (w *wrapper) newline(cut bool) {
	w.cut[len(w.cut)-1] = cut
	w.out.WriteByte('\n')
	w.cut = append(w.cut, false)
	w.cur = 0
}

// flush writes the word read, and the spaces before it, where it fits.
func (w *wrapper) flush() {
	if len(w.word) == 0 {
		return
	}
	switch {
	case w.cur+w.spaceW+w.wordW <= w.width:
		w.out.WriteString(w.spaces)
		w.cur += w.spaceW
	case w.wordW <= w.width && !w.start:
		w.newline(false) // the spaces are where the line breaks
	case w.start && w.spaceW < w.width-1:
		// Indentation before a word too wide for the rest of the line:
		// kept, and the word cut after it.
		w.out.WriteString(w.spaces)
		w.cur += w.spaceW
	case !w.start:
		w.newline(false)
	}
	w.out.WriteString(w.esc)
	w.esc, w.spaces, w.spaceW = "", "", 0
	w.start = false
	if w.cur+w.wordW <= w.width {
		for _, t := range w.word {
			w.out.WriteString(t.s)
		}
		w.cur += w.wordW
	} else {
		w.cutWord()
	}
	w.word, w.wordW = w.word[:0], 0
}

// cutWord writes a word wider than the room left on the line, cut into
// pieces that leave a cell for the mark at each cut. A piece holds at
// least one grapheme, so a grapheme wider than the line still goes out,
// alone (and unmarked when the mark does not fit beside it).
func (w *wrapper) cutWord() {
	left := w.wordW // cells of the word not written yet
	for _, t := range w.word {
		if t.width > 0 && w.cur > 0 && w.cur+t.width > w.width-1 && w.cur+left > w.width {
			w.newline(w.cur+1 <= w.width)
		}
		w.out.WriteString(t.s)
		w.cur += t.width
		left -= t.width
	}
}
