package tui

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

// question is one question of a request: the agent's raw text (answers echo
// labels exactly as sent), its sanitized display text, the human's draft
// and the field that edits it: the option list (field.Choice) or the
// answer box (textField).
//
// The field is built the first time the question is shown and kept for
// the request's life: moving between questions, resizing the window and
// changing the theme adjust it in place, so nothing the human did (cursor,
// filter, typed text) is lost. The panel drives it itself, without a huh
// form around it (see ARCHITECTURE.md, "huh").
type question struct {
	raw interaction.Question

	title    string   // tab title: header, else "Q<n>"
	header   string   // sanitized header, one line
	text     string   // sanitized question text
	descs    []string // sanitized descriptions, nil when none has one
	detail   string   // sanitized detail (Markdown), "" when none
	previews []string // sanitized previews, nil when no option has one
	note     string   // the human's note on the answer

	// callSeen is set once the first line of the detail (for a
	// permission, the call) has been on screen: until then the keys that
	// answer the question are held (see hold.go, callHeld).
	callSeen bool

	// approve is, in a plan review (interaction.IntentPlanReview), the
	// option that approves the plan; -1 for any other question. Every
	// other option declines it.
	approve int

	draft *field.Draft // the option list's draft; nil for free text
	typed string       // the free-text draft

	choice *field.Choice // the field, for an option question
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

func newQuestion(i int, q interaction.Question) *question {
	qs := &question{raw: q, header: cell.DisplayLine(q.Header), text: cell.Sanitize(q.Question), detail: cell.Sanitize(q.Detail), approve: -1}
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
	qs.title = qs.header
	if qs.title == "" {
		qs.title = "Q" + strconv.Itoa(i+1)
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
				if qs.previews == nil {
					qs.previews = make([]string, len(q.Options))
				}
				qs.previews[j] = cell.Sanitize(o.Preview)
			}
		}
		qs.descs = descs
		qs.draft = field.NewDraft(len(q.Options))
	}
	return qs
}

