package tui

import (
	tea "charm.land/bubbletea/v2"
)

// The key tables of the panes other than the question panel
// (panelpane.go): each lists the actions that act now, for dispatch and
// help alike (see focus.go).

// inboxKeys: the list of waiting requests, with a cursor of its own; the
// request shown changes only when the human opens one.
type inboxKeys struct {
	m *model
	f focus // the focus it has the keys for
}

func (p inboxKeys) actions() []action {
	m := p.m
	k := m.keys.Inbox
	in := &m.inbox
	out := []action{
		move(k.Open, func(keyMsg) tea.Cmd {
			if in.cursor < len(m.requests) {
				m.show(in.cursor)
			}
			m.focus = focusPanel
			return nil
		}).inBar().in("Inbox"),
		move(k.Up, func(keyMsg) tea.Cmd { in.cursor = max(in.cursor-1, 0); return nil }).inBar(pair(k.Up, k.Down, "↑/↓", "move")).in("Inbox"),
		move(k.Down, func(keyMsg) tea.Cmd { in.cursor = min(in.cursor+1, max(len(m.requests)-1, 0)); return nil }).in("Inbox"),
		move(k.Back, func(keyMsg) tea.Cmd { m.goBack(); return nil }).inBar().in("Inbox"),
	}
	return append(out, m.globals(p.f, false)...)
}

func (inboxKeys) typist() func(tea.Msg) tea.Cmd { return nil }

// homeFocus is the pane with the keys when no other is chosen: the
// prompt in the conversation view (a question there opens only when the
// human or openWaiting opens it), else the panel.
func (m *model) homeFocus() focus {
	if m.kind == kindRun {
		return focusPrompt
	}
	return focusPanel
}

// activityKeys: the session's activity pane, scrolled.
type activityKeys struct {
	m *model
	f focus // the focus it has the keys for
}

func (p activityKeys) actions() []action {
	m := p.m
	k := m.keys.Activity
	out := m.activityScroll(true)
	out = append(out, move(k.Back, func(keyMsg) tea.Cmd {
		m.focus = focusPanel
		m.log.scroll = 0 // follow the newest again
		return nil
	}).inBar().in("Activity"))
	return append(out, m.globals(p.f, false)...)
}

func (activityKeys) typist() func(tea.Msg) tea.Cmd { return nil }

// activityScroll are the keys that scroll the activity: in its pane, and
// on the idle screen, where it fills the body. End shows only when the
// log is scrolled back.
func (m *model) activityScroll(bar bool) []action {
	k := m.keys.Activity
	l := m.log
	out := []action{
		move(k.Up, func(keyMsg) tea.Cmd { l.scrollBy(1); return nil }).in("Activity"),
		move(k.Down, func(keyMsg) tea.Cmd { l.scrollBy(-1); return nil }).in("Activity"),
		move(k.PageUp, func(keyMsg) tea.Cmd { l.scrollBy(m.page()); return nil }).in("Activity"),
		move(k.PageDown, func(keyMsg) tea.Cmd { l.scrollBy(-m.page()); return nil }).in("Activity"),
	}
	if bar {
		out[0] = out[0].inBar(pair(k.Up, k.Down, "↑/↓", "scroll"))
		out[2] = out[2].inBar()
	}
	if l.scroll > 0 {
		out = append(out, move(k.End, func(keyMsg) tea.Cmd { l.scroll = 0; return nil }).inBar().in("Activity"))
	}
	return out
}

// pastKeys: the answers given in this session.
type pastKeys struct {
	m *model
	f focus // the focus it has the keys for
}

func (p pastKeys) actions() []action {
	m := p.m
	k := m.keys.Past
	pp := &m.past
	var out []action
	if len(pp.answers) > 0 {
		out = append(out,
			move(k.Copy, func(keyMsg) tea.Cmd { return pp.copy(m.setNotice) }).inBar().in("Past answers"),
			move(k.Up, func(keyMsg) tea.Cmd { pp.cursor = max(pp.cursor-1, 0); return nil }).inBar(pair(k.Up, k.Down, "↑/↓", "move")).in("Past answers"),
			move(k.Down, func(keyMsg) tea.Cmd { pp.cursor = min(pp.cursor+1, max(len(pp.answers)-1, 0)); return nil }).in("Past answers"),
		)
	}
	out = append(out, move(k.Back, func(keyMsg) tea.Cmd { m.goBack(); return nil }).inBar().in("Past answers"))
	return append(out, m.globals(p.f, false)...)
}

