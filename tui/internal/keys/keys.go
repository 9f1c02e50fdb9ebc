// Package keys is the one key table of asktui's screen: every key it
// answers to and every name of a key it shows, one part per pane. The
// panes build their actions from it; the same actions dispatch keys,
// draw the help bar and the ? overlay, and make docs/keys.md. Every hint
// on screen that names a key takes the name from a binding here (Name),
// and a test fails on a key spelled anywhere else in tui.
package keys

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/asktui/asktui/tui/field"
)

// Map is the one key table of the program, one part per pane: every
// key asktui answers to and every name of a key it shows. The panes build
// their actions from it (each action a binding and what it does), and the
// same actions dispatch keys (with key.Matches), draw the help bar and the
// ? overlay, and make docs/keys.md (TestKeyReference); every hint on
// screen that names a key takes the name from a binding here (Name),
// and TestKeysNamedOnlyInTheTable fails when a key is spelled anywhere
// else. The option list's part is field.KeyMap.
type Map struct {
	// Global keys work in every mode but the help overlay and the
	// confirmation dialog (there only Quit does).
	Global Global
	// Question keys work while a question is shown; the option list adds
	// its own (Choice).
	Question Question
	// Choice is the option list's table, shared by every option question.
	Choice *field.KeyMap
	// Review keys work on the review step of a request.
	Review Review
	// Confirm keys answer a confirmation dialog.
	Confirm Confirm
	// Inbox keys move through the waiting requests while the inbox has the
	// focus.
	Inbox Inbox
	// Activity keys scroll the activity pane while it has the focus.
	Activity Activity
	// Past keys browse the answers given in this session.
	Past Past
	// Overlay keys close the full help.
	Overlay Overlay
	// Note keys edit the note on a question.
	Note Note
	// Remember keys make a permission's answer stand: the dialog that
	// saves it as a rule.
	Remember Remember
	// Rules keys list, edit and remove the rules.
	Rules Rules
	// Prompt keys edit and send a prompt to an agent (asktui run).
	Prompt Prompt
	// Transcript keys move through an agent's transcript with the focus.
	Transcript Transcript
	// Agents keys choose, start or resume an agent in the picker.
	Agents Agents
	// Accessible keys are what the accessible mode's prompts say.
	Accessible Accessible
}

// Accessible is the keys of the accessible mode's plain prompts:
// what they tell a screen reader's user.
type Accessible struct {
	// Decline ends the input (ctrl+d on a terminal), which declines the
	// request; Skip leaves a free-text question unanswered.
	Decline, Skip key.Binding
}

// Note is the note editor's keys.
type Note struct {
	// Save keeps the note, Cancel drops the edit, NewLine breaks a line.
	Save, Cancel, NewLine key.Binding
}

// Remember is the remember dialog's keys.
type Remember struct {
	// Save saves the rule and answers the question with it; SaveOnly, the
	// same key, saves a rule not known to cover the call on screen, which
	// answers nothing; Back returns to the question untouched.
	Save, SaveOnly, Back key.Binding
	// NextRow and PrevRow move between the dialog's rows (the answer, the
	// rule, whom it is for); Rows is the help's one entry for both.
	NextRow, PrevRow, Rows key.Binding
	// Switch switches the answer (allow or deny) or whom the rule is for,
	// on their rows.
	Switch key.Binding
	// Up and Down pick a suggested rule on the rule's row (Suggest is the
	// help's one entry for both).
	Up, Down, Suggest key.Binding
}

// Rules is the rules pane's keys.
type Rules struct {
	// Up and Down move (Move is the help's one entry for both); Edit
	// edits the rule under the cursor, Remove removes it (after a
	// confirmation); Back closes the pane.
	Up, Down, Move, Edit, Remove, Back key.Binding
	// Save keeps an edited rule; Cancel drops the edit.
	Save, Cancel key.Binding
}

