package hook

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The markers of Codex's apply_patch format, spelled as its parser
// (openai/codex codex-rs/apply-patch/src/parser.rs) spells them.
const (
	patchBegin  = "*** Begin Patch"
	patchEnd    = "*** End Patch"
	patchAdd    = "*** Add File: "
	patchDelete = "*** Delete File: "
	patchUpdate = "*** Update File: "
	patchMove   = "*** Move to: "
	patchEOF    = "*** End of File"
)

// patchPaths are the files a Codex apply_patch patch adds, deletes,
// updates or moves to, read as Codex's parser (parse_patch, in its
// lenient mode) reads them: a hunk header with the Unicode white space
// around it trimmed (" *** Add File: x" adds x), a "*** Move to: " line
// only right under an Update header, untrimmed. nil, so that no rule
// allows the patch, when Codex would reject it or it names no file; when
// a path is empty, has white space at an end or a control or format
// character in it; and when a line that starts with "***" once invisible
// characters are stripped (at its start, or after a line break Rust does
// not split at) is not a marker where it stands, such as a header hidden
// as a context line.
func patchPaths(patch string) []string {
	// Rust's str::trim and char::is_whitespace are the Unicode
	// White_Space property, as are strings.TrimSpace and unicode.IsSpace.
	body, ok := patchBody(rustLines(strings.TrimSpace(patch)))
	if !ok {
		return nil
	}
	p := patchParser{lines: body, marker: make([]bool, len(body))}
	for p.i < len(body) {
		if !p.hunk() {
			return nil
		}
	}
	for i, l := range body {
		if !p.marker[i] && hidesMarker(l) {
			return nil
		}
	}
	var out []string
	for _, path := range p.paths {
		if !plainPath(path) {
			return nil
		}
		if !slices.Contains(out, path) {
			out = append(out, path)
		}
	}
	return out
}

// rustLines splits s as Rust's str::lines does: at "\n", each line's
// "\r" before it taken off; a lone "\r" splits nothing. s is trimmed, so
// it does not end in a line break.
func rustLines(s string) []string {
	if s == "" {
		return nil
	}
	lines := strings.Split(s, "\n")
	for i := range lines[:len(lines)-1] {
		lines[i] = strings.TrimSuffix(lines[i], "\r")
	}
	return lines
}

// patchBody is what lies between "*** Begin Patch" and "*** End Patch"
// (each compared trimmed), the whole of lines or, in Codex's lenient
// mode, inside a here-document's lines (<<EOF, <<'EOF' or <<"EOF" as
// the first line, one ending in EOF as the last), which some models send
// as the patch; false when Codex would reject the envelope.
func patchBody(lines []string) ([]string, bool) {
	if body, ok := patchEnvelope(lines); ok {
		return body, true
	}
	// (Codex also wants four lines; the envelope inside wants two.)
	if n := len(lines); n >= 2 && (lines[0] == "<<EOF" || lines[0] == "<<'EOF'" || lines[0] == `<<"EOF"`) &&
		strings.HasSuffix(lines[n-1], "EOF") {
		return patchEnvelope(lines[1 : n-1])
	}
	return nil, false
}

// patchEnvelope is lines without their first line, "*** Begin Patch",
// and last, "*** End Patch"; false when they are not those.
func patchEnvelope(lines []string) ([]string, bool) {
	n := len(lines)
	if n < 2 || strings.TrimSpace(lines[0]) != patchBegin || strings.TrimSpace(lines[n-1]) != patchEnd {
		return nil, false
	}
	return lines[1 : n-1], true
}

// patchParser reads a patch's hunks as Codex's parse_one_hunk and
// parse_update_file_chunk do.
type patchParser struct {
	lines []string
	// i is the next line to read.
	i int
	// marker marks the lines read as a header, a Move to or an End of
	// File.
	marker []bool
	// paths are the files named, in order.
	paths []string
}

