// Package request is a waiting request as one view holds it: its
// questions, the human's drafts and the field that edits each question
// (the option list, field.Choice, or a text box), where the view stands
// in it (the tab, the scroll), and how it is named on screen (its call,
// its summary). The program owns the requests; the panes that show them
// read and change them through these types.
package request

import (
	"slices"
	"strconv"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/interaction/inbox"
	"github.com/asktui/asktui/internal/markdown"
	"github.com/asktui/asktui/internal/sanitize"
	"github.com/asktui/asktui/styles"
	"github.com/asktui/asktui/tui/field"
	"github.com/asktui/asktui/tui/internal/cell"
	"github.com/asktui/asktui/tui/internal/keys"
)

// Question is one question of a request: the agent's raw text (answers echo
// labels exactly as sent), its sanitized display text, the human's draft
// and the field that edits it: the option list (field.Choice) or the
// answer box (textField).
//
// The field is built the first time the question is shown and kept for
// the request's life: moving between questions, resizing the window and
// changing the theme adjust it in place, so nothing the human did (cursor,
// filter, typed text) is lost. The panel drives it itself, without a huh
// form around it (see ARCHITECTURE.md, "huh").
type Question struct {
	Raw interaction.Question

	Title    string   // tab title: header, else "Q<n>"
	Header   string   // sanitized header, one line
	Text     string   // sanitized question text
	Descs    []string // sanitized descriptions, nil when none has one
	Detail   string   // sanitized detail (Markdown), "" when none
	Previews []string // sanitized previews, nil when no option has one
	Note     string   // the human's note on the answer

	// CallSeen is set once the first line of the detail (for a
	// permission, the call) has been on screen: until then the keys that
	// answer the question are held (the program's arrival hold, app/hold.go).
	CallSeen bool

	// approve is, in a plan review (interaction.IntentPlanReview), the
	// option that approves the plan; -1 for any other question. Every
	// other option declines it.
	approve int

	Draft *field.Draft // the option list's draft; nil for free text
	Typed string       // the free-text draft

	Choice *field.Choice // the field, for an option question
	input  *textField    // the field, for a free-text question
	fieldW int           // the size the field was last given
	fieldH int

	// wrap caches the question's context (its text, then its detail)
	// rendered for one width, palette and raw setting: a long question or
	// a 2,000-line detail is rendered once, not every frame.
	wrap struct {
		width  int
		styles *styles.Styles
		raw    bool
		lines  []string
		call   int // the detail's first line in lines, -1 without one
	}
}

func newQuestion(i int, q interaction.Question) *Question {
	qs := &Question{Raw: q, Header: cell.DisplayLine(q.Header), Text: cell.Sanitize(q.Question), Detail: cell.Sanitize(q.Detail), approve: -1}
	if q.PlanReview() && !q.MultiSelect {
		// A plan is approved or declined, one or the other: a
		// multi-select plan review is asked as the list it is.
		for j, o := range q.Options {
			if o.Label == q.Intent.Approve {
				qs.approve = j
				break
			}
		}
	}
	qs.Title = qs.Header
	if qs.Title == "" {
		qs.Title = "Q" + strconv.Itoa(i+1)
	}
	if len(q.Options) > 0 {
		var descs []string
		for j, o := range q.Options {
			if o.Description != "" {
				if descs == nil {
					descs = make([]string, len(q.Options))
				}
				descs[j] = cell.Sanitize(o.Description)
			}
			if o.Preview != "" {
				if qs.Previews == nil {
					qs.Previews = make([]string, len(q.Options))
				}
				qs.Previews[j] = cell.Sanitize(o.Preview)
			}
		}
		qs.Descs = descs
		qs.Draft = field.NewDraft(len(q.Options))
	}
	return qs
}