// Prompt is the prompt editor's keys.
type Prompt struct {
	// Send sends the prompt; NewLine breaks its line.
	Send, NewLine key.Binding
	// Choose is the help's one entry for CompleteUp and CompleteDown.
	Choose key.Binding
	// HistoryPrev and HistoryNext browse the prompts sent before (↑ on
	// an empty editor, or its first line while browsing).
	HistoryPrev, HistoryNext key.Binding
	// Cancel cancels the agent's turn in progress.
	Cancel key.Binding
	// Mode switches to the agent's next mode.
	Mode key.Binding
	// Complete takes the completion under the cursor, CompleteUp and
	// CompleteDown move through the completions, Dismiss closes them.
	Complete, CompleteUp, CompleteDown, Dismiss key.Binding
	// Mention and Command are typed to start a completion: "@" a file,
	// "/" one of the agent's commands. They are help only.
	Mention, Command key.Binding
}

// Transcript is the transcript's keys while it has the focus.
type Transcript struct {
	// Up and Down move the cursor from item to item (Move is the help's
	// one entry for both); PageUp, PageDown and End scroll.
	Up, Down, Move, PageUp, PageDown, End key.Binding
	// Expand shows the whole of the item under the cursor (a long tool
	// output, a thought), or folds it again.
	Expand key.Binding
	// Thoughts shows or folds every thought.
	Thoughts key.Binding
	// DiffLayout shows diffs side by side, or unified.
	DiffLayout key.Binding
	// Back returns to the prompt.
	Back key.Binding
}

// Agents is the agent picker's keys.
type Agents struct {
	// Up and Down move (Move is the help's one entry for both); Open
	// switches to, starts or resumes the agent under the cursor; Back
	// closes the picker.
	Up, Down, Move, Open, Back key.Binding
}

// Global is the keys shared by the modes.
type Global struct {
	// Quit closes asktui; every waiting request fails with PROVIDER_CLOSED.
	Quit key.Binding
	// Help opens the full help. "?" types text in a text field, where
	// only HelpTyping (F1) opens it.
	Help, HelpTyping key.Binding
	// NextRequest and PrevRequest show the next or previous waiting
	// request (session view); the drafts stay with each. SwitchRequest
	// is the help's one entry for both.
	NextRequest, PrevRequest, SwitchRequest key.Binding
	// Inbox moves the focus to the list of waiting requests.
	Inbox key.Binding
	// Activity moves the focus to the activity pane.
	Activity key.Binding
	// Past lists the answers given in this session.
	Past key.Binding
	// Agents opens the agent picker (asktui run): switch to another
	// agent, start one, or resume a past session.
	Agents key.Binding
	// Prompt moves the focus to the prompt editor (asktui run), leaving
	// the questions waiting.
	Prompt key.Binding
	// Rules opens the rules pane: the standing answers to permissions.
	Rules key.Binding
}

// Question is the question panel's keys.
type Question struct {
	// NextTab and PrevTab move between the questions of a request and its
	// review step (Tabs is the help's one entry for both); NextArrow and
	// PrevArrow do the same with the arrows when the keys are not typing
	// text.
	NextTab, PrevTab, Tabs, NextArrow, PrevArrow key.Binding
	// Decline asks to decline the whole request.
	Decline key.Binding
	// ScrollUp and ScrollDown scroll a question text too long for the
	// screen; Scroll is the help's one entry for both.
	ScrollUp, ScrollDown, Scroll key.Binding
	// PageUp and PageDown scroll a plan under review a page at a time
	// (its choices are few, and need no pages); Page is the help's one
	// entry for both.
	PageUp, PageDown, Page key.Binding
	// TextSubmit confirms a free-text answer; NewLine breaks its line.
	TextSubmit, NewLine key.Binding
	// Note writes a note on the answer (on an option question); Raw shows
	// the detail and previews as sent, or rendered.
	Note, Raw key.Binding
	// Remember answers a permission and makes the answer stand: it opens
	// the dialog that saves it as a rule.
	Remember key.Binding
}

// Review is the review step's keys.
type Review struct {
	// Submit sends the answers.
	Submit key.Binding
	// Jump opens question 1–9 to change its answer.
	Jump key.Binding
	// NextTab and PrevTab leave the review for the first or last question;
	// Tabs is the help's one entry for both.
	NextTab, PrevTab, Tabs key.Binding
	// Decline asks to decline the whole request.
	Decline key.Binding
	// ScrollUp and ScrollDown scroll a long review.
	ScrollUp, ScrollDown key.Binding
}

