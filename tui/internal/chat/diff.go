package chat

import (
	"strconv"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/aymanbagabas/go-udiff"
	"github.com/charmbracelet/x/ansi"

	"github.com/asktui/asktui/interaction/conversation"
	syntax "github.com/asktui/asktui/internal/highlight"
	"github.com/asktui/asktui/styles"
	"github.com/asktui/asktui/tui/internal/cell"
)

// diffContext is the unchanged lines shown around each change.
const diffContext = 3

// diffLine is one line of a diff: its kind, its numbers in the old and
// new file (0 when absent) and its text, highlighted.
type diffLine struct {
	kind     udiff.OpKind
	old, new int
	text     string
	hunk     bool // an "@@" separator between hunks
}

// renderDiff draws a file change, unified or side by side, with line
// numbers, +/- marks and the code highlighted for its language.
func renderDiff(d *conversation.Diff, width int, split bool, st *styles.Styles) []string {
	path := cell.SanitizeLine(d.Path)
	oldText := ""
	if d.Old != nil {
		oldText = cell.Sanitize(*d.Old)
	}
	newText := cell.Sanitize(d.New)
	head := st.Diff.Path.Render(ansi.Truncate(path, max(width-12, 4), "…"))
	if d.Old == nil {
		head += st.Diff.Added.Render(" (new file)")
	}
	lines := diffLines(path, oldText, newText, st)
	out := []string{head}
	if len(lines) == 0 {
		return append(out, st.Diff.Context.Render("no changes"))
	}
	if split && width >= 60 {
		return append(out, sideBySide(lines, width, st)...)
	}
	return append(out, unified(lines, width, st)...)
}

// diffLines computes the diff of old and new as lines, highlighted.
func diffLines(path, oldText, newText string, st *styles.Styles) []diffLine {
	ud, err := udiff.ToUnifiedDiff("a", "b", oldText, udiff.Strings(oldText, newText), diffContext)
	if err != nil {
		return nil
	}
	oldHL := highlight(path, oldText, st)
	newHL := highlight(path, newText, st)
	at := func(hl []string, n int) string {
		if n >= 1 && n <= len(hl) {
			return hl[n-1]
		}
		return ""
	}
	var out []diffLine
	for hi, h := range ud.Hunks {
		if hi > 0 {
			out = append(out, diffLine{hunk: true})
		}
		o, n := h.FromLine, h.ToLine
		for _, l := range h.Lines {
			dl := diffLine{kind: l.Kind}
			switch l.Kind {
			case udiff.Delete:
				dl.old, dl.text = o, at(oldHL, o)
				o++
			case udiff.Insert:
				dl.new, dl.text = n, at(newHL, n)
				n++
			default:
				dl.old, dl.new, dl.text = o, n, at(newHL, n)
				o++
				n++
			}
			out = append(out, dl)
		}
	}
	return out
}

// unified draws the diff in one column: old and new line numbers, the
// mark, the code.
func unified(lines []diffLine, width int, st *styles.Styles) []string {
	nw := numWidth(lines)
	out := make([]string, 0, len(lines))
	for _, l := range lines {
		if l.hunk {
			out = append(out, st.Diff.Hunk.Render(strings.Repeat("┈", min(width, 40))))
			continue
		}
		num := func(n int) string {
			if n == 0 {
				return strings.Repeat(" ", nw)
			}
			s := strconv.Itoa(n)
			return strings.Repeat(" ", nw-len(s)) + s
		}
		var gutter string
		switch l.kind {
		case udiff.Delete:
			gutter = st.Diff.Removed.Render(num(l.old) + " " + num(0) + " -")
		case udiff.Insert:
			gutter = st.Diff.Added.Render(num(0) + " " + num(l.new) + " +")
		default:
			gutter = st.Diff.LineNo.Render(num(l.old)+" "+num(l.new)) + "  "
		}
		out = append(out, ansi.Truncate(gutter+" "+l.text, width, "…"))
	}
	return out
}

// sideBySide draws the diff in two columns, old on the left and new on
// the right, a change's removed and added lines facing each other.
func sideBySide(lines []diffLine, width int, st *styles.Styles) []string {
	nw := numWidth(lines)
	half := (width - 3) / 2
	cell := func(n int, text string, mark string, style lipgloss.Style) string {
		if n == 0 && text == "" && mark == "" {
			return strings.Repeat(" ", half)
		}
		s := strconv.Itoa(n)
		g := style.Render(strings.Repeat(" ", nw-len(s)) + s + " " + mark)
		return cell.FitLine(ansi.Truncate(g+" "+text, half, "…"), half)
	}
	sep := st.Diff.Hunk.Render(" │ ")
	var out []string
	flush := func(dels, ins []diffLine) {
		for i := 0; i < max(len(dels), len(ins)); i++ {
			left, right := strings.Repeat(" ", half), strings.Repeat(" ", half)
			if i < len(dels) {
				left = cell(dels[i].old, dels[i].text, "-", st.Diff.Removed)
			}
			if i < len(ins) {
				right = cell(ins[i].new, ins[i].text, "+", st.Diff.Added)
			}
			out = append(out, left+sep+right)
		}
	}
	var dels, ins []diffLine
	for _, l := range lines {
		switch {
		case l.hunk:
			flush(dels, ins)
			dels, ins = nil, nil
			out = append(out, st.Diff.Hunk.Render(strings.Repeat("┈", min(width, 40))))
		case l.kind == udiff.Delete:
			if len(ins) > 0 {
				flush(dels, ins)
				dels, ins = nil, nil
			}
			dels = append(dels, l)
		case l.kind == udiff.Insert:
			ins = append(ins, l)
		default:
			flush(dels, ins)
			dels, ins = nil, nil
			out = append(out, cell(l.old, l.text, " ", st.Diff.LineNo)+sep+cell(l.new, l.text, " ", st.Diff.LineNo))
		}
	}
	flush(dels, ins)
	return out
}

// numWidth is the width of the largest line number.
func numWidth(lines []diffLine) int {
	w := 1
	for _, l := range lines {
		w = max(w, len(strconv.Itoa(max(l.old, l.new))))
	}
	return w
}

// highlight colours text as the language path's name suggests, line by
// line; plain text when none does.
func highlight(path, text string, st *styles.Styles) []string {
	return syntax.Lines(syntax.File(path), text, st)
}
