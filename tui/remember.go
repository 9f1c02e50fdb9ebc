package tui

import (
	"strconv"
	"strings"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/styles"
)

// The remember dialog makes the answer to a permission stand: the human
// picks the answer (allow or deny), the rule (a suggested pattern, or
// one typed) and whom it is for (any agent in the project, or the asking
// agent's session), reads the rule in words, and saves it; the question
// is then answered as its once-option would be. Reading where the rule
// stands and saving it touch files, so both run in commands
// (rulePlanMsg, ruleSavedMsg); describing the rule as it is edited reads
// nothing.

// The dialog's rows.
const (
	rowAnswer = iota
	rowPattern
	rowWho
	rememberRows
)

// rememberDialog is the remember dialog's state, for one request.
type rememberDialog struct {
	st   *styles.Styles
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
	saving     bool
	saveErr    string

	width, height int
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

func (d *rememberDialog) restyle(st *styles.Styles) {
	d.st = st
	restyleInput(&d.input, st)
}

// open starts the dialog about request r's permission, its answer the
// one under the cursor of q (deny on the deny option, else allow), and
// asks rules where the rule would stand.
func (d *rememberDialog) open(r *request, q *question, rules Rules) tea.Cmd {
	st := d.st
	*d = rememberDialog{st: st, req: r.id, perm: r.perm, row: rowPattern, pick: -1, input: newLineInput(st)}
	d.input.Placeholder = "Bash(go test:*)"
	if c := q.draft.Cursor; r.perm.Deny != "" && c >= 0 && c < len(q.raw.Options) && q.raw.Options[c].Label == r.perm.Deny {
		d.deny = true
	}
	if r.perm.Allow == "" {
		d.deny = true // no option allows this call once: a rule that allows could not answer it
	}
	perm, id := r.perm, r.id
	return tea.Batch(d.input.Focus(), func() tea.Msg {
		plan, err := rules.Plan(perm)
		return rulePlanMsg{req: id, plan: plan, err: err}
	})
}

// planned takes where the rule would stand, and puts the narrowest
// suggestion in the pattern's field.
func (d *rememberDialog) planned(msg rulePlanMsg, rules Rules) {
	d.ready = true
	if msg.err != nil {
		d.planErr = SanitizeLine(msg.err.Error())
		return
	}
	d.plan = msg.plan
	if len(d.plan.Suggestions) > 0 {
		d.choose(0)
	}
	d.refresh(rules)
}

// choose puts suggestion i in the pattern's field.
func (d *rememberDialog) choose(i int) {
	d.pick = i
	d.input.SetValue(d.plan.Suggestions[i].Line)
	d.input.CursorEnd()
}

// choice is what the human chose.
func (d *rememberDialog) choice() RuleChoice {
	return RuleChoice{Deny: d.deny, Pattern: strings.TrimSpace(d.input.Value()), Session: d.session}
}

// refresh describes the rule as it stands now.
func (d *rememberDialog) refresh(rules Rules) {
	d.preview, d.previewErr = RuleText{}, ""
	if !d.ready || d.planErr != "" {
		return
	}
	if strings.TrimSpace(d.input.Value()) == "" {
		d.previewErr = "write the rule, such as " + d.input.Placeholder
		return
	}
	t, err := rules.Describe(d.plan, d.choice())
	if err != nil {
		d.previewErr = SanitizeLine(err.Error())
		return
	}
	d.preview = t
}

// canSave reports whether Enter would save.
func (d *rememberDialog) canSave() bool {
	return d.ready && d.planErr == "" && d.previewErr == "" && !d.saving
}

// save saves the rule in a command.
func (d *rememberDialog) save(rules Rules) tea.Cmd {
	if !d.canSave() {
		return nil
	}
	d.saving, d.saveErr = true, ""
	perm, c, id := d.perm, d.choice(), d.req
	return func() tea.Msg {
		e, err := rules.Save(perm, c)
		return ruleSavedMsg{req: id, deny: c.Deny, entry: e, err: err}
	}
}

// typeKey edits the pattern with a key or paste no action took.
func (d *rememberDialog) typeKey(msg tea.Msg, rules Rules) tea.Cmd {
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
		d.refresh(rules)
	}
	return cmd
}

