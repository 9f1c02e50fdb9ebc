package rulebook

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/internal/sanitize"
	"github.com/asktui/asktui/styles"
	"github.com/asktui/asktui/tui/internal/cell"
	"github.com/asktui/asktui/tui/internal/keys"
	"github.com/asktui/asktui/tui/internal/ui"
)

// The remember dialog makes the answer to a permission stand: the human
// sees the call it is about, picks the answer (allow or deny), the rule
// (a suggested pattern, or one typed) and whom it is for (any agent in
// the project, or the asking agent's session), reads the rule in words
// and whether it covers the call, and saves it. The question is then
// answered as its once-option would be only when the rules, with the
// rule saved, answer the call that way: a rule that leaves a part of the
// call to the human (`go test:*` for `go test && rm -rf x`) is saved but
// answers nothing. Reading where the rule stands, whether it covers the
// call and saving it touch files, so they run in commands (PlanMsg,
// CoverMsg, SavedMsg); describing the rule as it is edited reads
// nothing.

// The dialog's rows.
const (
	rowAnswer = iota
	rowPattern
	rowWho
	rememberRows
)

// Dialog is the remember dialog, for one request at a time.
type Dialog struct {
	ui.Box
	com     *ui.Common
	globals ui.Globals
	// rules are the rules it asks; closed takes the panel back to the
	// question (esc).
	rules  Rules
	closed func()

	req  uint64
	perm *interaction.Permission

	ready   bool // the plan came
	plan    RulePlan
	planErr string

	deny    bool
	session bool
	row     int
	pick    int // the suggestion the pattern is; -1 once edited
	input   textinput.Model

	preview    RuleText // the rule as it stands, in words
	previewErr string   // why it is not a rule

	// What the rules, with the rule as it stands, would do with the call:
	// nil until the command asking them answers (coverErr: it failed).
	// gen counts the rule's changes, so that an answer about an earlier
	// one is dropped.
	gen      int
	cover    *RuleCover
	coverErr string

	saving  bool
	saveErr string
}

// newLineInput is a one-line text field in st's look.
func newLineInput(st *styles.Styles) textinput.Model {
	in := textinput.New()
	in.Prompt = ""
	in.CharLimit = 4096
	restyleInput(&in, st)
	return in
}

// restyleInput gives a one-line text field st's look.
func restyleInput(in *textinput.Model, st *styles.Styles) {
	if st == nil {
		return
	}
	s := in.Styles()
	q := st.Question
	s.Focused.Text, s.Focused.Placeholder, s.Focused.Prompt = q.AnswerText, q.AnswerPlaceholder, q.AnswerText
	s.Blurred.Text, s.Blurred.Placeholder, s.Blurred.Prompt = q.AnswerText, q.AnswerPlaceholder, q.AnswerText
	s.Cursor.Color = lipgloss.NoColor{}
	s.Cursor.Blink = false
	in.SetStyles(s)
}

var _ ui.Pane = (*Dialog)(nil)

// NewDialog is the dialog, drawing with com; g are the
// program's keys it lists beside its own.
func NewDialog(com *ui.Common, g ui.Globals) Dialog {
	return Dialog{com: com, globals: g}
}

// Restyle gives its text field st's look.
func (d *Dialog) Restyle(st *styles.Styles) { restyleInput(&d.input, st) }

// Open starts the dialog about request id's permission perm, its answer
// deny or allow (allow only where an option allows the call once), and
// asks rules where the rule would stand; closed takes the panel back to
// the question.
func (d *Dialog) Open(id uint64, perm *interaction.Permission, deny bool, rules Rules, closed func()) tea.Cmd {
	// The field has no placeholder: one drawn in grey beside "Rule" read
	// as a rule written. Empty, it is empty, and the line under it says
	// to write one, with an example.
	*d = Dialog{com: d.com, globals: d.globals, rules: rules, closed: closed,
		req: id, perm: perm, deny: deny, row: rowPattern, pick: -1, input: newLineInput(d.com.Styles)}
	if perm.Allow == "" {
		d.deny = true // no option allows this call once: a rule that allows could not answer it
	}
	return tea.Batch(d.Focus(), func() tea.Msg {
		plan, err := rules.Plan(perm)
		return PlanMsg{req: id, plan: plan, err: err}
	})
}

// ruleExample is the rule the dialog gives as an example when its field
// is empty.
const ruleExample = "Bash(go test:*)"

