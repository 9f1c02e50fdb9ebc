package chat

import (
	"math"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/asktui/asktui/interaction/conversation"
	"github.com/asktui/asktui/internal/markdown"
	"github.com/asktui/asktui/styles"
	"github.com/asktui/asktui/tui/internal/cell"
	"github.com/asktui/asktui/tui/internal/keys"
	"github.com/asktui/asktui/tui/internal/ui"
)

// Caps on what an item shows until the human expands it.
const (
	maxToolTextLines = 6
	maxDiffLines     = 24
	maxThoughtLines  = 1
)

// Transcript is one conversation's transcript on screen: where it is
// scrolled to, the item under the cursor (with the focus), and the two
// view toggles.
type Transcript struct {
	ui.Box
	com          *ui.Common
	host         TranscriptHost
	c            *Chat
	scroll       int // lines from the bottom; 0 follows the newest
	cursor       int // the item the cursor is on, with the focus
	showThoughts bool
	split        bool // diffs side by side
}

var _ ui.Pane = (*Transcript)(nil)

// TranscriptHost is what a transcript asks of the program.
type TranscriptHost interface {
	ui.Globals
	// Page is the rows a page key scrolls.
	Page() int
	// ToPrompt gives the keys back to the prompt editor.
	ToPrompt()
}

// itemRender caches an item's rendered lines for one width and set of
// view toggles. A message is rendered block by block (see textStream): the
// complete blocks each once, as they come into view, and the open block
// at the end, the only one that grows, again as it grows (at most a few
// KiB, see maxBlock): while the turn streams, its complete lines are
// wrapped once and only its last line each time.
type itemRender struct {
	width int
	opts  string // the view toggles the lines were rendered with
	lines []string
	valid bool
	// blocks says the blocks' own caches are stale too (the styles
	// changed).
	blocks bool

	// A message's open block: its lines for open (the text's length, and
	// where the block started).
	open    []string
	openLen int64
	openAt  int64
}

// stale drops the cache: the item changed other than by growing, or the
// styles did.
func (r *itemRender) stale() { *r = itemRender{blocks: true} }

// grew marks a streaming item's text longer: only the open block is
// redone.
func (r *itemRender) grew() { r.valid = false }

// lines returns the item's lines at width, or at least its last need of
// them: whole says whether they are all of them. Only a message (and
// spilled items shown again) render less than all.
func (it *convItem) lines(width, need int, t *Transcript, st *styles.Styles, md *cell.Markdown) (lines []string, whole bool) {
	opts := t.optsKey(it)
	r := &it.rendering
	if r.width != width || r.opts != opts {
		blocks := r.blocks
		*r = itemRender{width: width, opts: opts, blocks: blocks}
	}
	if r.blocks {
		it.text.dropRendered(len(it.text.blocks))
		r.blocks = false
	}
	switch {
	case it.kind == itemMessage:
		return it.messageLines(width, need, it.trimLine(width, st), md)
	case it.kind == itemSpilled && it.expanded && it.spilled.loaded:
		return it.messageLines(width, need, it.spilledLines(width, t, st), md)
	}
	if !r.valid {
		r.lines = it.renderWhole(width, t, st)
		r.valid = true
	}
	return r.lines, true
}

