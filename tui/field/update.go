package field

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"
)

// Update implements huh.Field: Handle, and in a form of several fields
// (NextFieldOnConfirm) huh.NextField once the question is confirmed.
func (c *Choice) Update(msg tea.Msg) (huh.Model, tea.Cmd) {
	cmd, confirmed := c.Handle(msg)
	if confirmed && c.nextField {
		cmd = tea.Batch(cmd, huh.NextField)
	}
	return c, cmd
}

// Handle takes a key or a paste (other messages are ignored) and reports
// whether it confirmed the question: Enter, or a digit that picks in
// single-select. That is the field's completion signal, for an owner that
// drives the field itself: it moves on at once, in the same Update, so
// keys typed meanwhile reach what comes next. The answer is in the Draft
// and may be empty (Enter on an empty Other row); the owner decides.
func (c *Choice) Handle(msg tea.Msg) (cmd tea.Cmd, confirmed bool) {
	c.done = false
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		if !c.focused {
			return nil, false
		}
		c.viewOK = false
		cmd = c.handleKey(msg)
	case tea.PasteMsg:
		if !c.focused {
			return nil, false
		}
		c.viewOK = false
		switch {
		case c.filterEditing:
			cmd = c.editFilter(msg)
		case c.onOther():
			cmd = c.editOther(msg)
		}
	}
	return cmd, c.done
}

// IsText reports whether a key types text (a printable key without ctrl,
// alt or another modifier), which goes to a focused text input whatever it
// is bound to.
func IsText(msg tea.KeyPressMsg) bool {
	return msg.Text != "" && msg.Mod&(tea.ModCtrl|tea.ModAlt|tea.ModMeta|tea.ModSuper|tea.ModHyper) == 0
}

// moveKey handles the row and page movement keys, shared by the list and
// the filter line; ok reports whether msg was one of them.
func (c *Choice) moveKey(msg tea.KeyPressMsg) (cmd tea.Cmd, ok bool) {
	k := c.keys
	switch {
	case key.Matches(msg, k.Up):
		return c.move(c.row - 1), true
	case key.Matches(msg, k.Down):
		return c.move(c.row + 1), true
	case key.Matches(msg, k.PageUp):
		return c.move(c.row - c.pageStep()), true
	case key.Matches(msg, k.PageDown):
		return c.move(c.row + c.pageStep()), true
	}
	return nil, false
}

func (c *Choice) handleKey(msg tea.KeyPressMsg) tea.Cmd {
	k := c.keys
	text := IsText(msg)

	if c.filterEditing {
		if !text {
			switch {
			case key.Matches(msg, k.AcceptFilter):
				return c.acceptFilter()
			case key.Matches(msg, k.ClearFilter):
				return c.clearFilter()
			}
			if cmd, ok := c.moveKey(msg); ok {
				return cmd
			}
		}
		return c.editFilter(msg)
	}

	if c.onOther() {
		if !text {
			switch {
			case key.Matches(msg, k.Up):
				return c.move(c.row - 1)
			case key.Matches(msg, k.PageUp):
				return c.move(c.row - c.pageStep())
			case key.Matches(msg, k.Down, k.PageDown):
				return nil // the Other row is the last
			case key.Matches(msg, k.Confirm):
				return c.confirm()
			case key.Matches(msg, k.ClearFilter) && c.filtered:
				return c.clearFilter()
			}
		}
		return c.editOther(msg)
	}

	if cmd, ok := c.moveKey(msg); ok {
		return cmd
	}
	switch {
	case key.Matches(msg, k.Home):
		return c.move(0)
	case key.Matches(msg, k.End):
		return c.move(max(c.nf()-1, 0))
	case key.Matches(msg, k.Filter):
		return c.startFilter()
	case key.Matches(msg, k.ClearFilter):
		if c.filtered {
			return c.clearFilter()
		}
	case key.Matches(msg, k.Pick):
		return c.pick(msg)
	case key.Matches(msg, k.Toggle):
		if c.multi {
			c.toggle(c.optionAt(c.row))
		}
	case key.Matches(msg, k.SelectAll):
		if c.multi {
			c.toggleAll()
		}
	case key.Matches(msg, k.Confirm):
		return c.confirm()
	}
	return nil
}

func (c *Choice) pageStep() int { return max(c.pageRows-1, 1) }

// move puts the cursor on a row (clamped).
func (c *Choice) move(row int) tea.Cmd {
	c.row = row
	c.movedInFilter = true
	if c.filterEditing && min(max(row, 0), c.nRows()-1) == c.nf() {
		// Moving onto Other hands the keys to its input: keep the filter.
		c.filterEditing = false
		if c.draft.Filter == "" {
			c.resetFilter()
		}
	}
	return c.sync()
}

// pick acts on the row numbered by a digit key.
func (c *Choice) pick(msg tea.KeyPressMsg) tea.Cmd {
	s := msg.String()
	if len(s) != 1 || s[0] < '1' || s[0] > '9' {
		return nil
	}
	row := int(s[0] - '1')
	if row >= c.nRows() {
		return nil
	}
	if row == c.nf() {
		return c.move(row) // Other: start typing
	}
	opt := c.optionAt(row)
	if c.multi {
		c.toggle(opt)
		return nil
	}
	c.row = row
	c.choose(opt)
	return c.finish()
}

