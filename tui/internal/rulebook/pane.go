package rulebook

import (
	"strconv"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/asktui/asktui/styles"
	"github.com/asktui/asktui/tui/internal/cell"
	"github.com/asktui/asktui/tui/internal/keys"
	"github.com/asktui/asktui/tui/internal/ui"
)

// Pane lists the human's rules (tui's Options.Rules), numbered, each as
// written and in words with how often it answered; it removes one after
// a confirmation, and edits one as its line (saved in its place, with
// its number). It reads the rules afresh when opened and
// after every change, in commands (ListedMsg); a rules file that
// cannot be used shows why instead of the list.
type Pane struct {
	ui.Box
	com  *ui.Common
	host Host

	list    RuleList
	listErr string
	loading bool // a read or a change is under way
	cursor  int

	// editing: the line of rule edit.Number, as it was (edit.Line),
	// changed in input; check is the line as it stands, or checkErr why
	// it is not a rule.
	editing  bool
	edit     RuleEntry
	input    textinput.Model
	check    RuleText
	checkErr string

	confirming bool // removing the rule under the cursor, once confirmed
}

// Host is what the rules pane asks of the program.
type Host interface {
	ui.Globals
	// Rules are the human's rules; nil when there are none to keep.
	Rules() Rules
	// Notice shows text on the status line.
	Notice(text string) tea.Cmd
	// GoBack closes the pane: the keys go back to where it was opened
	// from.
	GoBack()
}

var _ ui.Pane = (*Pane)(nil)

// New is the pane, drawing with com and asking host.
func New(com *ui.Common, host Host) Pane {
	return Pane{com: com, host: host}
}

// Restyle gives its edit field st's look (the Common's look, which the
// program has just replaced).
func (p *Pane) Restyle(st *styles.Styles) {
	restyleInput(&p.input, st)
}

// Open reads the rules afresh, the cursor on the first.
func (p *Pane) Open() tea.Cmd {
	p.editing, p.confirming, p.cursor = false, false, 0
	return p.change(func(Rules) (string, error) { return "", nil })
}

// change runs do on the rules in a command, then reads them again;
// the pane shows what came back (listed).
func (p *Pane) change(do func(Rules) (string, error)) tea.Cmd {
	rules := p.host.Rules()
	if rules == nil {
		return nil
	}
	p.loading = true
	return func() tea.Msg {
		done, err := do(rules)
		list, listErr := rules.List()
		return ListedMsg{list: list, listErr: listErr, done: done, err: err}
	}
}

// Listed takes the rules as read, and what the change did: a failed edit
// stays open with its error; any other result is the status line's.
func (p *Pane) Listed(msg ListedMsg) tea.Cmd {
	p.loading = false
	p.list, p.listErr = msg.list, ""
	if msg.listErr != nil {
		p.listErr = cell.SanitizeLine(msg.listErr.Error())
		p.list.Rules = nil
	}
	p.cursor = min(p.cursor, max(len(p.list.Rules)-1, 0))
	switch {
	case msg.err != nil && p.editing:
		p.checkErr = cell.SanitizeLine(msg.err.Error())
		return nil
	case msg.err != nil:
		p.confirming = false
		return p.host.Notice("✗ " + cell.SanitizeLine(msg.err.Error()))
	}
	p.editing, p.confirming = false, false
	p.input.Blur()
	if msg.done != "" {
		return p.host.Notice(msg.done)
	}
	return nil
}

// current is the rule under the cursor, if any.
func (p *Pane) current() (RuleEntry, bool) {
	if p.listErr != "" || p.cursor >= len(p.list.Rules) {
		return RuleEntry{}, false
	}
	return p.list.Rules[p.cursor], true
}

// startEdit edits the rule under the cursor, its line in the field.
func (p *Pane) startEdit() tea.Cmd {
	e, ok := p.current()
	if !ok {
		return nil
	}
	p.editing, p.edit = true, e
	p.input = newLineInput(p.com.Styles)
	p.input.SetWidth(max(p.Width()-2, 8))
	p.input.SetValue(e.Line)
	p.input.CursorEnd()
	p.recheck()
	return p.input.Focus()
}

