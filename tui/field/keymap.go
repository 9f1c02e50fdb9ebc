package field

import "charm.land/bubbles/v2/key"

// KeyMap holds the Choice field's key bindings. Every binding carries help
// text, so the same table drives both dispatch and the help bar.
type KeyMap struct {
	// Up and Down move the cursor one row; PageUp and PageDown one screen;
	// Home and End to the first and the last option.
	Up, Down, PageUp, PageDown, Home, End key.Binding
	// Toggle checks or unchecks the focused option (multi-select).
	Toggle key.Binding
	// Confirm chooses the focused option (single-select) or confirms the
	// checked ones (multi-select).
	Confirm key.Binding
	// Pick acts on one of the first nine rows by number: it chooses it
	// (single-select) or toggles it (multi-select).
	Pick key.Binding
	// Filter starts editing the filter; ClearFilter removes it;
	// AcceptFilter stops editing and keeps it applied.
	Filter, ClearFilter, AcceptFilter key.Binding
	// SelectAll checks every visible option, or unchecks them all when they
	// are all checked already (multi-select).
	SelectAll key.Binding
	// Move is the help bar's one entry for Up and Down; Options is Up on
	// the Other row, where only the arrow moves (letters are text there).
	Move, Options key.Binding
	// ToggleKeys names every key of Toggle, for a full list of the keys.
	ToggleKeys key.Binding
	// Type is help only, matching no key: letters typed into the filter
	// or the Other row.
	Type key.Binding
}

// DefaultKeyMap returns the default bindings: arrows and j/k, PgUp/PgDn,
// Home/End and g/G, space or x to toggle, enter to confirm, 1–9 to pick,
// / to filter, esc to clear the filter and ctrl+a to check all.
func DefaultKeyMap() *KeyMap {
	return &KeyMap{
		Up:           key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "up")),
		Down:         key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "down")),
		PageUp:       key.NewBinding(key.WithKeys("pgup"), key.WithHelp("pgup", "page up")),
		PageDown:     key.NewBinding(key.WithKeys("pgdown"), key.WithHelp("pgdn", "page down")),
		Home:         key.NewBinding(key.WithKeys("home", "g"), key.WithHelp("g/home", "first")),
		End:          key.NewBinding(key.WithKeys("end", "G"), key.WithHelp("G/end", "last")),
		Toggle:       key.NewBinding(key.WithKeys("space", "x"), key.WithHelp("space", "toggle")),
		Confirm:      key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "confirm")),
		Pick:         key.NewBinding(key.WithKeys("1", "2", "3", "4", "5", "6", "7", "8", "9"), key.WithHelp("1-9", "pick")),
		Filter:       key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "filter")),
		ClearFilter:  key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "clear filter")),
		AcceptFilter: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "apply filter")),
		SelectAll:    key.NewBinding(key.WithKeys("ctrl+a"), key.WithHelp("ctrl+a", "all/none")),
		Move:         key.NewBinding(key.WithKeys("up", "k", "down", "j"), key.WithHelp("↑/↓", "move")),
		Options:      key.NewBinding(key.WithKeys("up"), key.WithHelp("↑", "options")),
		ToggleKeys:   key.NewBinding(key.WithKeys("space", "x"), key.WithHelp("space/x", "toggle")),
		Type:         key.NewBinding(key.WithKeys("\x00type"), key.WithHelp("a-z", "type")),
	}
}

// pickKeys are the digits of the Pick binding, in order.
var pickKeys = []string{"1", "2", "3", "4", "5", "6", "7", "8", "9"}

// pickRows is Pick for the first rows rows only (fewer than nine),
// named after them: "1-3", or "1" for one.
func pickRows(rows int) key.Binding {
	rows = min(max(rows, 1), len(pickKeys))
	name := "1-" + pickKeys[rows-1]
	if rows == 1 {
		name = pickKeys[0]
	}
	return key.NewBinding(key.WithKeys(pickKeys[:rows]...), key.WithHelp(name, ""))
}