// finish confirms the question (Handle reports it).
func (c *Choice) finish() tea.Cmd {
	c.done = true
	return c.sync()
}

// choose makes opt the single-select answer.
func (c *Choice) choose(opt int) {
	d := c.draft
	clear(d.Chosen)
	d.Chosen[opt] = true
	c.nChosen = 1
	d.OtherChosen = false
}

func (c *Choice) toggle(opt int) {
	if opt >= c.n {
		return
	}
	d := c.draft
	d.Chosen[opt] = !d.Chosen[opt]
	if d.Chosen[opt] {
		c.nChosen++
		d.OtherChosen = false // options replace a custom answer
	} else {
		c.nChosen--
	}
}

// toggleAll checks every displayed option, or unchecks them all when all
// are checked.
func (c *Choice) toggleAll() {
	n := c.nf()
	if n == 0 {
		return
	}
	all := true
	for r := range n {
		if !c.draft.Chosen[c.optionAt(r)] {
			all = false
			break
		}
	}
	for r := range n {
		o := c.optionAt(r)
		if c.draft.Chosen[o] == all {
			c.toggle(o)
		}
	}
}

// confirm handles the Confirm key outside filter editing. Enter never
// confirms an answer the human did not see: on an option row it takes
// that option (single-select), or, with nothing checked yet, checks it
// (multi-select, as gum choose --no-limit does). On the Other row it
// confirms the typed text; with none typed it does nothing.
func (c *Choice) confirm() tea.Cmd {
	d := c.draft
	if c.onOther() {
		if strings.TrimSpace(d.OtherText) == "" {
			// Nothing typed yet: Enter starts typing here (the row's
			// input has the keys already), as Claude Code's own "type
			// something" row does; it never sends an empty answer.
			return nil
		}
		d.OtherChosen = true
		return c.finish()
	}
	if c.nf() == 0 {
		return nil
	}
	opt := c.optionAt(c.row)
	switch {
	case !c.multi:
		c.choose(opt)
	case c.nChosen == 0 && !d.OtherChosen:
		c.toggle(opt)
	}
	return c.finish()
}

// editOther feeds a key or paste to the Other input and mirrors its text.
func (c *Choice) editOther(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	c.otherInput, cmd = c.otherInput.Update(msg)
	v := c.otherInput.Value()
	d := c.draft
	if v == d.OtherText {
		return cmd
	}
	d.OtherText = v
	// A custom answer replaces the options, never supplements them: the
	// options checked stay checked but set aside (drawn dimmed, the answer
	// leaves them out), and count again once the text is erased.
	d.OtherChosen = strings.TrimSpace(v) != ""
	return cmd
}

// startFilter begins editing the filter (the applied one, if any).
func (c *Choice) startFilter() tea.Cmd {
	if !c.filtered {
		c.preFilterCursor = c.draft.Cursor
		c.movedInFilter = false
		if c.index == nil {
			c.index = buildLowerIndex(c.n, c.label) // pay for it now, not on the first letter
		}
	}
	c.filterEditing = true
	c.filterInput.SetValue(c.draft.Filter)
	return c.sync()
}

// editFilter feeds a key or paste to the filter input and refilters when
// its text changed.
func (c *Choice) editFilter(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	c.filterInput, cmd = c.filterInput.Update(msg)
	v := c.filterInput.Value()
	if v == c.draft.Filter {
		return cmd
	}
	target := c.restoreTarget(c.optionAt(c.row))
	c.draft.Filter = v
	c.movedInFilter = false
	c.draft.Offset = 0
	if v == "" {
		c.filtered, c.matches = false, nil
		c.row = c.rowOf(target)
	} else {
		c.matches = c.matchesFor(v)
		c.filtered = true
		c.row = 0
	}
	return tea.Batch(cmd, c.sync())
}

// restoreTarget is the option the cursor returns to when the filter goes:
// where it was before filtering, unless the human moved since.
func (c *Choice) restoreTarget(current int) int {
	if !c.movedInFilter && c.preFilterCursor >= 0 && c.preFilterCursor <= c.n {
		return c.preFilterCursor
	}
	return current
}

// acceptFilter stops editing and keeps the filter applied.
func (c *Choice) acceptFilter() tea.Cmd {
	c.filterEditing = false
	if c.draft.Filter == "" {
		c.resetFilter()
	}
	return c.sync()
}

// clearFilter removes the filter, keeping the cursor on its option.
func (c *Choice) clearFilter() tea.Cmd {
	target := c.optionAt(c.row)
	if !c.movedInFilter || target == c.n && c.nf() == 0 {
		target = c.restoreTarget(target)
	}
	c.resetFilter()
	c.row = c.rowOf(target)
	return c.sync()
}

func (c *Choice) resetFilter() {
	c.filterEditing = false
	c.filtered, c.matches = false, nil
	c.draft.Filter = ""
	c.draft.Offset = 0
	c.filterInput.SetValue("")
	c.preFilterCursor = -1
	c.movedInFilter = false
}
