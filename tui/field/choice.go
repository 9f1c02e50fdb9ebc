// Package field holds asktui's own huh form fields. Choice is the option list
// of a question: single- or multi-select with a free-text "Other" row,
// number shortcuts, filtering and descriptions. Unlike huh's Select and
// MultiSelect it renders only the rows that fit on screen, so a key costs
// the same at 10 options as at 100,000.
//
// A Choice keeps everything that must outlive it (cursor, checks, Other
// text, filter, scroll position) in a Draft owned by the caller.
package field

import (
	"io"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"

	"github.com/asktui/asktui/styles"
)

// ChoiceConfig describes a Choice.
type ChoiceConfig struct {
	// Labels are the options' display labels, already sanitized. Answers
	// are reported as indices into Labels.
	Labels []string
	// Label, when set, is used instead of Labels: it returns the display
	// label (sanitized) of option i of LabelCount. The field asks only for
	// the labels it draws (and all of them once, when filtering starts),
	// so a question of 100,000 options need not prepare 100,000 labels
	// before its first frame.
	Label func(i int) string
	// LabelCount is the number of options Label serves.
	LabelCount int
	// Descriptions has the same length as Labels, or is nil; "" = none.
	Descriptions []string
	// Multi makes the field a multi-select.
	Multi bool
	// NoOther leaves out the "Other" row: the question takes only its
	// options (interaction.Question.NoOther).
	NoOther bool
	// Draft holds the answer in progress; nil starts a new one.
	Draft *Draft
	// Styles is asktui's look; nil picks the default for a dark terminal
	// (monochrome under NO_COLOR).
	Styles *styles.Styles
	// Keys are the bindings; nil means DefaultKeyMap().
	Keys *KeyMap
	// ConfirmHelp is what the help says Enter does: "submit" when it
	// sends the request, "next" when another question follows; empty
	// means "confirm".
	ConfirmHelp string
	// NextFieldOnConfirm makes a confirmation move the huh form on
	// (huh.NextField), as a field among others in a form expects. Leave
	// it off when the owner drives the field with Handle and decides
	// itself; Run sets it.
	NextFieldOnConfirm bool
}

// Choice is a huh.Field that picks one or several of a question's options,
// or takes a custom answer typed in its "Other" row. It renders only the
// visible rows.
type Choice struct {
	label   func(int) string // display label of option i
	n       int              // options
	descs   []string
	multi   bool
	noOther bool
	draft   *Draft
	st      *styles.Styles
	keys    *KeyMap
	key     string
	theme   huh.Theme
	pos     huh.FieldPosition

	width, height int
	focused       bool

	// filtered reports that matches (ascending option indices) replaces the
	// full option list.
	filtered bool
	matches  []int32
	index    *lowerIndex
	levels   []filterLevel

	row     int // cursor, as a row of the displayed list; nRows()-1 is Other
	nChosen int

	filterEditing   bool
	filterInput     textinput.Model
	otherInput      textinput.Model
	preFilterCursor int  // option the cursor was on when filtering began
	movedInFilter   bool // the human moved the cursor since the filter changed

	layouts   map[int32]*rowLayout
	rows      map[rowKey][]string
	layoutW   int
	layoutCap int
	g         glyphs
	p         paints
	view      string
	viewOK    bool
	pageRows  int // rows shown by the last render, for PgUp/PgDn

	confirmHelp string

	// done is set by the key Handle is taking when it confirms the
	// question.
	done bool
	// nextField moves huh on when confirmed (NextFieldOnConfirm).
	nextField bool
}

var _ huh.Field = (*Choice)(nil)