// Label is option i's label as the screen shows it. It is sanitized as
// it is asked for, not stored: the field asks only for the rows it draws
// (and for all of them once, when a filter starts), and a question of
// 100,000 options would otherwise prepare 1.6 MB of labels before its
// first frame.
func (q *Question) Label(i int) string {
	l := cell.SanitizeLine(q.Raw.Options[i].Label)
	if !q.PlanReview() {
		return l
	}
	// A plan review's choices are named by what they do; the agent's
	// label, which is what the answer carries, stays beside when it
	// says more than that.
	verb := "Decline"
	if i == q.approve {
		verb = "Approve the plan"
	}
	says := strings.TrimSpace(strings.TrimSuffix(strings.ToLower(strings.TrimSpace(l)), "(recommended)"))
	if says == "" || says == strings.ToLower(verb) || says == strings.ToLower(strings.Fields(verb)[0]) {
		return verb
	}
	return verb + " · " + l
}

// PlanReview reports whether the question asks the human to approve a
// plan: one option approves it, every other declines it.
func (q *Question) PlanReview() bool { return q.approve >= 0 }

// DeclinesPlan reports whether the question is a plan review answered
// with an option that declines the plan.
func (q *Question) DeclinesPlan() bool {
	if !q.PlanReview() || q.Draft == nil {
		return false
	}
	chosen := q.Draft.ChosenIndices()
	return len(chosen) == 1 && chosen[0] != q.approve
}

// Free reports whether the question takes free text only.
func (q *Question) Free() bool { return q.Draft == nil }

// Answer is the question's answer as the draft stands. This is the one
// rule for what counts as an answer: typed free text, typed Other text
// (which overrides the options, never supplements them), or chosen
// options; with none of them the question is skipped.
func (q *Question) Answer() interaction.AnswerItem {
	item := interaction.AnswerItem{ID: q.Raw.ID, Selected: []string{}, Note: strings.TrimSpace(q.Note)}
	if q.Free() {
		if t := strings.TrimSpace(q.Typed); t != "" {
			item.Custom = t
		}
		return item
	}
	if t, ok := q.Draft.Custom(); ok {
		item.Custom = t
		return item
	}
	for _, i := range q.Draft.ChosenIndices() {
		item.Selected = append(item.Selected, q.Raw.Options[i].Label)
	}
	return item
}

// Answered reports whether the draft holds an answer (see Answer).
func (q *Question) Answered() bool {
	if q.Free() {
		return strings.TrimSpace(q.Typed) != ""
	}
	return q.Draft.Answered()
}

// Context returns the question's text (styled, its Markdown drawn) and, after a blank line, its detail rendered as Markdown (or as
// raw text, to approve exact bytes), wrapped to width.
func (q *Question) Context(width int, st *styles.Styles, md *cell.Markdown, raw bool) []string {
	if q.wrap.width != width || q.wrap.styles != st || q.wrap.raw != raw {
		q.wrap.width, q.wrap.styles, q.wrap.raw = width, st, raw
		lines := markdown.RenderIn(q.Text, max(width, 1), st, st.Question.Text)
		if len(lines) == 0 {
			lines = []string{""}
		}
		q.wrap.call = -1
		if q.Detail != "" {
			lines = append(lines, "")
			at := len(lines)
			if raw {
				lines = append(lines, cell.WrapExact(q.Detail, width, st, st.Code.Plain)...)
			} else {
				lines = append(lines, md.Render(q.Detail, width)...)
			}
			for i := at; i < len(lines); i++ {
				if strings.TrimSpace(ansi.Strip(lines[i])) != "" {
					q.wrap.call = i
					break
				}
			}
		}
		q.wrap.lines = lines
	}
	return q.wrap.lines
}

// CallLine is the line of the question's context (as context last
// rendered it) where its detail starts: for a permission, the call the
// human approves (the command, the file, the URL), which the panel never
// lets an answer go without (the question panel's layout and the
// program's hold); -1 when the question has no detail, or one with
// nothing to show.
func (q *Question) CallLine() int {
	if q.wrap.lines == nil {
		return -1
	}
	return q.wrap.call
}