// optsKey names the view toggles an item's rendering depends on.
func (t *Transcript) optsKey(it *convItem) string {
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

// renderWhole renders an item that is not a message in full.
func (it *convItem) renderWhole(width int, t *Transcript, st *styles.Styles) []string {
	cs := st.Conversation
	switch it.kind {
	case itemUser:
		lines := it.trimLine(width-2, st)
		lines = append(lines, wrapPlain(cell.Sanitize(it.text.String()), width-2, cs.User)...)
		return prefixLines(lines, cs.Prompt.Render("›")+" ", "  ")
	case itemThought:
		return it.thoughtLines(width, t.showThoughts || it.expanded, st)
	case itemNotice:
		style := cs.Status
		if it.failed {
			style = st.App.Error
		}
		return wrapPlain("— "+it.text.String(), width, style)
	case itemPlan:
		return renderPlan(it.plan, width, st)
	case itemAsk:
		return renderAsk(it.ask, width, st)
	case itemTool:
		return renderTool(it, width, t, st)
	case itemSpilled:
		return it.spilledLines(width, t, st)
	default: // a message is rendered block by block
		return nil
	}
}

// thoughtLines renders thinking with its inline Markdown (agents title
// their thoughts **like this**), dimmed: its first line, or all of it.
func (it *convItem) thoughtLines(width int, all bool, st *styles.Styles) []string {
	cs := st.Conversation
	text := strings.TrimSpace(it.text.String())
	var src []string
	more := 0
	for line := range strings.SplitSeq(text, "\n") {
		if strings.Trim(line, "* ") == "" && line != "" {
			continue // an empty **title**
		}
		if !all && len(src) >= maxThoughtLines {
			if strings.TrimSpace(line) != "" {
				more++
			}
			continue
		}
		src = append(src, line)
	}
	lines := it.trimLine(width-2, st)
	lines = append(lines, markdown.RenderIn(cell.Sanitize(strings.Join(src, "\n")), max(width-2, 1), st, cs.Thought)...)
	if !all && len(lines) > maxThoughtLines {
		more += len(lines) - maxThoughtLines
		lines = lines[:maxThoughtLines]
	}
	if more > 0 {
		lines = append(lines, cs.Status.Render("… "+cell.Plural(more, "more line", "more lines")+" of thinking"))
	}
	return prefixLines(lines, cs.Thought.Render("∴")+" ", "  ")
}

// trimLine says, above a text the transcript shows only the end of, how
// much came and where all of it is.
func (it *convItem) trimLine(width int, st *styles.Styles) []string {
	t := &it.text
	if t.head == 0 {
		return nil
	}
	s := sizeText(t.Len()) + " came; the last " + sizeText(int64(t.kept())) + " are shown"
	switch {
	case t.file == "":
		s += " (the rest was not kept)"
	case t.spill.failure() != nil:
		s += "; the rest could not be kept: " + t.spill.failure().Error()
	default:
		s += "; all of it is in " + t.filePath
	}
	return wrapPlain("⋯ "+cell.SanitizeLine(s), width, st.Conversation.Status)
}

// spilledLines is the line of an itemSpilled: how many items, where.
func (it *convItem) spilledLines(width int, t *Transcript, st *styles.Styles) []string {
	s := it.spilled
	what := cell.Plural(s.count, "earlier entry", "earlier entries") + " (" + sizeText(s.n) + ")"
	var line string
	switch {
	case s.err != nil:
		line = what + ": could not read them back: " + s.err.Error()
	case it.expanded && s.loaded && s.n > maxShownText:
		line = what + " are in " + s.path + "; their last " + sizeText(maxShownText) + ":"
	case it.expanded && s.loaded:
		line = what + ", from " + s.path + ":"
	case it.expanded:
		line = what + " are in " + s.path + "; reading them…"
	default:
		line = what + " are in " + s.path + " · " + keys.Name(t.com.Keys.Transcript.Expand) + " shows them"
	}
	return wrapPlain("⋯ "+cell.SanitizeLine(line), width, st.Conversation.Status)
}

// messageLines renders a message (or text read back from the spill)
// from its end: the open block, then complete blocks until need lines
// are there. head goes on top once all of it is.
func (it *convItem) messageLines(width, need int, head []string, md *cell.Markdown) ([]string, bool) {
	t := &it.text
	open := it.openLines(width, md)
	parts := [][]string{open}
	n := len(open)
	gap := t.openGap && len(open) > 0 // a blank line goes above the part on top
	i := len(t.blocks) - 1
	for ; i >= 0 && n < need; i-- {
		b := &t.blocks[i]
		if b.width != width || b.lines == nil {
			t.rendered -= linesBytes(b.lines)
			b.lines, b.width = md.Render(t.source(b.start, b.end, b.fence, b.open), width), width
			t.rendered += linesBytes(b.lines)
		}
		if gap && n > 0 {
			parts = append(parts, []string{""})
			n++
		}
		parts = append(parts, b.lines)
		n += len(b.lines)
		gap = b.gap
	}
	whole := i < 0
	if whole && len(head) > 0 {
		parts = append(parts, head)
		n += len(head)
	}
	out := make([]string, 0, n)
	for j := len(parts) - 1; j >= 0; j-- {
		out = append(out, parts[j]...)
	}
	return out, whole
}

// openLines renders a message's open block, the one that may still grow:
// as Markdown, the same while it streams as once it is complete, so a
// block never changes its look when its message ends. It is redone only
// when the text grew, and is at most a few KiB (maxBlock).
func (it *convItem) openLines(width int, md *cell.Markdown) []string {
	t := &it.text
	r := &it.rendering
	if r.valid && r.openLen == t.Len() && r.openAt == t.committed {
		return r.open
	}
	r.valid, r.openLen, r.openAt = true, t.Len(), t.committed
	// Live or complete, the open block is drawn as it will stay: the same
	// Markdown, a code fence still open closed for the drawing.
	r.open = nil
	if strings.TrimSpace(t.between(t.committed, t.Len())) != "" {
		r.open = md.Fresh(t.source(t.committed, t.Len(), t.openFence, t.inFence), width)
	}
	for len(r.open) > 0 && strings.TrimSpace(ansi.Strip(r.open[0])) == "" {
		r.open = r.open[1:]
	}
	return r.open
}

// exactHeight is the longest message whose height is found by rendering
// it: a longer one's blocks not rendered yet are estimated.
const exactHeight = 64 << 10

// height is the item's height at width: exact where it was rendered (and
// for a message of up to exactHeight bytes), estimated for the blocks of a
// longer message not rendered yet.
func (it *convItem) height(width int, t *Transcript, st *styles.Styles, md *cell.Markdown) int {
	tx := &it.text
	need := 1
	if tx.kept() <= exactHeight {
		need = math.MaxInt
	}
	lines, whole := it.lines(width, need, t, st, md)
	if whole {
		return len(lines)
	}
	open := it.openLines(width, md)
	n := len(open)
	if tx.openGap && len(open) > 0 {
		n++
	}
	if it.kind == itemMessage {
		n += len(it.trimLine(width, st))
	} else {
		n += len(it.spilledLines(width, t, st))
	}
	for i := range tx.blocks {
		b := &tx.blocks[i]
		switch {
		case b.width == width && b.lines != nil:
			n += len(b.lines)
		case b.estW == width:
			n += b.est
		default:
			b.est, b.estW = estimate(tx.between(b.start, b.end), width), width
			n += b.est
		}
		if b.gap {
			n++
		}
	}
	return n
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
		text := markdown.RenderIn(cell.Sanitize(e.Content), max(width-4, 1), st, style)
		if len(text) == 0 {
			text = []string{""}
		}
		lines = append(lines, prefixLines(text, mark, "    ")...)
	}
	return lines
}