// NewChoice builds a Choice. It costs O(number of options) with a tiny
// constant; a draft with a filter also builds the filter index.
func NewChoice(cfg ChoiceConfig) *Choice {
	n, label := len(cfg.Labels), func(i int) string { return cfg.Labels[i] }
	if cfg.Label != nil {
		n, label = max(cfg.LabelCount, 0), cfg.Label
	}
	c := &Choice{
		label:           label,
		n:               n,
		multi:           cfg.Multi,
		noOther:         cfg.NoOther,
		draft:           cfg.Draft,
		st:              cfg.Styles,
		keys:            cfg.Keys,
		preFilterCursor: -1,
		pageRows:        10,
	}
	if len(cfg.Descriptions) == n {
		c.descs = cfg.Descriptions
	}
	if c.st == nil {
		c.st = styles.For(styles.ThemeAuto, true)
	}
	if c.keys == nil {
		c.keys = DefaultKeyMap()
	}
	if c.draft == nil {
		c.draft = NewDraft(n)
	}
	d := c.draft
	if len(d.Chosen) != n {
		chosen := make([]bool, n)
		copy(chosen, d.Chosen)
		d.Chosen = chosen
	}
	for _, v := range d.Chosen {
		if v {
			c.nChosen++
		}
	}
	if !c.multi && c.nChosen > 1 {
		// Keep the first: a single-select answer is one option.
		first := slices.Index(d.Chosen, true)
		clear(d.Chosen)
		d.Chosen[first] = true
		c.nChosen = 1
	}
	if c.noOther {
		d.OtherText, d.OtherChosen = "", false
	}

	c.confirmHelp = cfg.ConfirmHelp
	c.nextField = cfg.NextFieldOnConfirm
	c.g = newGlyphs(c.st, c.multi)
	c.p = newPaints(c.st)
	c.filterInput = c.newInput("/", "filter options")
	c.otherInput = c.newInput("Other: ", "type your own answer")
	c.otherInput.SetValue(d.OtherText)
	c.otherInput.CursorEnd()

	if d.Filter != "" {
		c.matches = c.matchesFor(d.Filter)
		c.filtered = true
	}
	c.row = c.rowOf(min(max(d.Cursor, 0), n))
	d.Offset = max(d.Offset, 0)
	c.sync()
	return c
}

func (c *Choice) newInput(prompt, placeholder string) textinput.Model {
	in := textinput.New()
	in.Prompt = prompt
	in.Placeholder = placeholder
	c.styleInput(&in)
	return in
}

// styleInput gives a text input the field's look.
func (c *Choice) styleInput(in *textinput.Model) {
	s := in.Styles()
	o := c.st.Option
	s.Focused.Prompt = o.Focused
	s.Focused.Text = o.Label
	s.Focused.Placeholder = o.Description
	s.Focused.Suggestion = o.Description
	s.Blurred = s.Focused
	s.Blurred.Prompt = o.Other
	s.Cursor.Color = o.Cursor.GetForeground()
	s.Cursor.Blink = false // a blinking cursor would redraw the list twice a second
	in.SetStyles(s)
}

// SetStyles gives the field another look (after the terminal reported its
// background, say), keeping everything the human did.
func (c *Choice) SetStyles(st *styles.Styles) {
	if st == nil || st == c.st {
		return
	}
	c.st = st
	c.g = newGlyphs(st, c.multi)
	c.p = newPaints(st)
	c.styleInput(&c.filterInput)
	c.styleInput(&c.otherInput)
	c.layouts = nil // cached rows carry the old styles
	c.viewOK = false
}

// SetConfirmHelp changes what the help says Enter does (see
// ChoiceConfig.ConfirmHelp).
func (c *Choice) SetConfirmHelp(s string) { c.confirmHelp = s }

// Key sets the key the form stores the field's value under.
func (c *Choice) Key(k string) *Choice {
	c.key = k
	return c
}

// Draft returns the draft the field edits.
func (c *Choice) Draft() *Draft { return c.draft }

// Typing reports whether keys go to a text input: the Other row is focused
// or the filter is being edited. The caller then must not treat letters,
// digits, space or arrows left/right as its own shortcuts.
func (c *Choice) Typing() bool {
	return c.focused && (c.filterEditing || c.onOther())
}

// Filtering reports whether a filter is being edited or is applied; Esc then
// clears it, so the caller should leave Esc to the field.
func (c *Choice) Filtering() bool { return c.filterEditing || c.filtered }

// PickRows is how many rows a digit picks now: the rows shown (a filter's
// matches, and Other), at most nine; 0 while the keys type text (on the
// filter line or the Other row), where a digit is text.
func (c *Choice) PickRows() int {
	if c.filterEditing || c.onOther() {
		return 0
	}
	return min(c.nRows(), len(pickKeys))
}

// EditingFilter reports whether the filter line has the keys: typing
// filters the options.
func (c *Choice) EditingFilter() bool { return c.filterEditing }

// nf is the number of option rows displayed.
func (c *Choice) nf() int {
	if c.filtered {
		return len(c.matches)
	}
	return c.n
}

// nRows counts the displayed rows, the Other row included.
func (c *Choice) nRows() int {
	if c.noOther {
		return c.nf()
	}
	return c.nf() + 1
}

// optionAt maps a displayed row to its option index (n = Other).
func (c *Choice) optionAt(row int) int {
	if row >= c.nf() {
		return c.n
	}
	if c.filtered {
		return int(c.matches[row])
	}
	return row
}

// rowOf maps an option index to its displayed row, or 0 when filtered out.
func (c *Choice) rowOf(opt int) int {
	if opt >= c.n {
		return c.nf()
	}
	if !c.filtered {
		return opt
	}
	if r, ok := slices.BinarySearch(c.matches, int32(opt)); ok { //nolint:gosec // an option index: a question has at most interaction.MaxOptions (100,000)
		return r
	}
	return 0
}

