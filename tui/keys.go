package tui

import (
	"fmt"
	"strings"
	"sync"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/asktui/asktui/tui/field"
)

// KeyMap holds every binding of the program, one table per pane. The
// panes build their actions from it (each action a binding and what it
// does), and the same actions dispatch keys (with key.Matches) and draw
// the help bar and the ? overlay; the key reference of docs/keys.md is
// generated from it too (see [KeyReference]), so they never disagree.
type KeyMap struct {
	// Global keys work in every mode but the help overlay and the
	// confirmation dialog (there only Quit does).
	Global GlobalKeyMap
	// Question keys work while a question is shown; the option list adds
	// its own (Choice).
	Question QuestionKeyMap
	// Choice is the option list's table, shared by every option question.
	Choice *field.KeyMap
	// Review keys work on the review step of a request.
	Review ReviewKeyMap
	// Confirm keys answer a confirmation dialog.
	Confirm ConfirmKeyMap
	// Inbox keys move through the waiting requests while the inbox has the
	// focus.
	Inbox InboxKeyMap
	// Activity keys scroll the activity pane while it has the focus.
	Activity ActivityKeyMap
	// Past keys browse the answers given in this session.
	Past PastKeyMap
	// Overlay keys close the full help.
	Overlay OverlayKeyMap
	// Note keys edit the note on a question.
	Note NoteKeyMap
	// Prompt keys edit and send a prompt to an agent (asktui run).
	Prompt PromptKeyMap
	// Transcript keys move through an agent's transcript with the focus.
	Transcript TranscriptKeyMap
	// Agents keys choose, start or resume an agent in the picker.
	Agents AgentsKeyMap
}

// NoteKeyMap is the note editor's keys.
type NoteKeyMap struct {
	// Save keeps the note, Cancel drops the edit, NewLine breaks a line.
	Save, Cancel, NewLine key.Binding
}