// Confirm is a confirmation dialog's keys.
type Confirm struct {
	// Yes takes the action, No goes back; Press acts on the focused button
	// and Switch moves the focus between the two.
	Yes, No, Press, Switch key.Binding
}

// Inbox is the inbox's keys while it has the focus.
type Inbox struct {
	// Up and Down move through the requests (Move is the help's one entry
	// for both); Open shows the one under the cursor; Back returns to the
	// question without switching.
	Up, Down, Move, Open, Back key.Binding
}

// Activity is the activity pane's keys while it has the focus.
type Activity struct {
	// Up and Down scroll a line (Scroll is the help's one entry for
	// both), PageUp and PageDown a page; End follows the newest entry
	// again. Back returns the focus to the question.
	Up, Down, Scroll, PageUp, PageDown, End, Back key.Binding
}

// Past is the past answers list's keys.
type Past struct {
	// Up and Down move (Move is the help's one entry for both); Copy
	// copies the focused answer's JSON to the clipboard (OSC 52); Back
	// closes the list.
	Up, Down, Move, Copy, Back key.Binding
}

// Overlay is the full help overlay's keys.
type Overlay struct {
	// Close closes the overlay.
	Close key.Binding
	// Up, Down, PageUp and PageDown scroll a list longer than the screen;
	// Scroll is the bar's one entry for Down and Up, Letters the title's
	// for their letters.
	Up, Down, PageUp, PageDown, Scroll, Letters key.Binding
}

// Default returns asktui's bindings.
func Default() Map {
	k := base()
	g := &k.Global
	g.HelpTyping = key.NewBinding(key.WithKeys("f1"), key.WithHelp("f1", g.Help.Help().Desc))
	g.SwitchRequest = pair(g.NextRequest, g.PrevRequest, "ctrl+n/p", "switch request")
	k.Question.Tabs = pair(k.Question.NextTab, k.Question.PrevTab, "tab/⇧tab", "questions")
	k.Question.Scroll = pair(k.Question.ScrollUp, k.Question.ScrollDown, "⇧↑/⇧↓", "scroll the question")
	k.Question.Page = pair(k.Question.PageUp, k.Question.PageDown, "pgup/pgdn", "scroll the plan a page")
	k.Review.Tabs = pair(k.Review.NextTab, k.Review.PrevTab, "tab/⇧tab", "questions")
	k.Inbox.Move = pair(k.Inbox.Up, k.Inbox.Down, "↑/↓", "move")
	k.Activity.Scroll = pair(k.Activity.Up, k.Activity.Down, "↑/↓", "scroll")
	k.Past.Move = pair(k.Past.Up, k.Past.Down, "↑/↓", "move")
	k.Agents.Move = pair(k.Agents.Up, k.Agents.Down, "↑/↓", "move")
	k.Remember.Rows = pair(k.Remember.NextRow, k.Remember.PrevRow, "tab/⇧tab", "rows")
	k.Remember.Suggest = pair(k.Remember.Up, k.Remember.Down, "↑/↓", "suggested rules")
	k.Rules.Move = pair(k.Rules.Up, k.Rules.Down, "↑/↓", "move")
	k.Transcript.Move = pair(k.Transcript.Up, k.Transcript.Down, "↑/↓", "items")
	k.Prompt.Choose = pair(k.Prompt.CompleteUp, k.Prompt.CompleteDown, "↑/↓", "choose")
	k.Overlay.Scroll = pair(k.Overlay.Down, k.Overlay.Up, "↓/↑", "scroll")
	k.Overlay.Letters = key.NewBinding(key.WithKeys("j", "k"), key.WithHelp("j/k", "scroll"))
	return k
}