// recheck reads the edited line.
func (p *Pane) recheck() {
	p.check, p.checkErr = RuleText{}, ""
	t, err := p.host.Rules().Check(strings.TrimSpace(p.input.Value()))
	if err != nil {
		p.checkErr = cell.SanitizeLine(err.Error())
		return
	}
	p.check = t
}

// saveEdit replaces the rule with the edited line.
func (p *Pane) saveEdit() tea.Cmd {
	if p.checkErr != "" || p.loading {
		return nil
	}
	old, line := p.edit, strings.TrimSpace(p.input.Value())
	if line == old.Line {
		p.editing = false
		p.input.Blur()
		return nil
	}
	return p.change(func(r Rules) (string, error) {
		e, err := r.Replace(old.Number, old.Line, line)
		if err != nil {
			return "", err
		}
		return "✓ Rule " + strconv.Itoa(old.Number) + " replaced by rule " + strconv.Itoa(e.Number) + ": " + cell.SanitizeLine(e.Line), nil
	})
}

// remove removes the rule under the cursor.
func (p *Pane) remove() tea.Cmd {
	e, ok := p.current()
	if !ok || p.loading {
		p.confirming = false
		return nil
	}
	return p.change(func(r Rules) (string, error) {
		if err := r.Remove(e.Number, e.Line); err != nil {
			return "", err
		}
		return "✓ Removed rule " + strconv.Itoa(e.Number) + ": " + cell.SanitizeLine(e.Line), nil
	})
}

// hits says how often a rule answered.
func hits(e RuleEntry) string {
	if e.Hits == 0 {
		return "never answered"
	}
	return cell.Plural(e.Hits, "answer", "answers") + ", last " + e.Last.Local().Format(time.DateTime[:16])
}