// renderAsk draws a question of the agent's as a chat shows it: each
// question (its header, then its Markdown text, as the panel showed it),
// under it the human's answer, and how the question ended when it was
// not answered here. While it waits the panel below shows it whole, and
// the transcript only names it. The marks are the activity log's.
func renderAsk(a *askRecord, width int, st *styles.Styles) []string {
	ac, cs := st.Activity, st.Conversation
	if a.end == askWaiting {
		q := a.questions[0]
		what := q.header
		if what == "" {
			what = markdown.Plain(cell.FirstLine(q.text))
		}
		if n := len(a.questions) - 1; n > 0 {
			what += " (+" + cell.Plural(n, "more question", "more questions") + ")"
		}
		line := st.Question.Header.Render(what) + cs.Status.Render(" · waiting for your answer")
		return []string{ac.Asked.Render("?") + " " + ansi.Truncate(line, max(width-2, 4), "…")}
	}
	var lines []string
	for i, q := range a.questions {
		var text []string
		if q.header != "" {
			text = wrapPlain(q.header, width-2, st.Question.Header)
		}
		text = append(text, markdown.Render(q.text, max(width-2, 1), st)...)
		lines = append(lines, prefixLines(text, ac.Asked.Render("?")+" ", "  ")...)
		if a.end == askAnswered && i < len(a.answers) {
			answer := wrapPlain(a.answers[i], width-4, cs.User)
			lines = append(lines, prefixLines(answer, "  "+ac.Answered.Render("✓")+" ", "    ")...)
		}
	}
	var end []string
	switch a.end {
	case askAnswered:
		if a.why != "" {
			end = wrapPlain("answered "+a.why, width-2, cs.Status)
		}
	case askDeclined:
		end = prefixLines(wrapPlain(a.why, width-4, ac.Failed), ac.Failed.Render("✗")+" ", "  ")
	case askWithdrawn:
		end = prefixLines(wrapPlain(a.why, width-4, ac.Withdrawn), ac.Withdrawn.Render("⊘")+" ", "  ")
	default: // waiting, above
	}
	return append(lines, prefixLines(end, "  ", "  ")...)
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
	default:
		return "⚙"
	}
}

