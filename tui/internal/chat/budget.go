package chat

import (
	"strconv"
	"strings"

	"github.com/asktui/asktui/interaction/conversation"
	"github.com/asktui/asktui/tui/internal/cell"
)

// A transcript's memory budget. However long a conversation runs and
// whatever its agent sends, a transcript holds at most about
// maxResidentText bytes of items and maxResidentItems items; past either,
// its oldest items go to its spill file, in a readable form, and one
// line in their place says how many and where (enter on it shows the
// last maxShownText bytes of them again).
// (Variables only so that tests can lower them.)
var (
	maxResidentText  int64 = 48 << 20
	maxResidentItems       = 20_000
)

// itemOverhead is what an item costs besides its text: the struct, its
// rendering cache for a few lines, its slot.
const itemOverhead = 512

// maxRendered bounds the rendered Markdown blocks a transcript keeps
// (besides its text): past it, the blocks of its oldest messages are
// dropped, to be rendered again if they come back into view. A long
// reply's blocks are each rendered as they scroll past while it streams,
// and rendered lines hold several times their text.
var maxRendered int64 = 32 << 20

// keepRendered is how many of the newest message's blocks keep their
// rendering whatever the budget: more than a screenful.
const keepRendered = 256

// dropRendered holds the transcript's rendered blocks to maxRendered.
func (c *Chat) dropRendered() {
	total := int64(0)
	for _, it := range c.items {
		total += it.text.rendered
	}
	if total <= maxRendered {
		return
	}
	for i := 0; i < len(c.items) && total > maxRendered*7/8; i++ {
		t := &c.items[i].text
		if t.rendered == 0 {
			continue
		}
		before := t.rendered
		n := len(t.blocks)
		if i == len(c.items)-1 {
			n -= keepRendered
		}
		t.dropRendered(n)
		total -= before - t.rendered
	}
}

// spilledItems is what an itemSpilled stands for: count items, kept as n
// bytes at off of file; loaded is their end read back, when the human
// asked for it.
type spilledItems struct {
	count   int
	file    string
	path    string
	off, n  int64
	loading bool
	loaded  bool
	err     error
}

// weigh is what an item holds.
func (it *convItem) weigh() int64 {
	w := int64(itemOverhead + it.text.kept())
	if t := it.tool; t != nil {
		w += EventBytes(conversation.Event{Tool: t})
	}
	for _, p := range it.plan {
		w += int64(len(p.Content) + 64)
	}
	if a := it.ask; a != nil {
		w += a.size()
	}
	return w
}

// account counts an item's new weight in the transcript's.
func (c *Chat) account(it *convItem) {
	w := it.weigh()
	c.resident += w - it.weight
	it.weight = w
}

// overBudget reports whether the transcript holds more than its budget.
func (c *Chat) overBudget() bool {
	return c.resident > maxResidentText || len(c.items) > maxResidentItems
}

// keepLast is how many of the newest items always stay: the one
// streaming and its neighbours.
const keepLast = 8

// EnforceBudget moves the oldest items to the spill file until the
// transcript holds at most seven eighths of its budget. The newest stay,
// and so do spilled items the human is reading again.
func (c *Chat) EnforceBudget() {
	c.dropRendered()
	if c.spill == nil || !c.overBudget() {
		return
	}
	text, items := maxResidentText*7/8, maxResidentItems*7/8
	out := make([]*convItem, 0, len(c.items))
	cursor := c.view.cursor
	// landed follows the cursor's item to its place in out (or its run's).
	landed := func(i int) {
		if i == c.view.cursor {
			cursor = len(out) - 1
		}
	}
	var run *convItem // the itemSpilled being extended
	for i, it := range c.items {
		over := c.resident > text || len(c.items)-i+len(out) > items
		switch {
		case !over || i >= len(c.items)-keepLast || i == c.view.cursor && it.kind == itemSpilled && it.expanded:
		case it.kind == itemSpilled:
			if it.spilled.loaded {
				// Shown again on request: back to its one line.
				it.spilled.loaded = false
				it.text = textStream{}
				it.expanded = false
				it.rendering.stale()
				c.account(it)
			}
			if run != nil && run.spilled.file == it.spilled.file && run.spilled.off+run.spilled.n == it.spilled.off {
				run.spilled.count += it.spilled.count
				run.spilled.n += it.spilled.n
				c.resident -= it.weight
				landed(i)
				continue
			}
			run = it
			out = append(out, it)
			landed(i)
			continue
		default:
			form := c.spilledForm(it)
			file := fileSafe(c.id) + "-transcript.md"
			off := c.spill.write(file, form)
			if it.kind == itemTool && it.tool != nil && c.tools[it.tool.ID] == it {
				delete(c.tools, it.tool.ID)
			}
			c.resident -= it.weight
			if run != nil && run.spilled.off+run.spilled.n == off && run.spilled.file == file {
				run.spilled.count++
				run.spilled.n += int64(len(form))
				run.rendering.stale()
				landed(i)
				continue
			}
			run = &convItem{kind: itemSpilled, finished: true, spilled: &spilledItems{count: 1, file: file, path: c.spill.path(file), off: off, n: int64(len(form))}}
			c.account(run)
			out = append(out, run)
			landed(i)
			continue
		}
		run = nil
		out = append(out, it)
		landed(i)
	}
	clear(c.items[len(out):])
	c.items = out
	c.view.cursor = min(max(cursor, 0), max(len(out)-1, 0))
}

