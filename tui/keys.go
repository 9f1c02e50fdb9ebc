package tui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/asktui/asktui/tui/field"
)

// KeyMap is the root model's key bindings. The question panel adds the
// option list's own bindings (field.KeyMap) to the help bar.
type KeyMap struct {
	// NextTab and PrevTab move between the questions of a request and its
	// review step. NextTabArrow and PrevTabArrow do the same with ←/→,
	// except while typing, where the arrows move the text cursor.
	NextTab, PrevTab           key.Binding
	NextTabArrow, PrevTabArrow key.Binding
	// Submit sends the answers from the review step.
	Submit key.Binding
	// Decline asks to decline the request. A confirmation is answered with
	// Confirm or Back, or by Press on the focused button.
	Decline, Confirm, Back, Press key.Binding
	// ScrollUp and ScrollDown scroll a long question text.
	ScrollUp, ScrollDown key.Binding
	// NewLine inserts a line break in a free-text answer; TextSubmit
	// confirms one.
	NewLine, TextSubmit key.Binding
	// NextRequest and PrevRequest switch between waiting requests in the
	// session view; Activity moves the focus to the activity pane and back.
	NextRequest, PrevRequest, Activity key.Binding
	// Past opens the answers given in this session and closes them again;
	// Copy copies the focused one's JSON to the clipboard.
	Past, Copy key.Binding
	// LogUp, LogDown, LogPageUp, LogPageDown and LogEnd scroll the activity
	// pane while it has the focus.
	LogUp, LogDown, LogPageUp, LogPageDown, LogEnd key.Binding
	// Help toggles the full help; Quit closes asktui, failing every waiting
	// request with PROVIDER_CLOSED.
	Help, Quit key.Binding
}

// DefaultKeyMap returns asktui's default bindings.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		NextTab:      key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab/⇧tab", "question")),
		PrevTab:      key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("⇧tab", "previous question")),
		NextTabArrow: key.NewBinding(key.WithKeys("right"), key.WithHelp("←/→", "question")),
		PrevTabArrow: key.NewBinding(key.WithKeys("left"), key.WithHelp("←", "previous question")),
		Submit:       key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "submit answers")),
		Decline:      key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "decline")),
		Confirm:      key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "yes")),
		Press:        key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "choose")),
		Back:         key.NewBinding(key.WithKeys("esc", "n"), key.WithHelp("n/esc", "go back")),
		ScrollUp:     key.NewBinding(key.WithKeys("shift+up", "alt+up"), key.WithHelp("shift+↑/↓", "scroll question")),
		ScrollDown:   key.NewBinding(key.WithKeys("shift+down", "alt+down"), key.WithHelp("shift+↓", "scroll question down")),
		NewLine:      key.NewBinding(key.WithKeys("alt+enter", "ctrl+j"), key.WithHelp("alt+enter", "new line")),
		TextSubmit:   key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "confirm answer")),
		NextRequest:  key.NewBinding(key.WithKeys("ctrl+n"), key.WithHelp("ctrl+n/p", "next request")),
		PrevRequest:  key.NewBinding(key.WithKeys("ctrl+p"), key.WithHelp("ctrl+p", "previous request")),
		Activity:     key.NewBinding(key.WithKeys("ctrl+t"), key.WithHelp("ctrl+t", "activity")),
		Past:         key.NewBinding(key.WithKeys("ctrl+o"), key.WithHelp("ctrl+o", "past answers")),
		Copy:         key.NewBinding(key.WithKeys("enter", "c", "y"), key.WithHelp("enter/c", "copy JSON")),
		LogUp:        key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "older")),
		LogDown:      key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "newer")),
		LogPageUp:    key.NewBinding(key.WithKeys("pgup", "b"), key.WithHelp("pgup", "page up")),
		LogPageDown:  key.NewBinding(key.WithKeys("pgdown", "f"), key.WithHelp("pgdn", "page down")),
		LogEnd:       key.NewBinding(key.WithKeys("end", "G"), key.WithHelp("end", "follow")),
		Help:         key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "more")),
		Quit:         key.NewBinding(key.WithKeys("ctrl+c"), key.WithHelp("ctrl+c", "quit")),
	}
}

// helpKeys adapts a list of bindings to help.KeyMap for the one help.Model.
type helpKeys struct {
	short []key.Binding
	full  [][]key.Binding
	keep  []int // indexes into short that must stay when space is short
}

func (h helpKeys) ShortHelp() []key.Binding  { return h.short }
func (h helpKeys) FullHelp() [][]key.Binding { return h.full }

// fieldKeys is shared by every option list so their help stays consistent.
var fieldKeys = field.DefaultKeyMap()

// namedKeys are the key names [Program.Press] understands; any other
// string is typed rune by rune.
var namedKeys = map[string]tea.Key{
	"enter":      {Code: tea.KeyEnter},
	"esc":        {Code: tea.KeyEscape},
	"tab":        {Code: tea.KeyTab},
	"shift+tab":  {Code: tea.KeyTab, Mod: tea.ModShift},
	"up":         {Code: tea.KeyUp},
	"down":       {Code: tea.KeyDown},
	"left":       {Code: tea.KeyLeft},
	"right":      {Code: tea.KeyRight},
	"shift+up":   {Code: tea.KeyUp, Mod: tea.ModShift},
	"shift+down": {Code: tea.KeyDown, Mod: tea.ModShift},
	"space":      {Code: tea.KeySpace, Text: " "},
	"backspace":  {Code: tea.KeyBackspace},
	"home":       {Code: tea.KeyHome},
	"end":        {Code: tea.KeyEnd},
	"pgup":       {Code: tea.KeyPgUp},
	"pgdown":     {Code: tea.KeyPgDown},
	"alt+enter":  {Code: tea.KeyEnter, Mod: tea.ModAlt},
	"ctrl+c":     {Code: 'c', Mod: tea.ModCtrl},
	"ctrl+n":     {Code: 'n', Mod: tea.ModCtrl},
	"ctrl+p":     {Code: 'p', Mod: tea.ModCtrl},
	"ctrl+t":     {Code: 't', Mod: tea.ModCtrl},
	"ctrl+o":     {Code: 'o', Mod: tea.ModCtrl},
}

// parseKeys turns a key name ("enter", "shift+tab", "space") into its key
// press, or any other text into one press per rune. A name with a "+"
// that is not known is an error rather than text, to catch typos.
func parseKeys(name string) ([]tea.KeyPressMsg, error) {
	if k, ok := namedKeys[name]; ok {
		return []tea.KeyPressMsg{tea.KeyPressMsg(k)}, nil
	}
	if len(name) > 1 && strings.Contains(name, "+") && !strings.Contains(name, " ") {
		return nil, fmt.Errorf("unknown key %q", name)
	}
	out := make([]tea.KeyPressMsg, 0, len(name))
	for _, r := range name {
		out = append(out, tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	return out, nil
}