// renderTool draws a tool call: its kind, title and status, where it
// works, and what it shows (text, diffs, terminal output), each capped
// until expanded.
func renderTool(it *convItem, width int, t *Transcript, st *styles.Styles) []string {
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
	default: // in progress
	}
	title := cell.SanitizeLine(tc.Title)
	if title == "" {
		title = string(tc.Kind)
	}
	// Agents write titles with inline Markdown: `git status`, **codex**.
	title = ansi.Truncate(markdown.Line(title, st, cs.Tool), max(width-6, 4), "…")
	head := cs.Tool.Render(toolGlyph(tc.Kind)+" ") + title + " " + status
	lines := []string{head}
	if len(tc.Locations) > 0 {
		var locs []string
		for _, l := range tc.Locations {
			s := cell.SanitizeLine(l.Path)
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
			out := cell.Sanitize(strings.TrimRight(c.Terminal.Output, "\n"))
			if c.Terminal.Command != "" {
				out = "$ " + cell.SanitizeLine(c.Terminal.Command) + "\n" + out
			}
			body = wrapPlain(out, inner, st.Diff.Context)
			if c.Terminal.Exited {
				body = append(body, cs.Status.Render("exit "+strconv.Itoa(c.Terminal.ExitCode)))
			}
		case c.Text != "":
			// A tool's text is its output: lines as they are, not
			// Markdown reflowed into paragraphs.
			body = wrapPlain(cell.Sanitize(strings.TrimRight(c.Text, "\n")), inner, st.Diff.Context)
		}
		if !it.expanded && len(body) > limit {
			more := len(body) - limit
			body = append(body[:limit:limit], cs.Status.Render("… "+cell.Plural(more, "more line", "more lines")+" · "+keys.Name(t.com.Keys.Transcript.Expand)+" expands"))
		}
		lines = append(lines, prefixLines(body, "  ", "  ")...)
	}
	return lines
}

// View draws the conversation in the pane's size: the items, newest at
// the bottom (or scrolled back), the cursor's item marked when focused.
// Only what is on screen is rendered: items from the newest up, and of a
// long message its blocks from the end up.
func (t *Transcript) View() string {
	return strings.Join(t.lines(), "\n")
}