// base is the table's bindings, each with its help text.
func base() Map {
	b := func(keys []string, helpKey, desc string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(helpKey, desc))
	}
	return Map{
		Global: Global{
			Quit:        b([]string{"ctrl+c"}, "ctrl+c", "quit"),
			Help:        b([]string{"?", "f1"}, "?", "help"),
			NextRequest: b([]string{"ctrl+n"}, "ctrl+n", "next request"),
			PrevRequest: b([]string{"ctrl+p"}, "ctrl+p", "previous request"),
			Inbox:       b([]string{"ctrl+g"}, "ctrl+g", "inbox"),
			Activity:    b([]string{"ctrl+t"}, "ctrl+t", "activity"),
			Past:        b([]string{"ctrl+o"}, "ctrl+o", "past answers"),
			Agents:      b([]string{"ctrl+l"}, "ctrl+l", "agents"),
			Prompt:      b([]string{"ctrl+e"}, "ctrl+e", "write a prompt"),
			Rules:       b([]string{"ctrl+k"}, "ctrl+k", "rules"),
		},
		Question: Question{
			NextTab:    b([]string{"tab"}, "tab", "next question"),
			PrevTab:    b([]string{"shift+tab"}, "⇧tab", "previous question"),
			NextArrow:  b([]string{"right"}, "→", "next question"),
			PrevArrow:  b([]string{"left"}, "←", "previous question"),
			Decline:    b([]string{"esc"}, "esc", "decline"),
			ScrollUp:   b([]string{"shift+up", "alt+up"}, "⇧↑", "scroll the question up"),
			ScrollDown: b([]string{"shift+down", "alt+down"}, "⇧↓", "scroll the question down"),
			PageUp:     b([]string{"pgup"}, "pgup", "scroll the plan a page up"),
			PageDown:   b([]string{"pgdown"}, "pgdn", "scroll the plan a page down"),
			TextSubmit: b([]string{"enter"}, "enter", "confirm answer"),
			NewLine:    b([]string{"alt+enter", "ctrl+j"}, "alt+enter", "new line"),
			Note:       b([]string{"n"}, "n", "note"),
			Raw:        b([]string{"ctrl+r"}, "ctrl+r", "raw/rendered"),
			Remember:   b([]string{"a"}, "a", "always: save a rule"),
		},
		Choice: field.DefaultKeyMap(),
		Review: Review{
			Submit:     b([]string{"enter"}, "enter", "submit answers"),
			Jump:       b([]string{"1", "2", "3", "4", "5", "6", "7", "8", "9"}, "1-9", "change answer"),
			NextTab:    b([]string{"tab", "right"}, "tab", "first question"),
			PrevTab:    b([]string{"shift+tab", "left"}, "⇧tab", "last question"),
			Decline:    b([]string{"esc"}, "esc", "decline"),
			ScrollUp:   b([]string{"shift+up", "alt+up", "up", "k"}, "↑", "scroll up"),
			ScrollDown: b([]string{"shift+down", "alt+down", "down", "j"}, "↓", "scroll down"),
		},
		Confirm: Confirm{
			Yes:    b([]string{"y"}, "y", "yes"),
			No:     b([]string{"n", "esc"}, "n/esc", "go back"),
			Press:  b([]string{"enter"}, "enter", "press button"),
			Switch: b([]string{"tab", "shift+tab", "left", "right"}, "tab", "switch button"),
		},
		Inbox: Inbox{
			Up:   b([]string{"up", "k"}, "↑/k", "up"),
			Down: b([]string{"down", "j"}, "↓/j", "down"),
			Open: b([]string{"enter"}, "enter", "open request"),
			Back: b([]string{"esc", "ctrl+g"}, "esc", "back"),
		},
		Activity: Activity{
			Up:       b([]string{"up", "k"}, "↑/k", "older"),
			Down:     b([]string{"down", "j"}, "↓/j", "newer"),
			PageUp:   b([]string{"pgup", "b"}, "pgup", "page up"),
			PageDown: b([]string{"pgdown", "f"}, "pgdn", "page down"),
			End:      b([]string{"end", "G"}, "end", "follow newest"),
			Back:     b([]string{"esc", "ctrl+t"}, "esc", "back"),
		},
		Past: Past{
			Up:   b([]string{"up", "k"}, "↑/k", "up"),
			Down: b([]string{"down", "j"}, "↓/j", "down"),
			Copy: b([]string{"enter", "c", "y"}, "enter", "copy JSON"),
			Back: b([]string{"esc", "ctrl+o"}, "esc", "close"),
		},
		Overlay: Overlay{
			Close:    b([]string{"esc", "?", "q", "f1"}, "esc", "close help"),
			Up:       b([]string{"up", "k"}, "↑/k", "scroll up"),
			Down:     b([]string{"down", "j"}, "↓/j", "scroll down"),
			PageUp:   b([]string{"pgup", "b"}, "pgup", "page up"),
			PageDown: b([]string{"pgdown", "f", "space"}, "pgdn", "page down"),
		},
		Note: Note{
			Save:    b([]string{"enter"}, "enter", "keep note"),
			Cancel:  b([]string{"esc"}, "esc", "drop edit"),
			NewLine: b([]string{"alt+enter", "ctrl+j"}, "alt+enter", "new line"),
		},
		Remember: Remember{
			Save:     b([]string{"enter"}, "enter", "save the rule and answer"),
			SaveOnly: b([]string{"enter"}, "enter", "save the rule only"),
			Back:     b([]string{"esc"}, "esc", "back to the question"),
			NextRow:  b([]string{"tab"}, "tab", "next row"),
			PrevRow:  b([]string{"shift+tab"}, "⇧tab", "previous row"),
			Switch:   b([]string{"left", "right", "space"}, "←/→", "switch"),
			Up:       b([]string{"up"}, "↑", "previous suggested rule"),
			Down:     b([]string{"down"}, "↓", "next suggested rule"),
		},
		Rules: Rules{
			Up:     b([]string{"up", "k"}, "↑/k", "up"),
			Down:   b([]string{"down", "j"}, "↓/j", "down"),
			Edit:   b([]string{"e", "enter"}, "e", "edit"),
			Remove: b([]string{"d", "delete"}, "d", "remove"),
			Back:   b([]string{"esc", "ctrl+k"}, "esc", "close"),
			Save:   b([]string{"enter"}, "enter", "save the rule"),
			Cancel: b([]string{"esc"}, "esc", "drop the edit"),
		},
		Prompt: Prompt{
			Send:         b([]string{"enter"}, "enter", "send"),
			NewLine:      b([]string{"alt+enter", "ctrl+j"}, "alt+enter", "new line"),
			HistoryPrev:  b([]string{"up"}, "↑", "earlier prompts"),
			HistoryNext:  b([]string{"down"}, "↓", "later prompts"),
			Cancel:       b([]string{"esc"}, "esc", "cancel the turn"),
			Mode:         b([]string{"shift+tab"}, "⇧tab", "next mode"),
			Complete:     b([]string{"tab", "enter"}, "tab", "complete"),
			CompleteUp:   b([]string{"up", "ctrl+p"}, "↑", "previous completion"),
			CompleteDown: b([]string{"down", "ctrl+n"}, "↓", "next completion"),
			Dismiss:      b([]string{"esc"}, "esc", "close completions"),
			Mention:      b([]string{"\x00@"}, "@", "mention a file"),
			Command:      b([]string{"\x00/"}, "/", "agent command"),
		},
		Transcript: Transcript{
			Up:         b([]string{"up", "k"}, "↑/k", "previous item"),
			Down:       b([]string{"down", "j"}, "↓/j", "next item"),
			PageUp:     b([]string{"pgup", "b"}, "pgup", "page up"),
			PageDown:   b([]string{"pgdown", "f"}, "pgdn", "page down"),
			End:        b([]string{"end", "G"}, "end", "newest"),
			Expand:     b([]string{"enter", "space"}, "enter", "expand/fold"),
			Thoughts:   b([]string{"t"}, "t", "thoughts"),
			DiffLayout: b([]string{"d"}, "d", "diff side by side/unified"),
			Back:       b([]string{"esc", "ctrl+t"}, "esc", "back to the prompt"),
		},
		Agents: Agents{
			Up:   b([]string{"up", "k"}, "↑/k", "up"),
			Down: b([]string{"down", "j"}, "↓/j", "down"),
			Open: b([]string{"enter"}, "enter", "open"),
			Back: b([]string{"esc", "ctrl+l"}, "esc", "close"),
		},
		Accessible: Accessible{
			Decline: b([]string{"ctrl+d"}, "ctrl+d", "decline the request (at any prompt)"),
			Skip:    b([]string{"enter"}, "enter", "skip a free-text question"),
		},
	}
}