// Planned takes where the rule would stand, and puts the narrowest
// suggestion in the pattern's field.
func (d *Dialog) Planned(msg PlanMsg) tea.Cmd {
	if d.req != msg.req || d.ready {
		return nil // about another request, or come already
	}
	d.ready = true
	if msg.err != nil {
		d.planErr = cell.SanitizeLine(msg.err.Error())
		return nil
	}
	d.plan = msg.plan
	if len(d.plan.Suggestions) > 0 {
		d.choose(0)
	}
	return d.refresh()
}

// About reports whether the dialog is about request id.
func (d *Dialog) About(id uint64) bool { return d.req == id }

// SaveFailed says why the rule was not saved; nothing was answered.
func (d *Dialog) SaveFailed(err error) {
	d.saving = false
	d.saveErr = cell.SanitizeLine(err.Error())
}

// Covered takes whether the rule covers the call, when it is still the
// rule asked about.
func (d *Dialog) Covered(msg CoverMsg) {
	if d.req != msg.req || d.gen != msg.gen {
		return
	}
	if msg.err != nil {
		d.coverErr = cell.SanitizeLine(msg.err.Error())
		return
	}
	c := msg.cover
	d.cover = &c
}

// choose puts suggestion i in the pattern's field.
func (d *Dialog) choose(i int) {
	d.pick = i
	d.input.SetValue(d.plan.Suggestions[i].Line)
	d.input.CursorEnd()
}

// choice is what the human chose.
func (d *Dialog) choice() RuleChoice {
	return RuleChoice{Deny: d.deny, Pattern: strings.TrimSpace(d.input.Value()), Session: d.session}
}

// refresh describes the rule as it stands now, and returns the command
// that asks the rules whether it covers the call.
func (d *Dialog) refresh() tea.Cmd {
	rules := d.rules
	d.preview, d.previewErr = RuleText{}, ""
	d.gen++
	d.cover, d.coverErr = nil, ""
	if !d.ready || d.planErr != "" {
		return nil
	}
	if strings.TrimSpace(d.input.Value()) == "" {
		d.previewErr = "no rule: write one, such as " + ruleExample
		return nil
	}
	t, err := rules.Describe(d.plan, d.choice())
	if err != nil {
		d.previewErr = cell.SanitizeLine(err.Error())
		return nil
	}
	d.preview = t
	perm, c, id, gen := d.perm, d.choice(), d.req, d.gen
	return func() tea.Msg {
		cov, err := rules.Cover(perm, c)
		return CoverMsg{req: id, gen: gen, cover: cov, err: err}
	}
}

// covers reports whether the rule as it stands is known to cover the
// call: saving it would answer the question.
func (d *Dialog) covers() bool {
	return d.cover != nil && d.cover.Covers && d.previewErr == ""
}

// canSave reports whether Enter would save.
func (d *Dialog) canSave() bool {
	return d.ready && d.planErr == "" && d.previewErr == "" && !d.saving
}

// Save saves the rule in a command.
func (d *Dialog) Save() tea.Cmd {
	if !d.canSave() {
		return nil
	}
	rules := d.rules
	d.saving, d.saveErr = true, ""
	perm, c, id := d.perm, d.choice(), d.req
	return func() tea.Msg {
		e, added, err := rules.Save(perm, c)
		if err != nil {
			return SavedMsg{Req: id, Deny: c.Deny, Err: err}
		}
		// Whether the call is answered is decided by the rules as they
		// are once the rule is kept, not by what the dialog last showed.
		cov, cerr := rules.Cover(perm, c)
		return SavedMsg{Req: id, Deny: c.Deny, Entry: e, Added: added, Cover: cov, CoverErr: cerr}
	}
}

// typeKey edits the pattern with a key or paste no action took.
func (d *Dialog) typeKey(msg tea.Msg) tea.Cmd {
	before := d.input.Value()
	var cmd tea.Cmd
	d.input, cmd = d.input.Update(msg)
	if d.input.Value() != before {
		d.pick = -1
		for i, s := range d.plan.Suggestions {
			if s.Line == d.input.Value() {
				d.pick = i
			}
		}
		d.saveErr = ""
		cmd = tea.Batch(cmd, d.refresh())
	}
	return cmd
}

// moveRow moves to the next (or previous) row that can change: the
// answer only when both are possible, whom it is for only when the
// request names a session.
func (d *Dialog) moveRow(by int) tea.Cmd {
	for range rememberRows {
		d.row = (d.row + by + rememberRows) % rememberRows
		if d.rowLive(d.row) {
			break
		}
	}
	if d.row == rowPattern {
		return d.input.Focus()
	}
	d.input.Blur()
	return nil
}

// rowLive reports whether row can change.
func (d *Dialog) rowLive(row int) bool {
	switch row {
	case rowAnswer:
		return d.perm.Allow != ""
	case rowWho:
		return d.plan.Session != ""
	}
	return true
}