func (pastKeys) typist() func(tea.Msg) tea.Cmd { return nil }

// transcriptKeys: an agent's transcript, moved through item by item.
type transcriptKeys struct {
	m *model
	f focus // the focus it has the keys for
}

func (p transcriptKeys) actions() []action {
	m := p.m
	c := m.conv()
	k := m.keys.Transcript
	t := &c.view
	n := len(c.items)
	w := m.contentWidth()
	out := []action{
		move(k.Up, func(keyMsg) tea.Cmd {
			t.cursor = max(t.cursor-1, 0)
			c.reveal(w, m.styles, m.md)
			return nil
		}).inBar(pair(k.Up, k.Down, "↑/↓", "items")).in("Transcript"),
		move(k.Down, func(keyMsg) tea.Cmd {
			t.cursor = min(t.cursor+1, max(n-1, 0))
			c.reveal(w, m.styles, m.md)
			return nil
		}).in("Transcript"),
		move(k.PageUp, func(keyMsg) tea.Cmd { t.scroll += m.page(); return nil }).in("Transcript"),
		move(k.PageDown, func(keyMsg) tea.Cmd { t.scroll = max(t.scroll-m.page(), 0); return nil }).in("Transcript"),
		move(k.End, func(keyMsg) tea.Cmd { t.scroll, t.cursor = 0, max(n-1, 0); return nil }).in("Transcript"),
	}
	if t.cursor < n && c.items[t.cursor].expandable() {
		out = append(out, move(k.Expand, func(keyMsg) tea.Cmd {
			it := c.items[t.cursor]
			it.expanded = !it.expanded
			if it.kind == itemSpilled && it.expanded {
				c.loadSpilled(it)
			}
			return nil
		}).inBar().in("Transcript"))
	}
	if c.has(itemThought) {
		out = append(out, move(k.Thoughts, func(keyMsg) tea.Cmd { t.showThoughts = !t.showThoughts; return nil }).inBar().in("Transcript"))
	}
	if c.hasDiff() {
		out = append(out, move(k.DiffLayout, func(keyMsg) tea.Cmd { t.split = !t.split; return nil }).inBar().in("Transcript"))
	}
	out = append(out, move(k.Back, func(keyMsg) tea.Cmd {
		t.scroll = 0
		m.toPrompt()
		return nil
	}).inBar().in("Transcript"))
	return append(out, m.globals(p.f, false)...)
}

func (transcriptKeys) typist() func(tea.Msg) tea.Cmd { return nil }

// agentsKeys: the agent picker.
type agentsKeys struct {
	m *model
	f focus // the focus it has the keys for
}

func (p agentsKeys) actions() []action {
	m := p.m
	k := m.keys.Agents
	pk := &m.picker
	return []action{
		move(k.Open, func(keyMsg) tea.Cmd {
			row, done := pk.choose()
			if done {
				m.toPrompt() // switching shows where the human left it (enter)
			}
			if row != nil {
				return m.pick(row)
			}
			return nil
		}).inBar().in("Agents"),
		move(k.Up, func(keyMsg) tea.Cmd { pk.cursor = max(pk.cursor-1, 0); return nil }).inBar(pair(k.Up, k.Down, "↑/↓", "move")).in("Agents"),
		move(k.Down, func(keyMsg) tea.Cmd { pk.cursor = min(pk.cursor+1, max(len(pk.rows)-1, 0)); return nil }).in("Agents"),
		move(k.Back, func(keyMsg) tea.Cmd { m.toPrompt(); return nil }).inBar().in("Agents"),
		m.helpAction(false).inBar(),
		m.quitAction(),
	}
}

func (agentsKeys) typist() func(tea.Msg) tea.Cmd { return nil }

// promptKeys: the prompt editor of the conversation shown, with its
// completions when open.
type promptKeys struct {
	m *model
	f focus // the focus it has the keys for
}