// PreviewLines is option opt's preview drawn in width×rows: only its
// beginning is rendered, so a 2,000-line preview costs what a screenful
// does; what is cut is counted.
func (q *Question) PreviewLines(opt, width, rows int, st *styles.Styles, md *cell.Markdown, raw bool) []string {
	if q.Previews == nil || opt < 0 || opt >= len(q.Previews) || q.Previews[opt] == "" || rows <= 0 {
		return nil
	}
	src := q.Previews[opt]
	all := strings.Count(src, "\n") + 1
	head := src
	if limit := rows + 1; all > limit {
		cut := 0
		for range limit {
			i := strings.IndexByte(head[cut:], '\n')
			if i < 0 {
				break
			}
			cut += i + 1
		}
		head = src[:cut]
		if strings.Count(head, "```")%2 == 1 {
			head += "```\n" // close the fence the cut left open
		}
	}
	var lines []string
	if raw {
		lines = cell.WrapExact(head, width, st, st.Code.Plain)
	} else {
		lines = md.Render(head, width)
	}
	if len(lines) > rows || head != src {
		lines = lines[:min(len(lines), max(rows-1, 1))]
		more := all - strings.Count(head, "\n")
		if len(head) == len(src) {
			more = 0
		}
		mark := "… more"
		if more > 0 {
			mark = "… " + cell.Plural(more, "more line", "more lines")
		}
		lines = append(lines, st.Question.ScrollHint.Render(mark))
	}
	return lines
}

// ReadyField readies the question's field to be shown in st: built on
// first use, restyled in place afterwards. The layout pass sizes it
// (SizeField).
func (q *Question) ReadyField(st *styles.Styles, km keys.Map, confirmHelp string) {
	switch {
	case q.Free() && q.input == nil:
		q.input = newTextField(st, km.Question.NewLine, q.Typed)
	case q.Free():
		q.input.restyle(st)
	case q.Choice == nil:
		q.Choice = field.NewChoice(field.ChoiceConfig{
			Label:        q.Label,
			LabelCount:   len(q.Raw.Options),
			Descriptions: q.Descs,
			Multi:        q.Raw.MultiSelect,
			NoOther:      q.Raw.NoOther || q.PlanReview(), // a plan is declined with a note, not other text
			Draft:        q.Draft,
			Styles:       st,
			Keys:         km.Choice,
			ConfirmHelp:  confirmHelp,
		})
	default:
		q.Choice.SetConfirmHelp(confirmHelp)
		q.Choice.SetStyles(st)
	}
}

// SizeField gives the question's field w×h.
func (q *Question) SizeField(w, h int) {
	w, h = max(w, 1), max(h, 1)
	if q.fieldW == w && q.fieldH == h {
		return
	}
	q.fieldW, q.fieldH = w, h
	switch {
	case q.Choice != nil:
		q.Choice.WithWidth(w).WithHeight(h)
	case q.input != nil:
		q.input.SetSize(w, h)
	}
}

// Built reports whether the question's field was built (it was shown).
func (q *Question) Built() bool { return q.Choice != nil || q.input != nil }

// FieldView draws the question's field at the size SizeField gave it.
func (q *Question) FieldView() string {
	if q.Choice != nil {
		return q.Choice.View()
	}
	return q.input.View()
}

// FocusField gives the question's field the keys; BlurField takes them
// away when another question (or request) is shown.
func (q *Question) FocusField() tea.Cmd {
	switch {
	case q.Choice != nil:
		return q.Choice.Focus()
	case q.input != nil:
		return q.input.ta.Focus()
	}
	return nil
}

// BlurField takes the keys from the question's field.
func (q *Question) BlurField() {
	switch {
	case q.Choice != nil:
		q.Choice.Blur()
	case q.input != nil:
		q.input.ta.Blur()
	}
}

