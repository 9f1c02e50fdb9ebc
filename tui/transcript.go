package tui

import (
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/asktui/asktui/interaction/conversation"
	"github.com/asktui/asktui/styles"
)

// Caps on what an item shows until the human expands it.
const (
	maxToolTextLines = 6
	maxDiffLines     = 24
	maxThoughtLines  = 1
)

// transcript is how one conversation's transcript is shown: where it is
// scrolled to, the item under the cursor (with the focus), and the two
// view toggles.
type transcript struct {
	scroll       int // lines from the bottom; 0 follows the newest
	cursor       int // the item the cursor is on, with the focus
	showThoughts bool
	split        bool // diffs side by side
}

// itemRender caches an item's rendered lines. A streaming text item is
// rendered in two parts: the blocks already complete (Markdown, rendered
// once) and the tail still growing (plain text, its complete lines wrapped
// once), so a chunk costs the size of the chunk, not of the message.
type itemRender struct {
	width int
	opts  string // the view toggles the lines were rendered with
	lines []string
	valid bool

	blocks    []string // rendered lines of the complete blocks
	committed int      // bytes of text in those blocks
	inFence   bool     // a code fence is open at committed
	tail      []string // wrapped complete lines of the tail
	tailDone  int      // bytes of the tail in tail
}

// stale drops the cache: the item changed other than by growing.
func (r *itemRender) stale() { *r = itemRender{} }

// grew marks a streaming item's text longer: only the tail is redone.
func (r *itemRender) grew() { r.valid = false }

// render returns the item's lines at width.
func (it *convItem) render(width int, t *transcript, st *styles.Styles, md *mdRenderer) []string {
	opts := t.optsKey(it)
	r := &it.rendering
	if r.width != width || r.opts != opts {
		r.stale()
		r.width, r.opts = width, opts
	}
	if r.valid {
		return r.lines
	}
	switch it.kind {
	case itemMessage:
		r.lines = it.renderStreaming(width, st, md)
	default:
		r.lines = it.renderWhole(width, t, st, md)
	}
	r.valid = true
	return r.lines
}

// optsKey names the view toggles an item's rendering depends on.
func (t *transcript) optsKey(it *convItem) string {
	var b strings.Builder
	if it.expanded {
		b.WriteByte('e')
	}
	if it.kind == itemThought && t.showThoughts {
		b.WriteByte('t')
	}
	if it.kind == itemTool && t.split {
		b.WriteByte('s')
	}
	return b.String()
}

// renderWhole renders a finished item in full.
func (it *convItem) renderWhole(width int, t *transcript, st *styles.Styles, md *mdRenderer) []string {
	cs := st.Conversation
	switch it.kind {
	case itemUser:
		return prefixLines(wrapPlain(Sanitize(it.text.String()), width-2, cs.User), cs.Prompt.Render("›")+" ", "  ")
	case itemThought:
		lines := wrapPlain(Sanitize(strings.TrimSpace(it.text.String())), width-2, cs.Thought)
		if !t.showThoughts && !it.expanded && len(lines) > maxThoughtLines {
			more := len(lines) - maxThoughtLines
			lines = append(lines[:maxThoughtLines], cs.Status.Render("… "+plural(more, "more line", "more lines")+" of thinking"))
		}
		return prefixLines(lines, cs.Thought.Render("∴")+" ", "  ")
	case itemNotice:
		style := cs.Status
		if it.failed {
			style = st.App.Error
		}
		return wrapPlain("— "+it.text.String(), width, style)
	case itemPlan:
		return renderPlan(it.plan, width, st)
	case itemTool:
		return renderTool(it, width, t, st, md)
	}
	return nil
}

