package chat

import (
	"bytes"
	"strings"
	"unicode/utf8"

	"github.com/asktui/asktui/tui/internal/cell"
)

// What a streamed text keeps and how it is cut. An agent may send any
// amount of text, in chunks of any size, in a block that never ends (a
// paragraph without a blank line, a code fence never closed): a text item
// keeps only its last maxShownText bytes in memory, the whole going to a
// spill file, and it is cut into blocks of at most about maxBlock bytes,
// each rendered once, so neither a chunk nor a frame ever costs more than
// a block's worth of rendering.
const (
	// maxShownText is the most of one message (or thought) the transcript
	// holds and shows: its end.
	maxShownText = 1 << 20
	// trimSlack is how far past maxShownText a text grows before its
	// front is dropped, so that dropping is rare.
	trimSlack = maxShownText / 4
	// maxBlock is the size past which a block is cut into pieces: at the
	// last line break (or, for a line longer than that, anywhere).
	maxBlock = 4 << 10
	// maxCodeBlock is maxBlock inside a code fence: code is coloured line
	// by line whatever its length, and the open block is drawn again as
	// every chunk comes, so a fence that streams (or never closes) is cut
	// finer; its pieces are drawn as one block of code.
	maxCodeBlock = 1 << 10
	// appendStep is the most appended at once: a huge chunk goes in
	// pieces, so the buffer never holds much more than maxShownText.
	appendStep = 256 << 10
)

// textBlock is a complete block of a text item: a Markdown block (up to a
// blank line outside a code fence), or a piece of a longer one. Its
// rendering is cached for one width.
type textBlock struct {
	start, end int64 // its bytes in the whole text
	gap        bool  // a blank line comes before it (not so for a piece cut from a block)
	fence      string
	open       bool // a code fence is still open at its end: closed for rendering

	width int      // the width of lines, or 0
	lines []string // rendered, for width
	est   int      // its estimated height at estW, while not rendered
	estW  int
}

// textStream is the text of a streamed item: its last bytes (all of them
// while it is short), and the blocks they make.
type textStream struct {
	buf  []byte
	head int64 // bytes of the whole before buf, no longer held

	// file is the spill file holding the whole text, once it outgrew
	// maxShownText (filePath where it is); fileOff is where the text
	// starts in it.
	file     string
	filePath string
	fileOff  int64
	spill    *Spill

	blocks    []textBlock // complete blocks, in order, within [head, committed)
	committed int64       // where the open block starts
	scanned   int64       // lines before this are looked at (>= committed)
	inFence   bool        // a code fence is open at scanned
	midLine   bool        // scanned is inside a line that was cut
	noBreak   int64       // no line break between scanned and this
	fenceLine string      // its opening line
	openFence string      // the fence open at committed, if any
	openGap   bool        // a blank line comes before the open block

	newlines int   // line breaks in buf
	rendered int64 // bytes of the blocks' rendered lines
}

// Len is the length of the whole text.
func (t *textStream) Len() int64 { return t.head + int64(len(t.buf)) }

// kept is the length of the text held.
func (t *textStream) kept() int { return len(t.buf) }

// String is the text held: all of it unless it was trimmed.
func (t *textStream) String() string { return string(t.buf) }

// between is the held text from a to b (absolute offsets).
func (t *textStream) between(a, b int64) string {
	return string(t.buf[a-t.head : b-t.head])
}

// WriteString appends s in pieces of at most appendStep, finding the
// blocks it completes and dropping the front past maxShownText. spill,
// when set, gets every piece once the text has outgrown maxShownText.
func (t *textStream) WriteString(s string, spill func(string)) {
	for len(s) > 0 {
		n := min(len(s), appendStep)
		piece := s[:n]
		s = s[n:]
		t.buf = append(t.buf, piece...)
		t.newlines += strings.Count(piece, "\n")
		if spill != nil && t.file != "" {
			spill(piece)
		}
		t.scan()
		if len(t.buf) > maxShownText+trimSlack {
			t.trim()
		}
	}
}

// isFence reports whether line opens or closes a code fence.
func isFence(line []byte) bool {
	return bytes.HasPrefix(line, []byte("```")) || bytes.HasPrefix(line, []byte("~~~"))
}