// Focus gives the dialog the keys: its text field the cursor, on the
// rule's row.
func (d *Dialog) Focus() tea.Cmd {
	d.Box.Focus()
	if d.row == rowPattern {
		return d.input.Focus()
	}
	return nil
}

// Blur takes the keys away: the dialog closed.
func (d *Dialog) Blur() {
	d.Box.Blur()
	d.input.Blur()
}

// SetSize gives the dialog the panel's room.
func (d *Dialog) SetSize(width, height int) {
	d.Box.SetSize(width, height)
	d.input.SetWidth(max(d.inner()-12, 8)) // the row's mark and label, and the cursor past the text
}

// inner is the width inside the dialog's frame.
func (d *Dialog) inner() int { return max(min(d.Width()-4, 76), 16) }

// fit is how much of the dialog is drawn: the explanation, the gaps
// and the save key's words (roomy 2), the gap and the words (1), or
// neither (0); how many suggestions; how many rows of the call.
type fit struct {
	roomy       int
	suggestions int
	callRows    int
}

// fits are the dialog's looks from the fullest to the most cramped: on a
// short panel the explanation goes first, then the gaps, then rows of a
// long call, then suggestions, then more of the call; two rows of the
// call always stay.
func (d *Dialog) fits() []fit {
	n := len(d.plan.Suggestions)
	out := []fit{{2, n, 8}, {1, n, 8}, {0, n, 8}, {0, n, 4}}
	for s := n - 1; s >= 0; s-- {
		out = append(out, fit{0, s, 4})
	}
	return append(out, fit{0, 0, 3}, fit{0, 0, 2})
}

// Need is the rows the dialog would take with room for all of it.
func (d *Dialog) Need() int {
	return cell.LineCount(d.com.Styles.Dialog.Box.Render(strings.Join(d.lines(d.fits()[0]), "\n")))
}

// View draws the dialog, framed, for the middle of the panel, in the
// fullest look that fits.
func (d *Dialog) View() string {
	var box string
	for _, f := range d.fits() {
		box = d.com.Styles.Dialog.Box.Render(strings.Join(d.lines(f), "\n"))
		if cell.LineCount(box) <= d.Height() {
			break
		}
	}
	return box
}

// callText is the call a permission is about, as the human approves it:
// the command, the files, the URL or the tool, exactly, with every
// character that would act on the terminal or not show made visible
// (as the hooks and asktui run show it in the question).
func callText(p *interaction.Permission) string {
	v := func(s string) string { return cell.Sanitize(sanitize.Visible(s)) }
	switch p.Kind {
	case interaction.KindExecute:
		if p.Command == "" {
			return "(no command)"
		}
		return v(p.Command)
	case interaction.KindEdit, interaction.KindRead:
		if len(p.Paths) == 0 {
			return "(no files named)"
		}
		paths := make([]string, len(p.Paths))
		for i, path := range p.Paths {
			paths[i] = v(path)
		}
		return strings.Join(paths, "\n")
	case interaction.KindFetch:
		if p.URL == "" {
			return "(no URL)"
		}
		return v(p.URL)
	case interaction.KindMCP:
		if p.MCPServer != "" && p.MCPTool != "" {
			return v(p.MCPServer) + ": " + v(p.MCPTool)
		}
	case interaction.KindOther:
	}
	return v(p.Tool)
}

// wrapAtSpaces cuts s into lines of at most width cells: at its line
// breaks, then at the last space that fits (the space is where the line
// ends), or inside a word longer than a line.
func wrapAtSpaces(s string, width int) []string {
	width = max(width, 1)
	var out []string
	for line := range strings.SplitSeq(s, "\n") {
		for cell.Width(line) > width {
			head := ansi.Truncate(line, width, "")
			if head == "" { // a character wider than the line
				_, size := utf8.DecodeRuneInString(line)
				head = line[:size]
			}
			if i := strings.LastIndexByte(head, ' '); i > 0 {
				out = append(out, line[:i])
				line = line[i+1:]
				continue
			}
			out = append(out, head)
			line = line[len(head):]
		}
		out = append(out, line)
	}
	return out
}