// renderStreaming renders a message block by block: the blocks complete
// are rendered once; while the message streams, its tail is plain text,
// and once it is finished the tail is rendered as the last block.
func (it *convItem) renderStreaming(width int, st *styles.Styles, md *mdRenderer) []string {
	r := &it.rendering
	text := it.text.String()
	// Commit the blocks completed since last time: text up to a blank
	// line outside a code fence.
	start := r.committed
	for start < len(text) {
		end := strings.IndexByte(text[start:], '\n')
		if end < 0 {
			break
		}
		line := text[start : start+end]
		next := start + end + 1
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			r.inFence = !r.inFence
		}
		if strings.TrimSpace(line) == "" && !r.inFence {
			if block := strings.TrimSpace(text[r.committed:start]); block != "" {
				if len(r.blocks) > 0 {
					r.blocks = append(r.blocks, "")
				}
				r.blocks = append(r.blocks, md.Render(Sanitize(block), width)...)
			}
			r.committed = next
			r.tail, r.tailDone = nil, 0
		}
		start = next
	}
	tail := text[r.committed:]
	if it.finished {
		lines := append([]string(nil), r.blocks...)
		if block := strings.TrimSpace(tail); block != "" {
			if len(lines) > 0 {
				lines = append(lines, "")
			}
			lines = append(lines, md.Render(Sanitize(block), width)...)
		}
		return lines
	}
	// The tail: its complete lines wrapped once, its last line each time.
	for {
		end := strings.IndexByte(tail[r.tailDone:], '\n')
		if end < 0 {
			break
		}
		r.tail = append(r.tail, wrapPlain(Sanitize(tail[r.tailDone:r.tailDone+end]), width, st.Conversation.Agent.UnsetBold().Foreground(nil))...)
		r.tailDone += end + 1
	}
	lines := make([]string, 0, len(r.blocks)+len(r.tail)+2)
	lines = append(lines, r.blocks...)
	if len(r.blocks) > 0 && (len(r.tail) > 0 || r.tailDone < len(tail)) {
		lines = append(lines, "")
	}
	lines = append(lines, r.tail...)
	if last := tail[r.tailDone:]; last != "" {
		lines = append(lines, wrapPlain(Sanitize(last), width, st.Question.Text.UnsetBold())...)
	}
	return lines
}

// wrapPlain wraps text to width, styling each line with style.
func wrapPlain(text string, width int, style interface{ Render(...string) string }) []string {
	width = max(width, 4)
	var out []string
	for line := range strings.SplitSeq(text, "\n") {
		for _, w := range strings.Split(ansi.Wrap(line, width, ""), "\n") {
			out = append(out, style.Render(w))
		}
	}
	return out
}

// prefixLines puts first before the first line and rest before the
// others.
func prefixLines(lines []string, first, rest string) []string {
	for i, l := range lines {
		if i == 0 {
			lines[i] = first + l
		} else {
			lines[i] = rest + l
		}
	}
	return lines
}

// renderPlan draws a plan as a checklist.
func renderPlan(plan []conversation.PlanEntry, width int, st *styles.Styles) []string {
	cs := st.Conversation
	lines := []string{cs.Plan.Render("Plan")}
	for _, e := range plan {
		mark, style := "[ ] ", st.Code.Plain
		switch e.Status {
		case "completed":
			mark, style = "[✓] ", cs.Done
		case "in_progress":
			mark, style = "[~] ", cs.ToolRunning
		}
		text := wrapPlain(SanitizeLine(e.Content), width-4, style)
		lines = append(lines, prefixLines(text, mark, "    ")...)
	}
	return lines
}

// toolGlyph marks a tool call's kind.
func toolGlyph(k conversation.ToolKind) string {
	switch k {
	case conversation.ToolRead:
		return "◇"
	case conversation.ToolEdit:
		return "✎"
	case conversation.ToolDelete:
		return "⌫"
	case conversation.ToolMove:
		return "⇄"
	case conversation.ToolSearch:
		return "⌕"
	case conversation.ToolExecute:
		return "$"
	case conversation.ToolThink:
		return "∴"
	case conversation.ToolFetch:
		return "⇣"
	}
	return "⚙"
}