// Name is the name of b's key as the screen says it ("enter",
// "ctrl+g"): hints that name a key take it from the table.
func Name(b key.Binding) string { return b.Help().Key }

// FirstName is the first of b's names, where it has several ("n" of
// "n/esc").
func FirstName(b key.Binding) string {
	name, _, _ := strings.Cut(b.Help().Key, "/")
	return name
}

// pickDigits are the keys 1–9 that pick by number.
var pickDigits = []string{"1", "2", "3", "4", "5", "6", "7", "8", "9"}

// Digits is the binding of the digits 1 to n (at most 9), named
// "1-n", with b's description.
func Digits(b key.Binding, n int) key.Binding {
	n = min(max(n, 1), len(pickDigits))
	return key.NewBinding(key.WithKeys(pickDigits[:n]...), key.WithHelp("1-"+pickDigits[n-1], b.Help().Desc))
}

// DigitRange names the digits 1 to n in a sentence: "1–3", or "1" for
// one.
func DigitRange(n int) string {
	if n <= 1 {
		return pickDigits[0]
	}
	return "1–" + pickDigits[min(n, len(pickDigits))-1]
}

// pair is one help entry for two bindings that differ only in direction,
// such as ctrl+n and ctrl+p: the short help has room for one. It matches
// both keys.
func pair(a, b key.Binding, helpKey, desc string) key.Binding {
	return key.NewBinding(key.WithKeys(append(append([]string{}, a.Keys()...), b.Keys()...)...), key.WithHelp(helpKey, desc))
}