// hunk reads one hunk, or reports false where Codex rejects it.
func (p *patchParser) hunk() bool {
	first := strings.TrimSpace(p.lines[p.i])
	if path, ok := strings.CutPrefix(first, patchAdd); ok {
		p.name(path)
		for p.i < len(p.lines) && strings.HasPrefix(p.lines[p.i], "+") {
			p.i++
		}
		return true
	}
	if path, ok := strings.CutPrefix(first, patchDelete); ok {
		p.name(path)
		return true
	}
	path, ok := strings.CutPrefix(first, patchUpdate)
	if !ok {
		return false // not a valid hunk header
	}
	p.name(path)
	if p.i < len(p.lines) {
		// Untrimmed, unlike the header: " *** Move to: x" is no move.
		if to, ok := strings.CutPrefix(p.lines[p.i], patchMove); ok {
			p.name(to)
		}
	}
	chunks := 0
	for p.i < len(p.lines) && !strings.HasPrefix(p.lines[p.i], "*") { // "*": the next hunk
		if strings.TrimSpace(p.lines[p.i]) == "" {
			p.i++
			continue
		}
		if !p.chunk(chunks == 0) {
			return false
		}
		chunks++
	}
	return chunks > 0 // an Update without a chunk is rejected
}

// name records the path named on the current line and moves past it.
func (p *patchParser) name(path string) {
	p.marker[p.i] = true
	p.paths = append(p.paths, path)
	p.i++
}

// chunk reads one chunk of an Update: a "@@" or "@@ context" line (only
// the first chunk may go without), then at least one line that is empty
// or starts with ' ', '+' or '-', and an optional "*** End of File"; it
// ends at the first other line.
func (p *patchParser) chunk(first bool) bool {
	if l := p.lines[p.i]; l == "@@" || strings.HasPrefix(l, "@@ ") {
		p.i++
	} else if !first {
		return false
	}
	n := 0
	for ; p.i < len(p.lines); p.i++ {
		l := p.lines[p.i]
		if l == patchEOF {
			if n == 0 {
				return false
			}
			p.marker[p.i] = true
			p.i++
			return true
		}
		if l != "" && l[0] != ' ' && l[0] != '+' && l[0] != '-' {
			break
		}
		n++
	}
	return n > 0
}

// hidesMarker reports whether l, or a part of it after a line break
// Rust's str::lines does not split at (a lone "\r", a vertical tab, a
// form feed, U+0085, U+2028, U+2029), starts with "***" once stripped of
// invisible characters: a line another reader could take for a header.
func hidesMarker(l string) bool {
	for part := range strings.FieldsFuncSeq(l, func(r rune) bool {
		return r == '\r' || r == '\v' || r == '\f' || r == '\u0085' || r == '\u2028' || r == '\u2029'
	}) {
		if strings.HasPrefix(strings.TrimLeftFunc(part, invisible), "***") {
			return true
		}
	}
	return false
}

// invisible reports whether r shows as nothing or as blank space: white
// space, controls and format characters (zero-width spaces, joiners,
// bidirectional marks, the byte order mark: none is graphic), combining
// marks and the Hangul and Braille blanks. A superset of what Codex
// trims.
func invisible(r rune) bool {
	switch r {
	case '\u115f', '\u1160', '\u2800', '\u3164', '\uffa0':
		return true
	}
	return unicode.IsSpace(r) || !unicode.IsGraphic(r) || unicode.In(r, unicode.Mn, unicode.Me)
}

// plainPath reports whether path, as the patch names it, is one the
// rules can read as Codex will: not empty, no white space at its ends or
// but the plain space inside, no control or format character.
func plainPath(path string) bool {
	if path == "" || !utf8.ValidString(path) || strings.TrimSpace(path) != path {
		return false
	}
	for _, r := range path {
		if (unicode.IsSpace(r) && r != ' ') || unicode.In(r, unicode.Cc, unicode.Cf) {
			return false
		}
	}
	return true
}