func (t *Transcript) lines() []string {
	c, st, md := t.c, t.com.Styles, t.com.Markdown
	width, height, focused := t.Width(), t.Height(), t.Focused()
	if height <= 0 {
		return nil
	}
	if len(c.items) == 0 {
		return []string{st.App.Empty.Render("Write a prompt for " + c.name + " below.")}
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
		it := c.items[i]
		lines, whole := it.lines(w, need-total, t, st, md)
		block := make([]string, 0, len(lines)+1)
		if i > 0 && whole {
			block = append(block, "")
		}
		mark := "  "
		if focused && i == t.cursor && whole {
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
		rev = append(rev, block)
		total += len(block)
	}
	// Scrolled back past the oldest line measured: the scroll stops
	// there (a page key never piles up rows the screen cannot show).
	t.scroll = min(t.scroll, max(total-height, 0))
	scroll := t.scroll
	all := make([]string, 0, total)
	for i := len(rev) - 1; i >= 0; i-- {
		all = append(all, rev[i]...)
	}
	end := len(all) - scroll
	start := max(end-height, 0)
	out := all[start:end]
	if scroll > 0 && len(out) > 0 {
		out = append([]string(nil), out...)
		out[len(out)-1] = st.Question.ScrollHint.Render("↓ " + cell.Plural(scroll, "newer line", "newer lines") + " · " + keys.Name(t.com.Keys.Transcript.End) + " to follow")
	}
	return out
}

// reveal scrolls so the cursor's item is in view: its bottom no lower
// than the screen's, measured in lines from the bottom.
func (t *Transcript) reveal() {
	c, st, md := t.c, t.com.Styles, t.com.Markdown
	w := max(t.Width()-2, 10)
	below := 0
	for i := len(c.items) - 1; i > t.cursor; i-- {
		below += c.items[i].height(w, t, st, md) + 1
	}
	if below < t.scroll {
		t.scroll = below
	}
	// When moving up, bring the item's top into view too.
	if t.cursor < len(c.items) {
		it := c.items[t.cursor]
		h := it.height(w, t, st, md) + 1
		if below+h > t.scroll+20 {
			t.scroll = max(below+h-20, t.scroll)
		}
	}
}

// Actions are the transcript's keys: moving item by item, scrolling,
// expanding, the view toggles, and back to the prompt.
func (t *Transcript) Actions() []ui.Action {
	c := t.c
	k := t.com.Keys.Transcript
	n := len(c.items)
	out := []ui.Action{
		ui.Move(k.Up, func(ui.KeyMsg) tea.Cmd {
			t.cursor = max(t.cursor-1, 0)
			t.reveal()
			return nil
		}).InBar(k.Move).In("Transcript"),
		ui.Move(k.Down, func(ui.KeyMsg) tea.Cmd {
			t.cursor = min(t.cursor+1, max(n-1, 0))
			t.reveal()
			return nil
		}).In("Transcript"),
		ui.Move(k.PageUp, func(ui.KeyMsg) tea.Cmd { t.scroll += t.host.Page(); return nil }).In("Transcript"),
		ui.Move(k.PageDown, func(ui.KeyMsg) tea.Cmd { t.scroll = max(t.scroll-t.host.Page(), 0); return nil }).In("Transcript"),
		ui.Move(k.End, func(ui.KeyMsg) tea.Cmd { t.scroll, t.cursor = 0, max(n-1, 0); return nil }).In("Transcript"),
	}
	if t.cursor < n && c.items[t.cursor].expandable() {
		out = append(out, ui.Move(k.Expand, func(ui.KeyMsg) tea.Cmd {
			it := c.items[t.cursor]
			it.expanded = !it.expanded
			if it.kind == itemSpilled && it.expanded {
				c.loadSpilled(it)
			}
			return nil
		}).InBar().In("Transcript"))
	}
	if c.has(itemThought) {
		out = append(out, ui.Move(k.Thoughts, func(ui.KeyMsg) tea.Cmd { t.showThoughts = !t.showThoughts; return nil }).InBar().In("Transcript"))
	}
	if c.hasDiff() {
		out = append(out, ui.Move(k.DiffLayout, func(ui.KeyMsg) tea.Cmd { t.split = !t.split; return nil }).InBar().In("Transcript"))
	}
	out = append(out, ui.Move(k.Back, func(ui.KeyMsg) tea.Cmd {
		t.scroll = 0
		t.host.ToPrompt()
		return nil
	}).InBar().In("Transcript"))
	return append(out, t.host.Globals(false)...)
}

// Typist is nil: the transcript takes no text.
func (*Transcript) Typist() func(tea.Msg) tea.Cmd { return nil }

// CursorLast puts the cursor on the newest item.
func (t *Transcript) CursorLast() { t.cursor = max(len(t.c.items)-1, 0) }

// ShortHelp implements help.KeyMap.
func (t *Transcript) ShortHelp() []key.Binding { return ui.ShortHelp(t) }

// FullHelp implements help.KeyMap.
func (t *Transcript) FullHelp() [][]key.Binding { return ui.FullHelp(t) }

// expandable reports whether enter folds or unfolds the item: a thought or
// a tool call.
func (it *convItem) expandable() bool {
	return it.kind == itemThought || it.kind == itemTool || it.kind == itemSpilled
}

// has reports whether the transcript holds an item of kind k.
func (c *Chat) has(k convItemKind) bool {
	for _, it := range c.items {
		if it.kind == k {
			return true
		}
	}
	return false
}

// hasDiff reports whether a tool call of the transcript shows a diff.
func (c *Chat) hasDiff() bool {
	for _, it := range c.items {
		if it.tool == nil {
			continue
		}
		for _, tc := range it.tool.Content {
			if tc.Diff != nil {
				return true
			}
		}
	}
	return false
}