// Handle types a key or paste into the question's field, and reports
// whether it confirmed the question (a choice by Enter or a digit; a
// free-text answer is confirmed by the panel's own Enter).
func (q *Question) Handle(msg tea.Msg) (tea.Cmd, bool) {
	switch {
	case q.Choice != nil:
		return q.Choice.Handle(msg)
	case q.input != nil:
		cmd := q.input.update(msg)
		q.Typed = q.input.Value()
		return cmd, false
	}
	return nil, false
}

// Typing reports whether keys go to a text input, so letters, digits,
// space and ←/→ are text rather than commands.
func (q *Question) Typing() bool {
	if q.Free() {
		return true
	}
	return q.Choice != nil && q.Choice.Typing()
}

// Request is one waiting request and everything the human did to it on
// this view. Requests are plain structs owned by the program.
type Request struct {
	ID       uint64
	Agent    string // display name of the asking agent, safe to draw
	AgentID  string // the agent's id as sent
	Arrived  time.Time
	Deadline time.Time

	Questions []*Question
	Tab       int // index of the question shown; len(questions) is the review step
	Scroll    int // first line of the question text (or review) shown

	Saved *interaction.Answer // the draft last saved to the inbox

	// Perm describes the tool call of a permission request (nil for a
	// question): its one question can be answered with a rule.
	Perm *interaction.Permission

	// Seen is set once the request has been on screen: the program never
	// brings it back by itself after that (the program's arrival hold, app/hold.go).
	Seen bool
}

// New is request r of the inbox, as this view holds it.
func New(r *inbox.Request) *Request {
	req := &Request{ID: r.ID, Arrived: r.Arrived, Deadline: r.Deadline, Agent: "agent", Perm: r.Request.Permission}
	if a := r.Request.Agent; a != nil {
		req.AgentID = a.ID
		if n := cell.DisplayLine(a.DisplayName()); strings.TrimSpace(n) != "" {
			req.Agent = n
		}
	}
	req.Questions = make([]*Question, len(r.Request.Questions))
	for i, q := range r.Request.Questions {
		req.Questions[i] = newQuestion(i, q)
	}
	return req
}

// AgentKey is how the activity log knows the request's agent: its id,
// else its name.
func (r *Request) AgentKey() string {
	if strings.TrimSpace(r.AgentID) != "" {
		return "id:" + r.AgentID
	}
	return "name:" + r.Agent
}

// Single reports whether the request is one question, which skips the tabs
// and the review step.
func (r *Request) Single() bool { return len(r.Questions) == 1 }

// GotoTab shows tab (wrapping), a question or the review step.
func (r *Request) GotoTab(tab int) {
	if r.Single() {
		return
	}
	n := len(r.Questions) + 1
	r.Tab = (tab%n + n) % n
	r.Scroll = 0
}

// Reviewing reports whether the review step is shown.
func (r *Request) Reviewing() bool { return r.Tab >= len(r.Questions) }

// Current is the question shown, nil on the review step.
func (r *Request) Current() *Question {
	if r.Reviewing() {
		return nil
	}
	return r.Questions[r.Tab]
}

// Unanswered counts the questions without an answer.
func (r *Request) Unanswered() int {
	n := 0
	for _, q := range r.Questions {
		if !q.Answered() {
			n++
		}
	}
	return n
}

// Answer builds the answer to send: every question in request order,
// unanswered ones as skipped.
func (r *Request) Answer() interaction.Answer {
	a := interaction.Answer{Answers: make([]interaction.AnswerItem, len(r.Questions))}
	for i, q := range r.Questions {
		a.Answers[i] = q.Answer()
	}
	return a
}

// Draft is the answer so far, or nil when nothing is answered yet.
func (r *Request) Draft() *interaction.Answer {
	if r.Unanswered() == len(r.Questions) {
		return nil
	}
	a := r.Answer()
	return &a
}

// DraftChanged reports whether d differs from the draft last saved.
func (r *Request) DraftChanged(d *interaction.Answer) bool {
	if (d == nil) != (r.Saved == nil) {
		return true
	}
	if d == nil {
		return false
	}
	for i, item := range d.Answers {
		old := r.Saved.Answers[i]
		if item.Custom != old.Custom || !slices.Equal(item.Selected, old.Selected) {
			return true
		}
	}
	return false
}