// label is option i's label as the screen shows it. It is sanitized as
// it is asked for, not stored: the field asks only for the rows it draws
// (and for all of them once, when a filter starts), and a question of
// 100,000 options would otherwise prepare 1.6 MB of labels before its
// first frame.
func (q *question) label(i int) string {
	l := cell.SanitizeLine(q.raw.Options[i].Label)
	if !q.planReview() {
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

// planReview reports whether the question asks the human to approve a
// plan: one option approves it, every other declines it.
func (q *question) planReview() bool { return q.approve >= 0 }

// declinesPlan reports whether the question is a plan review answered
// with an option that declines the plan.
func (q *question) declinesPlan() bool {
	if !q.planReview() || q.draft == nil {
		return false
	}
	chosen := q.draft.ChosenIndices()
	return len(chosen) == 1 && chosen[0] != q.approve
}

// free reports whether the question takes free text only.
func (q *question) free() bool { return q.draft == nil }

// answer is the question's answer as the draft stands. This is the one
// rule for what counts as an answer: typed free text, typed Other text
// (which overrides the options, never supplements them), or chosen
// options; with none of them the question is skipped.
func (q *question) answer() interaction.AnswerItem {
	item := interaction.AnswerItem{ID: q.raw.ID, Selected: []string{}, Note: strings.TrimSpace(q.note)}
	if q.free() {
		if t := strings.TrimSpace(q.typed); t != "" {
			item.Custom = t
		}
		return item
	}
	if t, ok := q.draft.Custom(); ok {
		item.Custom = t
		return item
	}
	for _, i := range q.draft.ChosenIndices() {
		item.Selected = append(item.Selected, q.raw.Options[i].Label)
	}
	return item
}

// answered reports whether the draft holds an answer (see answer).
func (q *question) answered() bool {
	if q.free() {
		return strings.TrimSpace(q.typed) != ""
	}
	return q.draft.Answered()
}

// context returns the question's text (styled, its Markdown drawn) and, after a blank line, its detail rendered as Markdown (or as
// raw text, to approve exact bytes), wrapped to width.
func (q *question) context(width int, st *styles.Styles, md *cell.Markdown, raw bool) []string {
	if q.wrap.width != width || q.wrap.styles != st || q.wrap.raw != raw {
		q.wrap.width, q.wrap.styles, q.wrap.raw = width, st, raw
		lines := markdown.RenderIn(q.text, max(width, 1), st, st.Question.Text)
		if len(lines) == 0 {
			lines = []string{""}
		}
		q.wrap.call = -1
		if q.detail != "" {
			lines = append(lines, "")
			at := len(lines)
			if raw {
				lines = append(lines, cell.WrapExact(q.detail, width, st, st.Code.Plain)...)
			} else {
				lines = append(lines, md.Render(q.detail, width)...)
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

// callLine is the line of the question's context (as context last
// rendered it) where its detail starts: for a permission, the call the
// human approves (the command, the file, the URL), which the panel never
// lets an answer go without (see layoutFor and hold.go's callHeld); -1
// when the question has no detail, or one with nothing to show.
func (q *question) callLine() int {
	if q.wrap.lines == nil {
		return -1
	}
	return q.wrap.call
}

// previewLines is option opt's preview drawn in width×rows: only its
// beginning is rendered, so a 2,000-line preview costs what a screenful
// does; what is cut is counted.
func (q *question) previewLines(opt, width, rows int, st *styles.Styles, md *cell.Markdown, raw bool) []string {
	if q.previews == nil || opt < 0 || opt >= len(q.previews) || q.previews[opt] == "" || rows <= 0 {
		return nil
	}
	src := q.previews[opt]
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

// readyField readies the question's field to be shown in st: built on
// first use, restyled in place afterwards. The layout pass sizes it
// (sizeField).
func (q *question) readyField(st *styles.Styles, keys keys.Map, confirmHelp string) {
	switch {
	case q.free() && q.input == nil:
		q.input = newTextField(st, keys.Question.NewLine, q.typed)
	case q.free():
		q.input.restyle(st)
	case q.choice == nil:
		q.choice = field.NewChoice(field.ChoiceConfig{
			Label:        q.label,
			LabelCount:   len(q.raw.Options),
			Descriptions: q.descs,
			Multi:        q.raw.MultiSelect,
			NoOther:      q.raw.NoOther || q.planReview(), // a plan is declined with a note, not other text
			Draft:        q.draft,
			Styles:       st,
			Keys:         keys.Choice,
			ConfirmHelp:  confirmHelp,
		})
	default:
		q.choice.SetConfirmHelp(confirmHelp)
		q.choice.SetStyles(st)
	}
}

// sizeField gives the question's field w×h.
func (q *question) sizeField(w, h int) {
	w, h = max(w, 1), max(h, 1)
	if q.fieldW == w && q.fieldH == h {
		return
	}
	q.fieldW, q.fieldH = w, h
	switch {
	case q.choice != nil:
		q.choice.WithWidth(w).WithHeight(h)
	case q.input != nil:
		q.input.SetSize(w, h)
	}
}

// built reports whether the question's field was built (it was shown).
func (q *question) built() bool { return q.choice != nil || q.input != nil }

// fieldView draws the question's field at the size sizeField gave it.
func (q *question) fieldView() string {
	if q.choice != nil {
		return q.choice.View()
	}
	return q.input.View()
}

// focusField gives the question's field the keys; blurField takes them
// away when another question (or request) is shown.
func (q *question) focusField() tea.Cmd {
	switch {
	case q.choice != nil:
		return q.choice.Focus()
	case q.input != nil:
		return q.input.ta.Focus()
	}
	return nil
}

func (q *question) blurField() {
	switch {
	case q.choice != nil:
		q.choice.Blur()
	case q.input != nil:
		q.input.ta.Blur()
	}
}

// handle types a key or paste into the question's field, and reports
// whether it confirmed the question (a choice by Enter or a digit; a
// free-text answer is confirmed by the panel's own Enter).
func (q *question) handle(msg tea.Msg) (tea.Cmd, bool) {
	switch {
	case q.choice != nil:
		return q.choice.Handle(msg)
	case q.input != nil:
		cmd := q.input.update(msg)
		q.typed = q.input.Value()
		return cmd, false
	}
	return nil, false
}

// typing reports whether keys go to a text input, so letters, digits,
// space and ←/→ are text rather than commands.
func (q *question) typing() bool {
	if q.free() {
		return true
	}
	return q.choice != nil && q.choice.Typing()
}

// request is one waiting request and everything the human did to it on
// this view. Requests are plain structs owned by the root model.
type request struct {
	id       uint64
	agent    string // display name of the asking agent, safe to draw
	agentID  string // the agent's id as sent
	arrived  time.Time
	deadline time.Time

	questions []*question
	tab       int // index of the question shown; len(questions) is the review step
	scroll    int // first line of the question text (or review) shown

	saved *interaction.Answer // the draft last saved to the inbox

	// perm describes the tool call of a permission request (nil for a
	// question): its one question can be answered with a rule.
	perm *interaction.Permission

	// seen is set once the request has been on screen: the program never
	// brings it back by itself after that (hold.go).
	seen bool
}

func newRequest(r *inbox.Request) *request {
	req := &request{id: r.ID, arrived: r.Arrived, deadline: r.Deadline, agent: "agent", perm: r.Request.Permission}
	if a := r.Request.Agent; a != nil {
		req.agentID = a.ID
		if n := cell.DisplayLine(a.DisplayName()); strings.TrimSpace(n) != "" {
			req.agent = n
		}
	}
	req.questions = make([]*question, len(r.Request.Questions))
	for i, q := range r.Request.Questions {
		req.questions[i] = newQuestion(i, q)
	}
	return req
}

// agentKey is how the activity log knows the request's agent: its id,
// else its name.
func (r *request) agentKey() string {
	if strings.TrimSpace(r.agentID) != "" {
		return "id:" + r.agentID
	}
	return "name:" + r.agent
}

// single reports whether the request is one question, which skips the tabs
// and the review step.
func (r *request) single() bool { return len(r.questions) == 1 }

// gotoTab shows tab (wrapping), a question or the review step.
func (r *request) gotoTab(tab int) {
	if r.single() {
		return
	}
	n := len(r.questions) + 1
	r.tab = (tab%n + n) % n
	r.scroll = 0
}

// reviewing reports whether the review step is shown.
func (r *request) reviewing() bool { return r.tab >= len(r.questions) }

// current is the question shown, nil on the review step.
func (r *request) current() *question {
	if r.reviewing() {
		return nil
	}
	return r.questions[r.tab]
}

// unanswered counts the questions without an answer.
func (r *request) unanswered() int {
	n := 0
	for _, q := range r.questions {
		if !q.answered() {
			n++
		}
	}
	return n
}

// answer builds the answer to send: every question in request order,
// unanswered ones as skipped.
func (r *request) answer() interaction.Answer {
	a := interaction.Answer{Answers: make([]interaction.AnswerItem, len(r.questions))}
	for i, q := range r.questions {
		a.Answers[i] = q.answer()
	}
	return a
}

// draft is the answer so far, or nil when nothing is answered yet.
func (r *request) draft() *interaction.Answer {
	if r.unanswered() == len(r.questions) {
		return nil
	}
	a := r.answer()
	return &a
}

// draftChanged reports whether d differs from the draft last saved.
func (r *request) draftChanged(d *interaction.Answer) bool {
	if (d == nil) != (r.saved == nil) {
		return true
	}
	if d == nil {
		return false
	}
	for i, item := range d.Answers {
		old := r.saved.Answers[i]
		if item.Custom != old.Custom || !slices.Equal(item.Selected, old.Selected) {
			return true
		}
	}
	return false
}

// questionCount counts the questions of the requests.
func questionCount(rs []*request) int {
	n := 0
	for _, r := range rs {
		n += len(r.questions)
	}
	return n
}

// what names the request in a few words, as Markdown on one line: the
// call a permission is about, else its first header, else the first line
// of its first question.
func (r *request) what() string {
	if c := r.call(); c != "" {
		return c
	}
	q := r.questions[0]
	if q.header != "" {
		return q.header
	}
	return cell.FirstLine(q.text)
}

// call names the tool call a permission request is about, as Markdown on
// one line: the tool, then the first line of its command, its first file,
// its URL or the MCP server's tool, in code, exactly as the question
// shows it (every character that would act on the terminal or not show
// made visible); "" when the request is no permission, or its call names
// none of these. Two permissions of the same tool differ here, where
// their headers are alike.
func (r *request) call() string {
	p := r.perm
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

// summary names the request in one line for the log and notifications: its
// first question (header, else text) and how many more follow.
func (r *request) summary() string {
	s := ansi.Truncate(markdown.Plain(r.what()), 80, "…")
	if n := len(r.questions) - 1; n > 0 {
		s += " (+" + cell.Plural(n, "more question", "more questions") + ")"
	}
	return s
}

// answerSummary says in one line what was answered.
func (r *request) answerSummary(a interaction.Answer) string {
	parts := make([]string, 0, len(a.Answers))
	for i, item := range a.Answers {
		v := itemText(item)
		if len(a.Answers) > 1 {
			v = r.questions[i].title + " = " + v
		}
		parts = append(parts, v)
	}
	return ansi.Truncate(strings.Join(parts, "; "), 200, "…")
}

// itemText shows one answer item, safe to draw.
func itemText(item interaction.AnswerItem) string {
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