// callRows draws the call under its label, in at most rows rows: a call
// longer than that says how much more there is, and where to see it.
func (d *Dialog) callRows(rows int) []string {
	st, inner := d.com.Styles, d.inner()
	lines := wrapAtSpaces(callText(d.perm), inner-11)
	more := 0
	if len(lines) > rows {
		more = len(lines) - (rows - 1)
		lines = lines[:rows-1]
	}
	out := make([]string, 0, len(lines)+1)
	for i, l := range lines {
		lead := strings.Repeat(" ", 11)
		if i == 0 {
			lead = "  " + st.Dialog.Title.Render("Call") + strings.Repeat(" ", 5)
		}
		out = append(out, lead+st.Dialog.Title.Render(l))
	}
	if more > 0 {
		out = append(out, strings.Repeat(" ", 11)+st.Dialog.Body.Render(ansi.Truncate("… "+strconv.Itoa(more)+" more lines, in the question", inner-11, "…")))
	}
	return out
}

// lines are the dialog's rows inside its frame, drawn as f says.
func (d *Dialog) lines(f fit) []string {
	st, inner, k := d.com.Styles, d.inner(), d.com.Keys.Remember
	cut := func(s string) string { return ansi.Truncate(s, inner, "…") }
	out := []string{st.Dialog.Title.Render(cut("Always answer like this?"))}
	if f.roomy > 1 {
		out = append(out, st.Dialog.Body.Render(cell.WrapWords("From now on, a rule answers every permission it covers, without asking you.", inner, st)), "")
	}
	out = append(out, d.callRows(f.callRows)...)
	mark := func(row int) string {
		if d.row == row {
			return st.Option.Cursor.String() + " "
		}
		return "  "
	}
	btn := func(on bool, s string) string {
		if on {
			return st.Dialog.ActiveButton.Render(s)
		}
		return st.Dialog.Button.Render(s)
	}
	label := func(s string) string { return st.Dialog.Title.Render(s) + strings.Repeat(" ", max(8-cell.Width(s), 1)) }

	answer := btn(!d.deny, "allow") + " " + btn(d.deny, "deny")
	if d.perm.Allow == "" {
		answer = btn(true, "deny") + st.Dialog.Body.Render(" (no option allows once)")
	}
	out = append(out, cut(mark(rowAnswer)+label("Answer")+answer))
	if !d.ready {
		return append(out, "", st.Dialog.Body.Render(cut("Finding the project…")))
	}
	if d.planErr != "" {
		return append(out, "", st.App.Error.Render(cell.WrapWords("✗ "+d.planErr, inner, st)))
	}
	out = append(out, cut(mark(rowPattern)+label("Rule")+" "+d.input.View()))
	for i, s := range d.plan.Suggestions {
		if i >= f.suggestions {
			break
		}
		dot := "○ "
		if i == d.pick {
			dot = "● "
		}
		line := strings.Repeat(" ", 11) + dot + cell.SanitizeLine(s.Line) + st.Dialog.Body.Render(" · "+cell.SanitizeLine(s.Words))
		out = append(out, cut(line))
	}
	dir := "any agent in " + cell.SanitizeLine(d.plan.Dir)
	who := btn(!d.session, dir)
	if d.plan.Session != "" {
		sess := "this session only"
		if cell.Width(who)+cell.Width(sess)+14 <= inner {
			who += " " + btn(d.session, sess)
		} else {
			who += "\n" + strings.Repeat(" ", 10) + btn(d.session, sess)
		}
	}
	for l := range strings.SplitSeq(mark(rowWho)+label("For")+who, "\n") {
		out = append(out, cut(l))
	}
	if f.roomy > 0 {
		out = append(out, "")
	}
	switch {
	case d.saving:
		out = append(out, st.Dialog.Body.Render(cut("Saving…")))
	case d.saveErr != "":
		out = append(out, st.App.Error.Render(cell.WrapWords("✗ not saved: "+d.saveErr, inner, st)))
	case d.previewErr != "":
		out = append(out, st.App.Error.Render(cell.WrapWords("✗ "+d.previewErr, inner, st)))
	default:
		out = append(out, st.Dialog.Title.Render(cell.WrapWords("→ "+cell.SanitizeLine(d.preview.Words), inner, st)))
		out = append(out, d.coverLines(inner)...)
		if f.roomy > 0 && d.cover != nil {
			out = append(out, st.Dialog.Body.Render(cut(keys.Name(k.Save)+": "+d.saveWords())))
		}
	}
	return out
}