func (c *Choice) onOther() bool { return !c.noOther && c.row == c.nf() && !c.filterEditing }

// sync clamps the cursor, mirrors it into the draft, gives focus to the
// text input that should have it and marks the view stale.
func (c *Choice) sync() tea.Cmd {
	c.row = min(max(c.row, 0), max(c.nRows()-1, 0))
	c.draft.Cursor = c.optionAt(c.row)
	c.viewOK = false
	var cmd tea.Cmd
	if want := c.focused && c.onOther(); want != c.otherInput.Focused() {
		if want {
			c.otherInput.CursorEnd()
			cmd = c.otherInput.Focus()
		} else {
			c.otherInput.Blur()
		}
	}
	if want := c.focused && c.filterEditing; want != c.filterInput.Focused() {
		if want {
			c.filterInput.CursorEnd()
			cmd = tea.Batch(cmd, c.filterInput.Focus())
		} else {
			c.filterInput.Blur()
		}
	}
	return cmd
}

// Init implements huh.Field.
func (c *Choice) Init() tea.Cmd { return nil }

// Focus implements huh.Field.
func (c *Choice) Focus() tea.Cmd {
	c.focused = true
	return c.sync()
}

// Blur implements huh.Field.
func (c *Choice) Blur() tea.Cmd {
	c.focused = false
	return c.sync()
}

// Error implements huh.Field; a Choice never fails validation.
func (c *Choice) Error() error { return nil }

// Run runs the field on its own, as a one-field huh form.
func (c *Choice) Run() error {
	c.nextField = true
	return huh.Run(c)
}

// Skip implements huh.Field.
func (c *Choice) Skip() bool { return false }

// Zoom implements huh.Field.
func (c *Choice) Zoom() bool { return false }

// KeyBinds returns the bindings that apply now, for huh's help line.
func (c *Choice) KeyBinds() []key.Binding { return c.ShortHelp() }

// WithTheme implements huh.Field. The field draws with its Styles, which
// derive from the same palette as the huh theme.
func (c *Choice) WithTheme(t huh.Theme) huh.Field {
	c.theme = t
	c.viewOK = false
	return c
}

// WithKeyMap implements huh.Field; the field keeps its own KeyMap.
func (c *Choice) WithKeyMap(*huh.KeyMap) huh.Field { return c }

// WithWidth sets the columns the field may use.
func (c *Choice) WithWidth(w int) huh.Field {
	c.width = w
	c.viewOK = false
	return c
}

// WithHeight sets the lines the field may use, filter line, scroll
// indicators and Other row included.
//
// huh's group passes a height on only to a field whose view is taller.
// Until sized, the view claims more lines than any terminal has, so the
// form's first WithHeight always arrives; a later, larger height does not:
// when the space grows, call WithHeight on the field as well as the form.
func (c *Choice) WithHeight(h int) huh.Field {
	c.height = h
	c.viewOK = false
	return c
}

// WithPosition implements huh.Field.
func (c *Choice) WithPosition(p huh.FieldPosition) huh.Field {
	c.pos = p
	return c
}

// GetKey returns the key set with Key, or "".
func (c *Choice) GetKey() string { return c.key }

// GetValue returns the field's *Draft.
func (c *Choice) GetValue() any { return c.draft }

// Binding is one key the field answers to now, for an owner that
// dispatches keys and draws help from one table.
type Binding struct {
	// Key is the binding, with the help text a full list shows.
	Key key.Binding
	// Answers reports that the key changes or confirms the answer
	// (choosing, toggling, confirming); the others move the cursor or
	// filter.
	Answers bool
	// Bar is the entry a one-line help bar shows for the key, or nil
	// when the bar leaves it out (the second half of "↑/↓", say).
	Bar *key.Binding
}