// moveRow moves to the next (or previous) row that can change: the
// answer only when both are possible, whom it is for only when the
// request names a session.
func (d *rememberDialog) moveRow(by int) tea.Cmd {
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
func (d *rememberDialog) rowLive(row int) bool {
	switch row {
	case rowAnswer:
		return d.perm.Allow != ""
	case rowWho:
		return d.plan.Session != ""
	}
	return true
}

// SetSize gives the dialog the panel's room.
func (d *rememberDialog) SetSize(width, height int) {
	d.width, d.height = width, height
	d.input.SetWidth(max(d.inner()-12, 8)) // the row's mark and label, and the cursor past the text
}

// inner is the width inside the dialog's frame.
func (d *rememberDialog) inner() int { return max(min(d.width-4, 76), 16) }

// need is the rows the dialog would take with room for all of it.
func (d *rememberDialog) need(agent string, k rememberKeyMap) int {
	return lineCount(d.st.Dialog.Box.Render(strings.Join(d.lines(agent, k, true, len(d.plan.Suggestions)), "\n")))
}

// View draws the dialog, framed, for the middle of the panel; on a short
// panel the explanation and the gaps go first, then suggestions.
func (d *rememberDialog) View(agent string, k rememberKeyMap) string {
	full := d.lines(agent, k, true, len(d.plan.Suggestions))
	box := d.st.Dialog.Box.Render(strings.Join(full, "\n"))
	if lineCount(box) <= d.height {
		return box
	}
	for n := len(d.plan.Suggestions); n >= 0; n-- {
		box = d.st.Dialog.Box.Render(strings.Join(d.lines(agent, k, false, n), "\n"))
		if lineCount(box) <= d.height {
			break
		}
	}
	return box
}

// lines are the dialog's rows inside its frame, with up to shown
// suggestions.
func (d *rememberDialog) lines(agent string, k rememberKeyMap, roomy bool, shown int) []string {
	st, inner := d.st, d.inner()
	cut := func(s string) string { return ansi.Truncate(s, inner, "…") }
	out := []string{st.Dialog.Title.Render(cut("Always answer like this?"))}
	if roomy {
		out = append(out, st.Dialog.Body.Render(ansi.Wrap("A rule answers "+agent+"'s permission now, and every later one it matches, without asking you.", inner, "")), "")
	}
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
	label := func(s string) string { return st.Dialog.Title.Render(s) + strings.Repeat(" ", max(8-cellWidth(s), 1)) }

	answer := btn(!d.deny, "allow") + " " + btn(d.deny, "deny")
	if d.perm.Allow == "" {
		answer = btn(true, "deny") + st.Dialog.Body.Render(" (no option allows once)")
	}
	out = append(out, cut(mark(rowAnswer)+label("Answer")+answer))
	if !d.ready {
		return append(out, "", st.Dialog.Body.Render(cut("Finding the project…")))
	}
	if d.planErr != "" {
		return append(out, "", st.App.Error.Render(ansi.Wrap("✗ "+d.planErr, inner, "")))
	}
	out = append(out, cut(mark(rowPattern)+label("Rule")+" "+d.input.View()))
	for i, s := range d.plan.Suggestions {
		if i >= shown {
			break
		}
		dot := "○ "
		if i == d.pick {
			dot = "● "
		}
		line := strings.Repeat(" ", 11) + dot + SanitizeLine(s.Line) + st.Dialog.Body.Render(" · "+SanitizeLine(s.Words))
		out = append(out, cut(line))
	}
	dir := "any agent in " + SanitizeLine(d.plan.Dir)
	who := btn(!d.session, dir)
	if d.plan.Session != "" {
		sess := "this session only"
		if cellWidth(who)+cellWidth(sess)+14 <= inner {
			who += " " + btn(d.session, sess)
		} else {
			who += "\n" + strings.Repeat(" ", 10) + btn(d.session, sess)
		}
	}
	for l := range strings.SplitSeq(mark(rowWho)+label("For")+who, "\n") {
		out = append(out, cut(l))
	}
	if roomy {
		out = append(out, "")
	}
	switch {
	case d.saving:
		out = append(out, st.Dialog.Body.Render(cut("Saving…")))
	case d.saveErr != "":
		out = append(out, st.App.Error.Render(ansi.Wrap("✗ not saved: "+d.saveErr, inner, "")))
	case d.previewErr != "":
		out = append(out, st.App.Error.Render(ansi.Wrap("✗ "+d.previewErr, inner, "")))
	default:
		out = append(out, st.Dialog.Title.Render(ansi.Wrap("→ "+SanitizeLine(d.preview.Words), inner, "")))
		if roomy {
			out = append(out, st.Dialog.Body.Render(cut(keyName(k.Save)+": save it, and "+d.verb()+" this time")))
		}
	}
	return out
}

// verb says what saving does to the question shown.
func (d *rememberDialog) verb() string {
	switch {
	case !d.deny:
		return "allow"
	case d.perm.Deny == "":
		return "decline"
	default:
		return "deny"
	}
}

// rememberActions are the dialog's keys; it types into the pattern
// everything else on the rule's row.
func (p *questionPane) rememberActions() []action {
	m := p.m
	k := m.keys.Remember
	d := &p.remember
	out := []action{
		answer(k.Save, func(keyMsg) tea.Cmd { return d.save(m.rules) }).kept().in("Remember"),
		move(k.Back, func(keyMsg) tea.Cmd {
			d.input.Blur()
			p.sub = subForm
			return nil
		}).kept().in("Remember"),
		move(k.NextRow, func(keyMsg) tea.Cmd { return d.moveRow(+1) }).inBar(k.Rows).in("Remember"),
		move(k.PrevRow, func(keyMsg) tea.Cmd { return d.moveRow(-1) }).in("Remember"),
	}
	switch {
	case d.row == rowAnswer && d.rowLive(rowAnswer):
		out = append(out, answer(k.Switch, func(keyMsg) tea.Cmd {
			d.deny = !d.deny
			d.refresh(m.rules)
			return nil
		}).inBar().in("Remember"))
	case d.row == rowWho && d.rowLive(rowWho):
		out = append(out, answer(k.Switch, func(keyMsg) tea.Cmd {
			d.session = !d.session
			d.refresh(m.rules)
			return nil
		}).inBar().in("Remember"))
	case d.row == rowPattern && len(d.plan.Suggestions) > 0:
		step := func(by int) func(keyMsg) tea.Cmd {
			return func(keyMsg) tea.Cmd {
				n := len(d.plan.Suggestions)
				i := d.pick + by
				if d.pick < 0 {
					i = 0
				}
				d.choose((i + n) % n)
				d.saveErr = ""
				d.refresh(m.rules)
				return nil
			}
		}
		out = append(out,
			answer(k.Up, step(-1)).inBar(k.Suggest).in("Remember"),
			answer(k.Down, step(+1)).in("Remember"),
		)
	}
	return append(out, m.quitAction())
}

// rememberTypist types into the pattern while its row has the keys.
func (p *questionPane) rememberTypist() func(tea.Msg) tea.Cmd {
	d := &p.remember
	if d.row != rowPattern || !d.ready || d.planErr != "" || d.saving {
		return nil
	}
	return func(msg tea.Msg) tea.Cmd { return d.typeKey(msg, p.m.rules) }
}

// openRemember opens the remember dialog about question q of r.
func (p *questionPane) openRemember(r *request, q *question) tea.Cmd {
	p.sub = subRemember
	p.request = r.id
	return p.remember.open(r, q, p.m.rules)
}

// canRemember reports whether question q of r can be answered with a
// rule: the permission's own question, with rules to keep.
func (m *model) canRemember(r *request, q *question) bool {
	return m.rules != nil && r.perm != nil && q.raw.ID == r.perm.Question && q.draft != nil && m.mode() == modeQuestion
}

// rulePlanned brings where a rule would stand to the dialog still open
// about its request.
func (m *model) rulePlanned(msg rulePlanMsg) {
	p := &m.qpane
	if p.sub != subRemember || p.remember.req != msg.req || p.remember.ready {
		return
	}
	p.remember.planned(msg, m.rules)
}

// ruleSaved finishes a save: on failure the dialog says why and nothing
// is answered; else the dialog closes and the question is answered as its
// once-option would be (or declined, for a deny without one), when it
// still waits and the dialog was still open.
func (m *model) ruleSaved(msg ruleSavedMsg) tea.Cmd {
	p := &m.qpane
	open := p.sub == subRemember && p.remember.req == msg.req
	if msg.err != nil {
		if open {
			p.remember.saving = false
			p.remember.saveErr = SanitizeLine(msg.err.Error())
			return nil
		}
		return m.setNotice("✗ the rule was not saved: " + SanitizeLine(msg.err.Error()))
	}
	if open {
		p.remember.input.Blur()
		p.sub = subForm
	}
	saved := "✓ Rule " + strconv.Itoa(msg.entry.Number) + " saved"
	i := m.indexOf(msg.req)
	switch {
	case i < 0:
		return m.setNotice(saved + "; the question had already ended")
	case !open:
		// The human went back to the question while it was saved: it is
		// theirs to answer.
		return m.setNotice(saved + "; the question still waits for you")
	}
	r := m.requests[i]
	label := r.perm.Allow
	if msg.deny {
		label = r.perm.Deny
	}
	if label == "" {
		return m.declineWith(r, saved+": declined "+r.agent+"'s request")
	}
	a := r.answer()
	for j, q := range r.questions {
		if q.raw.ID == r.perm.Question {
			a.Answers[j].Selected, a.Answers[j].Custom = []string{label}, ""
		}
	}
	return m.submitWith(r, a, saved+": answered "+r.agent+" "+SanitizeLine(label))
}
