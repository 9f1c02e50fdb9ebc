package tui

import (
	"strings"

	"charm.land/bubbles/v2/key"
)

// KeyReference returns the key reference as Markdown, one table per mode,
// generated from DefaultKeyMap: docs/keys.md is this text,
// and a test fails when the two disagree (refresh it with
// `go test ./tui -run TestKeyReference -update`).
func KeyReference() string {
	k := DefaultKeyMap()
	c := k.Choice
	q := k.Question
	sections := []struct {
		title string
		note  string
		keys  []key.Binding
	}{
		{"Answering a question", "", []key.Binding{
			c.Up, c.Down, c.PageUp, c.PageDown, c.Home, c.End,
			relabel(c.Pick, c.Pick.Help().Key, "choose that option (toggle it in multi-select)"),
			relabel(c.Toggle, "space/x", "toggle the option (multi-select)"),
			relabel(c.SelectAll, c.SelectAll.Help().Key, "check all or none (multi-select)"),
			relabel(c.Confirm, c.Confirm.Help().Key, "choose the option, or confirm the checked ones (with none checked, the one under the cursor); on the Other row, confirm the text typed (with none, keep typing)"),
			key.NewBinding(key.WithKeys("\x00type"), key.WithHelp("a-z", "type your own answer on the Other row (letters and digits are text there); it replaces the options, which stay checked, dimmed, and count again once the text is erased")),
			relabel(c.Filter, c.Filter.Help().Key, "filter the options"),
			relabel(c.AcceptFilter, c.AcceptFilter.Help().Key, "keep the filter (while typing it)"),
			c.ClearFilter,
			relabel(q.TextSubmit, q.TextSubmit.Help().Key, "confirm a free-text answer"),
			q.NewLine,
			q.NextTab, q.PrevTab,
			relabel(pair(q.NextArrow, q.PrevArrow, "←/→", ""), "←/→", "previous or next question (not while typing)"),
			pair(q.ScrollUp, q.ScrollDown, "⇧↑/⇧↓", "scroll a long question text"),
			relabel(q.Note, q.Note.Help().Key, "write a note that goes with the answer (option questions)"),
			relabel(q.Raw, q.Raw.Help().Key, "show the detail and previews as sent, or rendered"),
			relabel(q.Decline, q.Decline.Help().Key, "ask to decline the request (after clearing a filter)"),
		}},
		{"Note editor", "", []key.Binding{k.Note.Save, k.Note.NewLine, k.Note.Cancel}},
		{"Review step", "The last tab of a request with several questions.", []key.Binding{
			k.Review.Submit, relabel(k.Review.Jump, k.Review.Jump.Help().Key, "change the answer to that question"),
			relabel(pair(k.Review.NextTab, k.Review.PrevTab, "tab/⇧tab", ""), "tab/⇧tab", "first or last question"),
			pair(k.Review.ScrollUp, k.Review.ScrollDown, "↑/↓", "scroll"), k.Review.Decline,
		}},
		{"Confirmations", "Declining, skipping a lone question, submitting with unanswered questions.", []key.Binding{
			k.Confirm.Yes, relabel(k.Confirm.No, k.Confirm.No.Help().Key, "go back; every draft stays"), k.Confirm.Press, k.Confirm.Switch,
		}},
		{"Session view", "With `asktui serve` and `asktui demo`.", []key.Binding{
			k.Global.NextRequest, k.Global.PrevRequest,
			relabel(k.Global.Inbox, k.Global.Inbox.Help().Key, "move through the waiting requests (↑/↓, enter opens, esc goes back); with one waiting, open it"),
			relabel(k.Global.Activity, k.Global.Activity.Help().Key, "scroll the activity (↑/↓, pgup/pgdn, end follows, esc goes back)"),
			relabel(k.Global.Past, k.Global.Past.Help().Key, "past answers of this session (enter copies one's JSON to the clipboard, esc closes)"),
		}},
		{"Conversation view", "With `asktui run`: the prompt editor, the transcript and the agent picker.", []key.Binding{
			k.Prompt.Send, k.Prompt.NewLine,
			relabel(pair(k.Prompt.HistoryPrev, k.Prompt.HistoryNext, "↑/↓", ""), "↑/↓", "earlier and later prompts (on an empty editor)"),
			relabel(k.Prompt.Mention, "@", "mention a file of the working directory (completed as you type; tab takes it)"),
			relabel(k.Prompt.Command, "/", "run one of the agent's commands (completed)"),
			k.Prompt.Cancel, k.Prompt.Mode,
			relabel(k.Global.Activity, k.Global.Activity.Help().Key, "move through the transcript (↑/↓ items, enter expands, t thoughts, d diff layout, esc back)"),
			relabel(k.Global.Agents, k.Global.Agents.Help().Key, "agents: switch, start another, resume a past session"),
			relabel(k.Global.Prompt, k.Global.Prompt.Help().Key, "back to the prompt while questions wait"),
			relabel(k.Global.Inbox, k.Global.Inbox.Help().Key, "answer the questions waiting (a question never takes the keys from the prompt while you type, and one you left never comes back by itself: it waits, announced, until you open it here, with the inbox, or by switching back to its agent)"),
		}},
		{"Everywhere", "", []key.Binding{
			relabel(k.Global.Help, "?, f1", "the keys that act now (f1 while typing); j/k, ↑/↓ and pgup/pgdn scroll the list, esc closes"),
			relabel(k.Global.Quit, k.Global.Quit.Help().Key, "quit (exit 130 when a question is left unanswered, 0 when none waits); over SSH, close that view"),
		}},
	}
	var b strings.Builder
	for i, s := range sections {
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString("**" + s.title + ".**")
		if s.note != "" {
			b.WriteString(" " + s.note)
		}
		b.WriteString("\n\n| key | does |\n|---|---|\n")
		for _, kb := range s.keys {
			h := kb.Help()
			b.WriteString("| " + mdCell(h.Key) + " | " + mdCell(h.Desc) + " |\n")
		}
	}
	return b.String()
}

// mdCell escapes a Markdown table cell.
func mdCell(s string) string {
	return strings.NewReplacer("|", `\|`, "`", "\\`").Replace(s)
}