// Relabel returns b with other help text; the keys it matches are b's.
func Relabel(b key.Binding, helpKey, desc string) key.Binding {
	b.SetHelp(helpKey, desc)
	return b
}

// namedKeys are the key names Parse understands, as tui.Program.Press takes
// them (built on first use: package initialisers stay small); any other
// string is typed rune by rune.
var namedKeys = sync.OnceValue(func() map[string]tea.Key {
	return map[string]tea.Key{
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
		"f1":         {Code: tea.KeyF1},
		"alt+enter":  {Code: tea.KeyEnter, Mod: tea.ModAlt},
		"ctrl+a":     {Code: 'a', Mod: tea.ModCtrl},
		"ctrl+c":     {Code: 'c', Mod: tea.ModCtrl},
		"ctrl+e":     {Code: 'e', Mod: tea.ModCtrl},
		"ctrl+g":     {Code: 'g', Mod: tea.ModCtrl},
		"ctrl+l":     {Code: 'l', Mod: tea.ModCtrl},
		"ctrl+n":     {Code: 'n', Mod: tea.ModCtrl},
		"ctrl+p":     {Code: 'p', Mod: tea.ModCtrl},
		"ctrl+t":     {Code: 't', Mod: tea.ModCtrl},
		"ctrl+u":     {Code: 'u', Mod: tea.ModCtrl},
		"ctrl+o":     {Code: 'o', Mod: tea.ModCtrl},
		"ctrl+r":     {Code: 'r', Mod: tea.ModCtrl},
		"ctrl+k":     {Code: 'k', Mod: tea.ModCtrl},
		"delete":     {Code: tea.KeyDelete},
	}
})

// Parse turns a key name ("enter", "shift+tab", "space") into its key
// press, or any other text into one press per rune. A name with a "+"
// that is not known is an error rather than text, to catch typos.
func Parse(name string) ([]tea.KeyPressMsg, error) {
	if k, ok := namedKeys()[name]; ok {
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

// Overlap reports whether bindings a and b share a key.
func Overlap(a, b key.Binding) bool {
	for _, k := range a.Keys() {
		if slices.Contains(b.Keys(), k) {
			return true
		}
	}
	return false
}