// Bindings returns the keys that act in the field's current state, most
// important first: filter editing, the Other row, single- or
// multi-select. Letters and digits typed where Typing reports true go to
// the text input whether listed or not.
func (c *Choice) Bindings() []Binding {
	k := c.keys
	bar := func(b key.Binding) *key.Binding { return &b }
	confirm := relabel(k.Confirm, k.Confirm.Help().Key, c.confirmVerb())
	moves := func() []Binding {
		return []Binding{
			{Key: k.Up, Bar: bar(k.Move)},
			{Key: k.Down},
			{Key: k.PageUp},
			{Key: k.PageDown},
		}
	}
	var out []Binding
	switch {
	case c.filterEditing:
		out = append(out,
			Binding{Key: k.AcceptFilter, Bar: bar(k.AcceptFilter)},
			Binding{Key: k.ClearFilter, Bar: bar(k.ClearFilter)})
		out = append(out, moves()...)
		out = append(out, Binding{Key: c.typeHelpFor("type the filter")})
		return out
	case c.onOther():
		// Letters and digits are text here; only the arrows move.
		up := k.Options
		pgup := k.PageUp
		out = append(out, Binding{Key: c.typeHelpFor("type your answer"), Answers: true, Bar: bar(c.typeHelpFor("type"))})
		if strings.TrimSpace(c.draft.OtherText) != "" {
			out = append(out, Binding{Key: confirm, Answers: true, Bar: bar(confirm)})
		}
		out = append(out, Binding{Key: up, Bar: bar(up)}, Binding{Key: pgup})
		if c.filtered {
			out = append(out, Binding{Key: k.ClearFilter, Bar: bar(k.ClearFilter)})
		}
		return out
	}
	pick := k.Pick
	if rows := min(c.nRows(), 9); rows < 9 {
		pick = pickRows(rows)
	}
	if c.multi {
		pick = relabel(pick, pick.Help().Key, "toggle")
		out = append(out,
			Binding{Key: relabel(k.Toggle, k.ToggleKeys.Help().Key, "toggle"), Answers: true, Bar: bar(k.Toggle)},
			Binding{Key: confirm, Answers: true, Bar: bar(confirm)})
	} else {
		pick = relabel(pick, pick.Help().Key, "choose")
		out = append(out, Binding{Key: confirm, Answers: true, Bar: bar(confirm)})
	}
	out = append(out, moves()...)
	if c.nRows() > 0 {
		out = append(out, Binding{Key: pick, Answers: true, Bar: bar(pick)})
	}
	out = append(out, Binding{Key: k.Home}, Binding{Key: k.End})
	if c.multi {
		out = append(out, Binding{Key: k.SelectAll, Answers: true})
	}
	out = append(out, Binding{Key: k.Filter, Bar: bar(k.Filter)})
	if c.filtered {
		out = append(out, Binding{Key: k.ClearFilter, Bar: bar(k.ClearFilter)})
	}
	return out
}

// typeHelpFor is a help-only binding for typing text.
func (c *Choice) typeHelpFor(desc string) key.Binding {
	return relabel(c.keys.Type, c.keys.Type.Help().Key, desc)
}

// ShortHelp returns the bindings that apply now, for a help bar (see
// Bindings).
func (c *Choice) ShortHelp() []key.Binding {
	var out []key.Binding
	for _, b := range c.Bindings() {
		if b.Bar != nil {
			out = append(out, *b.Bar)
		}
	}
	return out
}

// confirmVerb is what Enter does, for the help.
func (c *Choice) confirmVerb() string {
	if c.confirmHelp != "" {
		return c.confirmHelp
	}
	return "confirm"
}

// FullHelp returns all the bindings, grouped: movement, answering,
// filtering.
func (c *Choice) FullHelp() [][]key.Binding {
	k := c.keys
	move := []key.Binding{k.Up, k.Down, k.PageUp, k.PageDown, k.Home, k.End}
	confirm := relabel(k.Confirm, k.Confirm.Help().Key, c.confirmVerb())
	var answer []key.Binding
	if c.multi {
		answer = []key.Binding{relabel(k.Toggle, k.ToggleKeys.Help().Key, "toggle"), relabel(k.Pick, k.Pick.Help().Key, "toggle"), k.SelectAll, confirm}
	} else {
		answer = []key.Binding{relabel(k.Pick, k.Pick.Help().Key, "choose"), confirm}
	}
	answer = append(answer, c.typeHelpFor("type on the Other row"))
	return [][]key.Binding{move, answer, {k.Filter, k.AcceptFilter, k.ClearFilter}}
}

// relabel returns b with other help text; it matches b's keys.
func relabel(b key.Binding, helpKey, desc string) key.Binding {
	b.SetHelp(helpKey, desc)
	return b
}

// RunAccessible runs the field as plain prompts for screen readers: a
// numbered huh Select (or MultiSelect) of the options plus "Other", then a
// text prompt when Other is chosen. The answer goes into the Draft.
func (c *Choice) RunAccessible(w io.Writer, r io.Reader) error {
	return c.runAccessible(w, r)
}

// width and height in effect.
const (
	defaultWidth = 80
	// naturalHeight is the height of the view before a height is set. huh
	// tells a field its height only when its view is taller than the form,
	// so it must exceed any terminal's height.
	naturalHeight = 120
)

func (c *Choice) viewWidth() int {
	if c.width > 0 {
		return c.width
	}
	return defaultWidth
}

func (c *Choice) viewHeight() int {
	if c.height > 0 {
		return c.height
	}
	return naturalHeight
}