// QuestionCount counts the questions of the requests.
func QuestionCount(rs []*Request) int {
	n := 0
	for _, r := range rs {
		n += len(r.Questions)
	}
	return n
}

// What names the request in a few words, as Markdown on one line: the
// call a permission is about, else its first header, else the first line
// of its first question.
func (r *Request) What() string {
	if c := r.Call(); c != "" {
		return c
	}
	q := r.Questions[0]
	if q.Header != "" {
		return q.Header
	}
	return cell.FirstLine(q.Text)
}

// Call names the tool call a permission request is about, as Markdown on
// one line: the tool, then the first line of its command, its first file,
// its URL or the MCP server's tool, in code, exactly as the question
// shows it (every character that would act on the terminal or not show
// made visible); "" when the request is no permission, or its call names
// none of these. Two permissions of the same tool differ here, where
// their headers are alike.
func (r *Request) Call() string {
	p := r.Perm
	if p == nil {
		return ""
	}
	exact := func(s string) string { return markdown.Code(cell.SanitizeLine(sanitize.Visible(s))) }
	var what string
	switch p.Kind {
	case interaction.KindExecute:
		line, more := firstWords(p.Command)
		if line == "" {
			return ""
		}
		what = exact(line)
		if more {
			what += "…"
		}
	case interaction.KindEdit, interaction.KindRead:
		if len(p.Paths) == 0 || strings.TrimSpace(p.Paths[0]) == "" {
			return ""
		}
		what = exact(p.Paths[0])
		if n := len(p.Paths) - 1; n > 0 {
			what += " +" + strconv.Itoa(n) + " more"
		}
	case interaction.KindFetch:
		if strings.TrimSpace(p.URL) == "" {
			return ""
		}
		what = exact(p.URL)
	case interaction.KindMCP:
		if p.MCPServer == "" || p.MCPTool == "" {
			return ""
		}
		return exact(p.MCPServer + ": " + p.MCPTool)
	default:
		return ""
	}
	if tool := cell.SanitizeLine(sanitize.Visible(p.Tool)); strings.TrimSpace(tool) != "" {
		return markdown.Escape(tool) + " " + what
	}
	return what
}

// firstWords is the first line of s that holds more than spaces, trimmed,
// and whether anything but spaces follows it.
func firstWords(s string) (line string, more bool) {
	s = strings.TrimSpace(s)
	line, rest, _ := strings.Cut(s, "\n")
	return strings.TrimSpace(line), strings.TrimSpace(rest) != ""
}

// Summary names the request in one line for the log and notifications: its
// first question (header, else text) and how many more follow.
func (r *Request) Summary() string {
	s := ansi.Truncate(markdown.Plain(r.What()), 80, "…")
	if n := len(r.Questions) - 1; n > 0 {
		s += " (+" + cell.Plural(n, "more question", "more questions") + ")"
	}
	return s
}

// AnswerSummary says in one line what was answered.
func (r *Request) AnswerSummary(a interaction.Answer) string {
	parts := make([]string, 0, len(a.Answers))
	for i, item := range a.Answers {
		v := ItemText(item)
		if len(a.Answers) > 1 {
			v = r.Questions[i].Title + " = " + v
		}
		parts = append(parts, v)
	}
	return ansi.Truncate(strings.Join(parts, "; "), 200, "…")
}

// ItemText shows one answer item, safe to draw.
func ItemText(item interaction.AnswerItem) string {
	switch {
	case item.Custom != "":
		return "“" + cell.SanitizeLine(item.Custom) + "”"
	case len(item.Selected) > 0:
		shown := make([]string, len(item.Selected))
		for j, l := range item.Selected {
			shown[j] = cell.SanitizeLine(l)
		}
		return strings.Join(shown, ", ")
	default:
		return "skipped"
	}
}