// coverLines say whether the rule, kept with the others, covers the call.
func (d *Dialog) coverLines(inner int) []string {
	st := d.com.Styles
	bad := func(s string) []string { return []string{st.App.Error.Render(cell.WrapWords("✗ "+s, inner, st))} }
	switch {
	case d.coverErr != "":
		return bad("cannot tell whether it covers this call: " + d.coverErr)
	case d.cover == nil:
		return []string{st.Dialog.Body.Render(ansi.Truncate("Checking it against the call…", inner, "…"))}
	}
	c := d.cover
	there := ""
	if c.Same > 0 {
		there = "Already there (rule " + strconv.Itoa(c.Same) + "). "
	}
	switch {
	case c.Covers:
		return []string{st.Dialog.Title.Render(cell.WrapWords("✓ "+there+"It covers this call.", inner, st))}
	case c.Against.Number > 0:
		verb := "deny"
		if d.deny {
			verb = "allow"
		}
		return bad(there + "Rule " + strconv.Itoa(c.Against.Number) + " would " + verb + " this call: " + cell.SanitizeLine(c.Against.Line))
	case d.deny:
		return bad(there + "It does not cover this call: it matches no part of it.")
	case len(c.Left) > 0:
		parts := make([]string, 0, len(c.Left))
		for i, l := range c.Left {
			if i == 3 {
				parts = append(parts, "and "+strconv.Itoa(len(c.Left)-i)+" more")
				break
			}
			parts = append(parts, "`"+ansi.Truncate(cell.SanitizeLine(sanitize.Visible(l)), 60, "…")+"`")
		}
		verb := " is not allowed by it."
		if len(c.Left) > 1 {
			verb = " are not allowed by it."
		}
		return bad(there + "It does not cover this call: " + strings.Join(parts, ", ") + verb)
	default:
		return bad(there + "It does not cover all of this call, with your other rules.")
	}
}

// saveWords say what the save key does to the question shown.
func (d *Dialog) saveWords() string {
	if !d.covers() {
		return "save it; the question stays for you to answer"
	}
	what := "save it, and "
	if d.cover.Same > 0 {
		what = ""
	}
	switch {
	case !d.deny:
		return what + "allow this time"
	case d.perm.Deny == "":
		return what + "decline this time"
	default:
		return what + "deny this time"
	}
}

// Actions are the dialog's keys; it types into the pattern everything
// else on the rule's row.
func (d *Dialog) Actions() []ui.Action {
	k := d.com.Keys.Remember
	// The save key says whether it answers: only a rule known to cover
	// the call does.
	save := ui.Answer(k.SaveOnly, func(ui.KeyMsg) tea.Cmd { return d.Save() }).
		Explain("only save the rule when it does not cover the call shown: the question stays for you")
	if d.covers() {
		save = ui.Answer(k.Save, func(ui.KeyMsg) tea.Cmd { return d.Save() }).
			Explain("save the rule and answer the question, when the rule covers the call shown")
	}
	out := []ui.Action{
		save.Kept().In("Remember"),
		ui.Move(k.Back, func(ui.KeyMsg) tea.Cmd {
			d.Blur()
			d.closed()
			return nil
		}).Kept().In("Remember"),
		ui.Move(k.NextRow, func(ui.KeyMsg) tea.Cmd { return d.moveRow(+1) }).InBar(k.Rows).In("Remember"),
		ui.Move(k.PrevRow, func(ui.KeyMsg) tea.Cmd { return d.moveRow(-1) }).In("Remember"),
	}
	switch {
	case d.row == rowAnswer && d.rowLive(rowAnswer):
		out = append(out, ui.Answer(k.Switch, func(ui.KeyMsg) tea.Cmd {
			d.deny = !d.deny
			return d.refresh()
		}).InBar().In("Remember"))
	case d.row == rowWho && d.rowLive(rowWho):
		out = append(out, ui.Answer(k.Switch, func(ui.KeyMsg) tea.Cmd {
			d.session = !d.session
			return d.refresh()
		}).InBar().In("Remember"))
	case d.row == rowPattern && len(d.plan.Suggestions) > 0:
		step := func(by int) func(ui.KeyMsg) tea.Cmd {
			return func(ui.KeyMsg) tea.Cmd {
				n := len(d.plan.Suggestions)
				i := d.pick + by
				if d.pick < 0 {
					i = 0
				}
				d.choose((i + n) % n)
				d.saveErr = ""
				return d.refresh()
			}
		}
		out = append(out,
			ui.Answer(k.Up, step(-1)).InBar(k.Suggest).In("Remember"),
			ui.Answer(k.Down, step(+1)).In("Remember"),
		)
	}
	return append(out, d.globals.Quit())
}

// Typist types into the pattern while its row has the keys.
func (d *Dialog) Typist() func(tea.Msg) tea.Cmd {
	if d.row != rowPattern || !d.ready || d.planErr != "" || d.saving {
		return nil
	}
	return d.typeKey
}

// ShortHelp implements help.KeyMap.
func (d *Dialog) ShortHelp() []key.Binding { return ui.ShortHelp(d) }

// FullHelp implements help.KeyMap.
func (d *Dialog) FullHelp() [][]key.Binding { return ui.FullHelp(d) }