func (p promptKeys) actions() []action {
	m := p.m
	c := m.conv()
	if c == nil || c.over {
		// An agent that ended or never started reads nothing: its
		// status line says ctrl+l starts one.
		return m.globals(p.f, false)
	}
	k := m.keys.Prompt
	e := &c.editor
	var out []action
	if e.pop.kind != completionNone {
		out = append(out,
			move(k.Complete, func(keyMsg) tea.Cmd { e.accept(); return nil }).inBar().in("Completions"),
			move(k.CompleteUp, func(keyMsg) tea.Cmd { e.pop.cursor = max(e.pop.cursor-1, 0); return nil }).inBar(pair(k.CompleteUp, k.CompleteDown, "↑/↓", "choose")).in("Completions"),
			move(k.CompleteDown, func(keyMsg) tea.Cmd { e.pop.cursor = min(e.pop.cursor+1, max(len(e.pop.items)-1, 0)); return nil }).in("Completions"),
			move(k.Dismiss, func(keyMsg) tea.Cmd { e.pop.kind = completionNone; return nil }).inBar().in("Completions"),
		)
	}
	if e.value() != "" {
		out = append(out, answer(k.Send, func(keyMsg) tea.Cmd { return m.sendPrompt() }).inBar().in("Prompt"))
	}
	if c.turn && e.pop.kind == completionNone {
		out = append(out, move(k.Cancel, func(keyMsg) tea.Cmd { return m.cancelTurn() }).inBar().in("Prompt"))
	}
	out = append(out, answer(k.NewLine, func(msg keyMsg) tea.Cmd { return e.typeKey(msg, c.id, c.info.Cwd) }).inBar().in("Prompt"))
	if e.canBrowse(-1) {
		out = append(out, move(k.HistoryPrev, func(keyMsg) tea.Cmd { e.browse(-1); return nil }).in("Prompt"))
	}
	if e.canBrowse(+1) {
		out = append(out, move(k.HistoryNext, func(keyMsg) tea.Cmd { e.browse(+1); return nil }).in("Prompt"))
	}
	if len(c.info.Modes) > 1 && c.conv != nil {
		out = append(out, move(k.Mode, func(keyMsg) tea.Cmd { return m.nextMode() }).inBar().in("Prompt"))
	}
	out = append(out, move(k.Mention, nothing).inBar().in("Prompt"))
	if len(c.info.Commands) > 0 {
		out = append(out, move(k.Command, nothing).inBar().in("Prompt"))
	}
	return append(out, m.globals(p.f, true)...)
}

func (p promptKeys) typist() func(tea.Msg) tea.Cmd {
	m := p.m
	c := m.conv()
	if c == nil || c.over {
		return nil
	}
	return func(msg tea.Msg) tea.Cmd {
		switch msg := msg.(type) {
		case tea.PasteMsg:
			return c.editor.paste(msg)
		case keyMsg:
			return c.editor.typeKey(msg, c.id, c.info.Cwd)
		}
		return nil
	}
}

// helpPane: the ? overlay, listing every key of the pane it was opened
// from; it scrolls when they do not fit.
type helpPane struct {
	m *model
	f focus // the focus it has the keys for
}

func (p helpPane) actions() []action {
	m := p.m
	k := m.keys.Overlay
	back := func(keyMsg) tea.Cmd { m.focus = m.back; return nil }
	out := []action{move(k.Close, back).inBar().in("Help")}
	if m.helpScrollMax() > 0 {
		scroll := func(d int) func(keyMsg) tea.Cmd {
			return func(keyMsg) tea.Cmd { m.helpScroll = min(max(m.helpScroll+d, 0), m.helpScrollMax()); return nil }
		}
		page := max(m.bodyHeight()-3, 1)
		out = append(out,
			move(k.Down, scroll(+1)).inBar(pair(k.Down, k.Up, "↓/↑", "scroll")).in("Help"),
			move(k.Up, scroll(-1)).in("Help"),
			move(k.PageDown, scroll(+page)).inBar().in("Help"),
			move(k.PageUp, scroll(-page)).in("Help"),
		)
	}
	return append(out, m.quitAction())
}

func (helpPane) typist() func(tea.Msg) tea.Cmd { return nil }

// expandable reports whether enter folds or unfolds the item: a thought or
// a tool call.
func (it *convItem) expandable() bool {
	return it.kind == itemThought || it.kind == itemTool || it.kind == itemSpilled
}

// has reports whether the transcript holds an item of kind k.
func (c *chat) has(k convItemKind) bool {
	for _, it := range c.items {
		if it.kind == k {
			return true
		}
	}
	return false
}

// hasDiff reports whether a tool call of the transcript shows a diff.
func (c *chat) hasDiff() bool {
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