// spilledForm is an item as text, the way the spill file keeps it.
func (c *Chat) spilledForm(it *convItem) string {
	var b strings.Builder
	switch it.kind {
	case itemUser:
		b.WriteString("› " + it.text.String())
	case itemMessage:
		if it.text.head > 0 {
			b.WriteString("(" + sizeText(it.text.head) + " before this are in " + c.spill.path(it.text.file) + ")\n\n")
		}
		b.WriteString(it.text.String())
	case itemThought:
		b.WriteString("∴ " + it.text.String())
	case itemNotice:
		b.WriteString("— " + it.text.String())
	case itemAsk:
		b.WriteString(askForm(it.ask))
	case itemPlan:
		b.WriteString("Plan")
		for _, e := range it.plan {
			mark := "[ ]"
			switch e.Status {
			case "completed":
				mark = "[x]"
			case "in_progress":
				mark = "[~]"
			}
			b.WriteString("\n- " + mark + " " + e.Content)
		}
	case itemTool:
		t := it.tool
		b.WriteString(toolGlyph(t.Kind) + " " + t.Title + " (" + string(t.Status) + ")")
		for _, l := range t.Locations {
			b.WriteString("\n  " + l.Path)
			if l.Line > 0 {
				b.WriteString(":" + strconv.Itoa(l.Line))
			}
		}
		for _, ct := range t.Content {
			switch {
			case ct.Diff != nil:
				b.WriteString("\n\n```diff\n--- " + ct.Diff.Path + "\n+++ " + ct.Diff.Path + "\n")
				b.WriteString(strings.TrimRight(ct.Diff.New, "\n") + "\n```")
			case ct.Terminal != nil:
				b.WriteString("\n\n```\n$ " + ct.Terminal.Command + "\n" + strings.TrimRight(ct.Terminal.Output, "\n") + "\n```")
			case ct.Text != "":
				b.WriteString("\n\n```\n" + strings.TrimRight(ct.Text, "\n") + "\n```")
			}
		}
	default: // itemSpilled: already in the spill
	}
	b.WriteString("\n\n")
	return b.String()
}

// sizeText is a size in bytes for people: 812 bytes, 4.2 KiB, 100.0 MiB.
func sizeText(n int64) string {
	switch {
	case n >= 1<<20:
		return strconv.FormatFloat(float64(n)/(1<<20), 'f', 1, 64) + " MiB"
	case n >= 1<<10:
		return strconv.FormatFloat(float64(n)/(1<<10), 'f', 1, 64) + " KiB"
	}
	return cell.Plural(int(n), "byte", "bytes")
}

// loadSpilled asks the spill for the end of what a spilled item stands
// for, to show it again; it comes back through ApplyLoad.
func (c *Chat) loadSpilled(it *convItem) {
	s := it.spilled
	if s == nil || s.loading || s.loaded || c.spill == nil {
		return
	}
	n := min(s.n, maxShownText)
	s.loading = true
	c.spill.read(Load{conv: c.id, item: it, file: s.file, off: s.off + s.n - n, n: n})
}

// ApplyLoad shows spilled text read back, when it is this chat's.
func (c *Chat) ApplyLoad(l Load) {
	it := l.item
	if l.conv != c.id || it == nil || it.spilled == nil {
		return
	}
	it.spilled.loading = false
	it.spilled.err = l.err
	if l.err != nil {
		return
	}
	it.spilled.loaded = true
	it.text = textStream{}
	it.text.WriteString(l.text, nil)
	it.rendering.stale()
	c.account(it)
}

// EventBytes is about what an event holds in memory: what a transcript
// counts for a tool call, and the program for an event waiting.
func EventBytes(e conversation.Event) int64 {
	n := int64(128 + len(e.Text))
	if t := e.Tool; t != nil {
		n += int64(len(t.Title) + len(t.Input))
		for _, c := range t.Content {
			n += int64(len(c.Text))
			if c.Diff != nil {
				n += int64(len(c.Diff.New))
				if c.Diff.Old != nil {
					n += int64(len(*c.Diff.Old))
				}
			}
			if c.Terminal != nil {
				n += int64(len(c.Terminal.Output))
			}
		}
	}
	for _, p := range e.Plan {
		n += int64(len(p.Content))
	}
	return n
}