// PromptKeyMap is the prompt editor's keys.
type PromptKeyMap struct {
	// Send sends the prompt; NewLine breaks its line.
	Send, NewLine key.Binding
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

// TranscriptKeyMap is the transcript's keys while it has the focus.
type TranscriptKeyMap struct {
	// Up and Down move the cursor from item to item; PageUp, PageDown and
	// End scroll.
	Up, Down, PageUp, PageDown, End key.Binding
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

// AgentsKeyMap is the agent picker's keys.
type AgentsKeyMap struct {
	// Up and Down move; Open switches to, starts or resumes the agent
	// under the cursor; Back closes the picker.
	Up, Down, Open, Back key.Binding
}

// GlobalKeyMap is the keys shared by the modes.
type GlobalKeyMap struct {
	// Quit closes asktui; every waiting request fails with PROVIDER_CLOSED.
	Quit key.Binding
	// Help opens the full help. "?" types text in a text field; F1 works
	// there too.
	Help key.Binding
	// NextRequest and PrevRequest show the next or previous waiting
	// request (session view); the drafts stay with each.
	NextRequest, PrevRequest key.Binding
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
}

// QuestionKeyMap is the question panel's keys.
type QuestionKeyMap struct {
	// NextTab and PrevTab move between the questions of a request and its
	// review step; NextArrow and PrevArrow do the same with →/← when the
	// keys are not typing text.
	NextTab, PrevTab, NextArrow, PrevArrow key.Binding
	// Decline asks to decline the whole request.
	Decline key.Binding
	// ScrollUp and ScrollDown scroll a question text too long for the
	// screen.
	ScrollUp, ScrollDown key.Binding
	// TextSubmit confirms a free-text answer; NewLine breaks its line.
	TextSubmit, NewLine key.Binding
	// Note writes a note on the answer (on an option question); Raw shows
	// the detail and previews as sent, or rendered.
	Note, Raw key.Binding
}

// ReviewKeyMap is the review step's keys.
type ReviewKeyMap struct {
	// Submit sends the answers.
	Submit key.Binding
	// Jump opens question 1–9 to change its answer.
	Jump key.Binding
	// NextTab and PrevTab leave the review for the first or last question.
	NextTab, PrevTab key.Binding
	// Decline asks to decline the whole request.
	Decline key.Binding
	// ScrollUp and ScrollDown scroll a long review.
	ScrollUp, ScrollDown key.Binding
}

// ConfirmKeyMap is a confirmation dialog's keys.
type ConfirmKeyMap struct {
	// Yes takes the action, No goes back; Press acts on the focused button
	// and Switch moves the focus between the two.
	Yes, No, Press, Switch key.Binding
}

// InboxKeyMap is the inbox's keys while it has the focus.
type InboxKeyMap struct {
	// Up and Down move through the requests; Open shows the one under the
	// cursor; Back returns to the question without switching.
	Up, Down, Open, Back key.Binding
}

// ActivityKeyMap is the activity pane's keys while it has the focus.
type ActivityKeyMap struct {
	// Up and Down scroll a line, PageUp and PageDown a page; End follows
	// the newest entry again. Back returns the focus to the question.
	Up, Down, PageUp, PageDown, End, Back key.Binding
}

// PastKeyMap is the past answers list's keys.
type PastKeyMap struct {
	// Up and Down move; Copy copies the focused answer's JSON to the
	// clipboard (OSC 52); Back closes the list.
	Up, Down, Copy, Back key.Binding
}

// OverlayKeyMap is the full help overlay's keys.
type OverlayKeyMap struct {
	// Close closes the overlay.
	Close key.Binding
	// Up, Down, PageUp and PageDown scroll a list longer than the screen.
	Up, Down, PageUp, PageDown key.Binding
}

// DefaultKeyMap returns asktui's default bindings.
func DefaultKeyMap() KeyMap {
	b := func(keys []string, helpKey, desc string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(helpKey, desc))
	}
	return KeyMap{
		Global: GlobalKeyMap{
			Quit:        b([]string{"ctrl+c"}, "ctrl+c", "quit"),
			Help:        b([]string{"?", "f1"}, "?", "help"),
			NextRequest: b([]string{"ctrl+n"}, "ctrl+n", "next request"),
			PrevRequest: b([]string{"ctrl+p"}, "ctrl+p", "previous request"),
			Inbox:       b([]string{"ctrl+g"}, "ctrl+g", "inbox"),
			Activity:    b([]string{"ctrl+t"}, "ctrl+t", "activity"),
			Past:        b([]string{"ctrl+o"}, "ctrl+o", "past answers"),
			Agents:      b([]string{"ctrl+l"}, "ctrl+l", "agents"),
			Prompt:      b([]string{"ctrl+e"}, "ctrl+e", "write a prompt"),
		},
		Question: QuestionKeyMap{
			NextTab:    b([]string{"tab"}, "tab", "next question"),
			PrevTab:    b([]string{"shift+tab"}, "⇧tab", "previous question"),
			NextArrow:  b([]string{"right"}, "→", "next question"),
			PrevArrow:  b([]string{"left"}, "←", "previous question"),
			Decline:    b([]string{"esc"}, "esc", "decline"),
			ScrollUp:   b([]string{"shift+up", "alt+up"}, "⇧↑", "scroll the question up"),
			ScrollDown: b([]string{"shift+down", "alt+down"}, "⇧↓", "scroll the question down"),
			TextSubmit: b([]string{"enter"}, "enter", "confirm answer"),
			NewLine:    b([]string{"alt+enter", "ctrl+j"}, "alt+enter", "new line"),
			Note:       b([]string{"n"}, "n", "note"),
			Raw:        b([]string{"ctrl+r"}, "ctrl+r", "raw/rendered"),
		},
		Choice: field.DefaultKeyMap(),
		Review: ReviewKeyMap{
			Submit:     b([]string{"enter"}, "enter", "submit answers"),
			Jump:       b([]string{"1", "2", "3", "4", "5", "6", "7", "8", "9"}, "1-9", "change answer"),
			NextTab:    b([]string{"tab", "right"}, "tab", "first question"),
			PrevTab:    b([]string{"shift+tab", "left"}, "⇧tab", "last question"),
			Decline:    b([]string{"esc"}, "esc", "decline"),
			ScrollUp:   b([]string{"shift+up", "alt+up", "up", "k"}, "↑", "scroll up"),
			ScrollDown: b([]string{"shift+down", "alt+down", "down", "j"}, "↓", "scroll down"),
		},
		Confirm: ConfirmKeyMap{
			Yes:    b([]string{"y"}, "y", "yes"),
			No:     b([]string{"n", "esc"}, "n/esc", "go back"),
			Press:  b([]string{"enter"}, "enter", "press button"),
			Switch: b([]string{"tab", "shift+tab", "left", "right"}, "tab", "switch button"),
		},
		Inbox: InboxKeyMap{
			Up:   b([]string{"up", "k"}, "↑/k", "up"),
			Down: b([]string{"down", "j"}, "↓/j", "down"),
			Open: b([]string{"enter"}, "enter", "open request"),
			Back: b([]string{"esc", "ctrl+g"}, "esc", "back"),
		},
		Activity: ActivityKeyMap{
			Up:       b([]string{"up", "k"}, "↑/k", "older"),
			Down:     b([]string{"down", "j"}, "↓/j", "newer"),
			PageUp:   b([]string{"pgup", "b"}, "pgup", "page up"),
			PageDown: b([]string{"pgdown", "f"}, "pgdn", "page down"),
			End:      b([]string{"end", "G"}, "end", "follow newest"),
			Back:     b([]string{"esc", "ctrl+t"}, "esc", "back"),
		},
		Past: PastKeyMap{
			Up:   b([]string{"up", "k"}, "↑/k", "up"),
			Down: b([]string{"down", "j"}, "↓/j", "down"),
			Copy: b([]string{"enter", "c", "y"}, "enter", "copy JSON"),
			Back: b([]string{"esc", "ctrl+o"}, "esc", "close"),
		},
		Overlay: OverlayKeyMap{
			Close:    b([]string{"esc", "?", "q", "f1"}, "esc", "close help"),
			Up:       b([]string{"up", "k"}, "↑/k", "scroll up"),
			Down:     b([]string{"down", "j"}, "↓/j", "scroll down"),
			PageUp:   b([]string{"pgup", "b"}, "pgup", "page up"),
			PageDown: b([]string{"pgdown", "f", "space"}, "pgdn", "page down"),
		},
		Note: NoteKeyMap{
			Save:    b([]string{"enter"}, "enter", "keep note"),
			Cancel:  b([]string{"esc"}, "esc", "drop edit"),
			NewLine: b([]string{"alt+enter", "ctrl+j"}, "alt+enter", "new line"),
		},
		Prompt: PromptKeyMap{
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
		Transcript: TranscriptKeyMap{
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
		Agents: AgentsKeyMap{
			Up:   b([]string{"up", "k"}, "↑/k", "up"),
			Down: b([]string{"down", "j"}, "↓/j", "down"),
			Open: b([]string{"enter"}, "enter", "open"),
			Back: b([]string{"esc", "ctrl+l"}, "esc", "close"),
		},
	}
}

// pair is one help entry for two bindings that differ only in direction,
// such as ctrl+n and ctrl+p: the short help has room for one. It matches
// both keys.
func pair(a, b key.Binding, helpKey, desc string) key.Binding {
	return key.NewBinding(key.WithKeys(append(append([]string{}, a.Keys()...), b.Keys()...)...), key.WithHelp(helpKey, desc))
}

// relabel returns b with other help text; the keys it matches are b's.
func relabel(b key.Binding, helpKey, desc string) key.Binding {
	b.SetHelp(helpKey, desc)
	return b
}

// namedKeys are the key names [Program.Press] understands (built on
// first use: package initialisers stay small); any other
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
	}
})

// parseKeys turns a key name ("enter", "shift+tab", "space") into its key
// press, or any other text into one press per rune. A name with a "+"
// that is not known is an error rather than text, to catch typos.
func parseKeys(name string) ([]tea.KeyPressMsg, error) {
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