// View draws the pane in its size: the rules two rows each, scrolled to
// the cursor, and under them the edit or the confirmation.
func (p *Pane) View() string {
	st, width := p.com.Styles, max(p.Width(), 1)
	cut := func(s string) string { return ansi.Truncate(s, width, "…") }
	title := "Rules"
	if p.listErr == "" && !p.loading || len(p.list.Rules) > 0 {
		title += " · " + cell.Plural(len(p.list.Rules), "rule", "rules")
	}
	if p.list.Path != "" {
		title += " · " + cell.SanitizeLine(p.list.Path)
	}
	rows := []string{st.Review.Title.Render(cut(title)), ""}
	var foot []string
	switch {
	case p.editing:
		foot = append(foot, "", st.Dialog.Title.Render(cut("Edit rule "+strconv.Itoa(p.edit.Number))), p.input.View())
		if p.checkErr != "" {
			foot = append(foot, st.App.Error.Render(cell.WrapWords("✗ "+p.checkErr, width, st)))
		} else {
			foot = append(foot, st.Dialog.Body.Render(cell.WrapWords("→ "+cell.SanitizeLine(p.check.Words), width, st)))
		}
	case p.confirming:
		if e, ok := p.current(); ok {
			k := p.com.Keys.Confirm
			foot = append(foot, "", st.Dialog.Danger.Render(cut("Remove rule "+strconv.Itoa(e.Number)+"? "+cell.SanitizeLine(e.Line))),
				st.Dialog.Body.Render(cut(keys.FirstName(k.Yes)+" removes it, "+keys.Name(k.No)+" keeps it")))
		}
	}
	switch {
	case p.listErr != "":
		rows = append(rows, st.App.Error.Render(cell.WrapWords("✗ "+p.listErr, width, st)), "",
			st.App.Bar.Render(cell.WrapWords("No rule answers until the file is fixed (docs/rules.md); this pane reads it again when opened.", width, st)))
		return strings.Join(rows, "\n")
	case p.loading && len(p.list.Rules) == 0:
		rows = append(rows, st.App.Empty.Render(cut("Reading the rules…")))
		return strings.Join(rows, "\n")
	case len(p.list.Rules) == 0:
		rows = append(rows, st.App.Empty.Render(cut("No rules yet.")),
			st.App.Bar.Render(cell.WrapWords("On a permission, "+keys.Name(p.com.Keys.Question.Remember)+" answers it and saves a rule that answers the next ones like it.", width, st)))
		return strings.Join(rows, "\n")
	}
	room := max((p.Height()-len(rows)-cell.LineCount(strings.Join(foot, "\n"))+boolInt(len(foot) == 0))/2, 1)
	first := max(p.cursor-room+1, 0)
	num := len(strconv.Itoa(len(p.list.Rules)))
	for i := first; i < len(p.list.Rules) && i < first+room; i++ {
		e := p.list.Rules[i]
		mark, style := "  ", st.Inbox.Item
		if i == p.cursor {
			mark, style = st.Option.Cursor.String()+" ", st.Inbox.Active
		}
		n := strconv.Itoa(e.Number)
		n = strings.Repeat(" ", num-len(n)) + n
		rows = append(rows,
			cut(mark+st.Inbox.Meta.Render(n)+" "+style.Render(cell.SanitizeLine(e.Line))+st.Inbox.Meta.Render(" · "+hits(e))),
			cut(strings.Repeat(" ", num+3)+st.Inbox.Meta.Render(cell.SanitizeLine(e.Words))))
	}
	return strings.Join(append(rows, foot...), "\n")
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Actions are the pane's keys: moving, editing, removing, closing; while
// editing, saving or dropping the edit; while confirming, yes or no.
func (p *Pane) Actions() []ui.Action {
	k := p.com.Keys.Rules
	switch {
	case p.editing:
		return []ui.Action{
			ui.Answer(k.Save, func(ui.KeyMsg) tea.Cmd { return p.saveEdit() }).Kept().In("Rules"),
			ui.Move(k.Cancel, func(ui.KeyMsg) tea.Cmd {
				p.editing = false
				p.input.Blur()
				return nil
			}).Kept().In("Rules"),
			p.host.Help(true).InBar().In("Everywhere"),
			p.host.Quit(),
		}
	case p.confirming:
		c := p.com.Keys.Confirm
		return []ui.Action{
			ui.Answer(c.Yes, func(ui.KeyMsg) tea.Cmd { return p.remove() }).Kept().In("Dialog"),
			ui.Move(c.No, func(ui.KeyMsg) tea.Cmd { p.confirming = false; return nil }).Kept().In("Dialog"),
			p.host.Quit(),
		}
	}
	var out []ui.Action
	if _, ok := p.current(); ok && !p.loading {
		out = append(out,
			ui.Answer(k.Edit, func(ui.KeyMsg) tea.Cmd { return p.startEdit() }).InBar().In("Rules"),
			ui.Answer(k.Remove, func(ui.KeyMsg) tea.Cmd { p.confirming = true; return nil }).InBar().In("Rules"),
		)
	}
	if len(p.list.Rules) > 1 {
		out = append(out,
			ui.Move(k.Up, func(ui.KeyMsg) tea.Cmd { p.cursor = max(p.cursor-1, 0); return nil }).InBar(k.Move).In("Rules"),
			ui.Move(k.Down, func(ui.KeyMsg) tea.Cmd { p.cursor = min(p.cursor+1, len(p.list.Rules)-1); return nil }).In("Rules"),
		)
	}
	out = append(out, ui.Move(k.Back, func(ui.KeyMsg) tea.Cmd { p.host.GoBack(); return nil }).Kept().In("Rules"))
	return append(out, p.host.Globals(false)...)
}

// Typist edits the rule's line while the edit is open.
func (p *Pane) Typist() func(tea.Msg) tea.Cmd {
	if !p.editing {
		return nil
	}
	return func(msg tea.Msg) tea.Cmd {
		before := p.input.Value()
		var cmd tea.Cmd
		p.input, cmd = p.input.Update(msg)
		if p.input.Value() != before {
			p.recheck()
		}
		return cmd
	}
}

// Editing reports whether a rule's edit is open.
func (p *Pane) Editing() bool { return p.editing }

// Confirming reports whether the removal of a rule waits to be
// confirmed.
func (p *Pane) Confirming() bool { return p.confirming }

// SetSize sizes the pane and its edit field.
func (p *Pane) SetSize(width, height int) {
	p.Box.SetSize(width, height)
	p.input.SetWidth(max(width-2, 8))
}

// ShortHelp implements help.KeyMap.
func (p *Pane) ShortHelp() []key.Binding { return ui.ShortHelp(p) }

// FullHelp implements help.KeyMap.
func (p *Pane) FullHelp() [][]key.Binding { return ui.FullHelp(p) }