// scan finds the blocks the new complete lines end, and cuts the open
// block when it grows past maxBlock.
func (t *textStream) scan() {
	for {
		rel := t.scanned - t.head
		// Look for the line's end only where it was not looked for yet.
		from := max(t.scanned, t.noBreak)
		nl := bytes.IndexByte(t.buf[from-t.head:], '\n')
		end := t.Len() // where the line being looked at ends, so far
		if nl >= 0 {
			end = from + int64(nl)
			nl = int(end - t.scanned)
		} else {
			t.noBreak = t.Len()
		}
		if end-t.committed > 2*maxBlock {
			// A line too long for one block is cut anywhere (on a
			// character boundary); what follows the cut is the rest of
			// the line.
			cut := t.committed + maxBlock
			for cut > t.scanned+1 && !utf8.RuneStart(t.buf[cut-t.head]) {
				cut--
			}
			for cut < end && !utf8.RuneStart(t.buf[cut-t.head]) {
				cut++
			}
			t.commit(cut, false)
			t.scanned, t.midLine = cut, true
			continue
		}
		if nl < 0 {
			return
		}
		line := bytes.TrimSpace(t.buf[rel : rel+int64(nl)])
		lineEnd := end + 1
		whole := !t.midLine
		t.midLine = false
		switch {
		case whole && isFence(line):
			if t.inFence {
				t.inFence = false
			} else {
				t.inFence, t.fenceLine = true, string(line)
			}
		case whole && len(line) == 0 && !t.inFence:
			// A blank line ends the block before it.
			t.commit(t.scanned, true)
			t.committed, t.scanned = lineEnd, lineEnd
			continue
		}
		t.scanned = lineEnd
		if t.scanned-t.committed >= maxBlock || t.inFence && t.scanned-t.committed >= maxCodeBlock {
			t.commit(t.scanned, false)
		}
	}
}

// commit ends the open block at end; ended says it ended at a blank line
// (the next block comes after a gap), not cut.
func (t *textStream) commit(end int64, ended bool) {
	if len(bytes.TrimSpace(t.buf[t.committed-t.head:end-t.head])) > 0 {
		b := textBlock{start: t.committed, end: end, gap: t.openGap && len(t.blocks) > 0, fence: t.openFence}
		if !ended {
			b.open = t.inFence
		}
		t.blocks = append(t.blocks, b)
		t.openGap = false
	}
	if ended {
		t.openGap = true
	}
	t.committed = end
	t.openFence = ""
	if !ended && t.inFence {
		t.openFence = t.fenceLine
	}
}

// trim drops the blocks before the last maxShownText bytes.
func (t *textStream) trim() {
	target := t.Len() - maxShownText
	i := 0
	for i < len(t.blocks) && t.blocks[i].start < target {
		i++
	}
	newHead := t.committed
	if i < len(t.blocks) {
		newHead = t.blocks[i].start
	}
	if newHead <= t.head {
		return
	}
	t.dropRendered(i)
	t.blocks = append(t.blocks[:0], t.blocks[i:]...)
	drop := newHead - t.head
	t.newlines -= bytes.Count(t.buf[:drop], []byte{'\n'})
	n := copy(t.buf, t.buf[drop:])
	t.buf = t.buf[:n]
	if cap(t.buf) > 2*(maxShownText+trimSlack+appendStep) {
		t.buf = append([]byte(nil), t.buf...)
	}
	t.head = newHead
	if len(t.blocks) > 0 {
		t.blocks[0].gap = false
	}
}

// source is the Markdown a block renders: its text, inside its code
// fence when it is a piece of a longer code block.
func (t *textStream) source(start, end int64, fence string, open bool) string {
	text := strings.TrimSpace(t.between(start, end))
	if fence != "" {
		text = fence + "\n" + text
	}
	if open {
		text += "\n" + fenceClose(fence)
	}
	return cell.Sanitize(text)
}

// fenceClose is the line that closes the fence opened by line.
func fenceClose(line string) string {
	if strings.HasPrefix(line, "~") {
		return "~~~"
	}
	return "```"
}

// estimate is the height a block of text would take at width, roughly:
// each line wrapped by its length.
func estimate(text string, width int) int {
	width = max(width, 4)
	n := 0
	for line := range strings.SplitSeq(strings.TrimSpace(text), "\n") {
		n += max(1, (utf8.RuneCountInString(line)+width-1)/width)
	}
	return n
}

// dropRendered drops the rendered lines of the first n blocks.
func (t *textStream) dropRendered(n int) {
	for i := range t.blocks[:min(n, len(t.blocks))] {
		b := &t.blocks[i]
		t.rendered -= linesBytes(b.lines)
		b.width, b.lines, b.estW = 0, nil, 0
	}
}

// linesBytes is about what rendered lines hold.
func linesBytes(lines []string) int64 {
	n := int64(0)
	for _, l := range lines {
		n += int64(len(l)) + 16
	}
	return n
}