// renderTool draws a tool call: its kind, title and status, where it
// works, and what it shows (text, diffs, terminal output), each capped
// until expanded.
func renderTool(it *convItem, width int, t *transcript, st *styles.Styles, md *mdRenderer) []string {
	tc := it.tool
	cs := st.Conversation
	status := cs.ToolRunning.Render("…")
	switch tc.Status {
	case conversation.ToolPending:
		status = cs.Status.Render("○")
	case conversation.ToolCompleted:
		status = cs.ToolDone.Render("✓")
	case conversation.ToolFailed:
		status = cs.ToolFailed.Render("✗ failed")
	}
	title := SanitizeLine(tc.Title)
	if title == "" {
		title = string(tc.Kind)
	}
	head := cs.Tool.Render(toolGlyph(tc.Kind)+" ") + cs.Tool.Render(ansi.Truncate(title, max(width-6, 4), "…")) + " " + status
	lines := []string{head}
	if len(tc.Locations) > 0 {
		var locs []string
		for _, l := range tc.Locations {
			s := SanitizeLine(l.Path)
			if l.Line > 0 {
				s += ":" + strconv.Itoa(l.Line)
			}
			locs = append(locs, s)
		}
		lines = append(lines, "  "+st.Diff.Context.Render(ansi.Truncate(strings.Join(locs, ", "), width-2, "…")))
	}
	inner := width - 2
	for _, c := range tc.Content {
		var body []string
		limit := maxToolTextLines
		switch {
		case c.Diff != nil:
			body = renderDiff(c.Diff, inner, t.split, st)
			limit = maxDiffLines
		case c.Terminal != nil:
			out := Sanitize(strings.TrimRight(c.Terminal.Output, "\n"))
			if c.Terminal.Command != "" {
				out = "$ " + SanitizeLine(c.Terminal.Command) + "\n" + out
			}
			body = wrapPlain(out, inner, st.Diff.Context)
			if c.Terminal.Exited {
				body = append(body, cs.Status.Render("exit "+strconv.Itoa(c.Terminal.ExitCode)))
			}
		case c.Text != "":
			// A tool's text is its output: lines as they are, not
			// Markdown reflowed into paragraphs.
			body = wrapPlain(Sanitize(strings.TrimRight(c.Text, "\n")), inner, st.Diff.Context)
		}
		if !it.expanded && len(body) > limit {
			more := len(body) - limit
			body = append(body[:limit:limit], cs.Status.Render("… "+plural(more, "more line", "more lines")+" · enter expands"))
		}
		lines = append(lines, prefixLines(body, "  ", "  ")...)
	}
	return lines
}

// transcriptView draws conversation c in width×height: the items, newest
// at the bottom (or scrolled back), the cursor's item marked when focused.
func (c *chat) transcriptView(width, height int, focused bool, st *styles.Styles, md *mdRenderer) []string {
	t := &c.view
	if height <= 0 {
		return nil
	}
	gutter := 0
	if focused {
		gutter = 2
	}
	w := max(width-gutter, 10)
	need := height + t.scroll
	var rev [][]string // item blocks, newest first
	total := 0
	for i := len(c.items) - 1; i >= 0 && total < need; i-- {
		lines := c.items[i].render(w, t, st, md)
		block := make([]string, 0, len(lines)+1)
		mark := "  "
		if focused && i == t.cursor {
			mark = st.Option.Cursor.String() + " "
		}
		for j, l := range lines {
			switch {
			case !focused:
				block = append(block, l)
			case j == 0:
				block = append(block, mark+l)
			default:
				block = append(block, "  "+l)
			}
		}
		if i > 0 {
			block = append([]string{""}, block...)
		}
		rev = append(rev, block)
		total += len(block)
	}
	t.scroll = min(t.scroll, max(total-height, 0))
	all := make([]string, 0, total)
	for i := len(rev) - 1; i >= 0; i-- {
		all = append(all, rev[i]...)
	}
	end := len(all) - t.scroll
	start := max(end-height, 0)
	out := all[start:end]
	if t.scroll > 0 && len(out) > 0 {
		out = append([]string(nil), out...)
		out[len(out)-1] = st.Question.ScrollHint.Render("↓ " + plural(t.scroll, "newer line", "newer lines") + " · end to follow")
	}
	if len(c.items) == 0 {
		return []string{st.App.Empty.Render("Write a prompt for " + c.name + " below.")}
	}
	return out
}

// reveal scrolls so the cursor's item is in view: its bottom no lower
// than the screen's, measured in lines from the bottom.
func (c *chat) reveal(width int, st *styles.Styles, md *mdRenderer) {
	t := &c.view
	below := 0
	for i := len(c.items) - 1; i > t.cursor; i-- {
		below += len(c.items[i].render(width-2, t, st, md)) + 1
	}
	if below < t.scroll {
		t.scroll = below
	}
	// When moving up, bring the item's top into view too.
	if t.cursor < len(c.items) {
		h := len(c.items[t.cursor].render(width-2, t, st, md)) + 1
		if below+h > t.scroll+20 {
			t.scroll = max(below+h-20, t.scroll)
		}
	}
}
