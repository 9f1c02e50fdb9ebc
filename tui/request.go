package tui

import (
	"context"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/styles"
	"github.com/asktui/asktui/tui/field"
)

// question is one question of a request: the agent's raw text (answers echo
// labels exactly as sent), its sanitized display text, and the human's
// draft, which outlives the form that edits it.
type question struct {
	raw interaction.Question

	title  string   // tab title: header, else "Q<n>"
	header string   // sanitized header, one line
	text   string   // sanitized question text
	labels []string // sanitized labels, nil for a free-text question
	descs  []string // sanitized descriptions, nil when none has one

	choice *field.Draft // draft of an option question

	// wrap caches the styled, wrapped question text for one width and
	// palette: long questions are wrapped once, not every frame.
	wrap struct {
		width  int
		styles *styles.Styles
		lines  []string
	}
	typed string // draft of a free-text question
}

func newQuestion(i int, q interaction.Question) *question {
	qs := &question{raw: q, header: SanitizeLine(q.Header), text: Sanitize(q.Question)}
	qs.title = qs.header
	if qs.title == "" {
		qs.title = "Q" + strconv.Itoa(i+1)
	}
	if len(q.Options) > 0 {
		qs.labels = make([]string, len(q.Options))
		var descs []string
		for j, o := range q.Options {
			qs.labels[j] = SanitizeLine(o.Label)
			if o.Description != "" {
				if descs == nil {
					descs = make([]string, len(q.Options))
				}
				descs[j] = Sanitize(o.Description)
			}
		}
		qs.descs = descs
		qs.choice = field.NewDraft(len(q.Options))
	}
	return qs
}

// free reports whether the question takes free text only.
func (q *question) free() bool { return q.choice == nil }

// answer is the question's answer as the draft stands. An option question
// whose Other text is chosen answers with custom only (an override, never
// a supplement); a question with nothing chosen answers as skipped.
func (q *question) answer() interaction.AnswerItem {
	item := interaction.AnswerItem{ID: q.raw.ID, Selected: []string{}}
	if q.free() {
		if t := strings.TrimSpace(q.typed); t != "" {
			item.Custom = t
		}
		return item
	}
	d := q.choice
	if d.OtherChosen && strings.TrimSpace(d.OtherText) != "" {
		item.Custom = strings.TrimSpace(d.OtherText)
		return item
	}
	for i, on := range d.Chosen {
		if on {
			item.Selected = append(item.Selected, q.raw.Options[i].Label)
		}
	}
	return item
}

// answered reports whether the draft holds an answer.
func (q *question) answered() bool {
	a := q.answer()
	return a.Custom != "" || len(a.Selected) > 0
}

// request is one waiting AskUserQuestionRequest and everything the human
// did to it so far. Requests are plain structs owned by the root model.
type request struct {
	id       uint64
	ctx      context.Context
	reply    chan<- askResult
	settled  *atomic.Bool
	agent    string // sanitized display name of the asking agent
	agentID  string // the agent's id as sent
	arrived  time.Time
	deadline time.Time

	questions []*question
	tab       int // index of the question shown; len(questions) is the review step
	scroll    int // first line of the question text shown

	form         *huh.Form
	formW, formH int           // the size the form was built for
	choice       *field.Choice // the form's field when the tab is an option question

	dialog *dialog // an open confirmation, if any
}

func newRequest(m askMsg) *request {
	r := &request{
		id: m.id, ctx: m.ctx, reply: m.reply, settled: m.settled, arrived: m.arrived, deadline: m.deadline,
		agent: "agent",
	}
	if a := m.req.Agent; a != nil {
		r.agentID = a.ID
		if n := SanitizeLine(a.DisplayName()); strings.TrimSpace(n) != "" {
			r.agent = n
		}
	}
	r.questions = make([]*question, len(m.req.Questions))
	for i, q := range m.req.Questions {
		r.questions[i] = newQuestion(i, q)
	}
	return r
}

// single reports whether the request is one question, which skips the tabs
// and the review step.
func (r *request) single() bool { return len(r.questions) == 1 }

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

// respond delivers the outcome. The reply channel has room for exactly one
// value and is written once, so this never blocks. It reports false when
// the caller has already stopped waiting, so nothing reached it.
func (r *request) respond(res askResult) bool {
	if r.settled != nil && !r.settled.CompareAndSwap(false, true) {
		return false
	}
	select {
	case r.reply <- res:
	default:
	}
	return true
}

// buildForm makes a fresh huh form for the current tab; drafts live in the
// questions, so a rebuilt form starts where the human left off.
func (r *request) buildForm(st *styles.Styles, w, h int, accessible bool) tea.Cmd {
	r.form, r.choice = nil, nil
	q := r.current()
	if q == nil {
		return nil
	}
	var f huh.Field
	if q.free() {
		f = huh.NewText().
			Value(&q.typed).
			Placeholder("Type your answer…").
			CharLimit(interaction.MaxCustomLen).
			ExternalEditor(false).
			ShowLineNumbers(false)
		if accessible {
			f.(*huh.Text).Title("Your answer (enter to skip):")
		}
	} else {
		r.choice = field.NewChoice(field.ChoiceConfig{
			Labels:       q.labels,
			Descriptions: q.descs,
			Multi:        q.raw.MultiSelect,
			Draft:        q.choice,
			Styles:       st,
			Keys:         fieldKeys,
		})
		f = r.choice
	}
	if r.choice != nil {
		// Tell the list its height directly: huh passes a group's height
		// down only to a field taller than it.
		r.choice.WithWidth(max(w, 1))
		r.choice.WithHeight(max(h, 1))
	}
	r.form = huh.NewForm(huh.NewGroup(f)).
		WithShowHelp(false).
		WithShowErrors(false).
		WithTheme(st.HuhTheme()).
		WithKeyMap(huhKeys).
		WithWidth(max(w, 1)).
		WithHeight(max(h, 1))
	return r.form.Init()
}

// huhKeys is huh's keymap with the bindings asktui handles itself removed,
// so a key does one thing only.
var huhKeys = func() *huh.KeyMap {
	k := huh.NewDefaultKeyMap()
	k.Quit.SetEnabled(false)
	k.Text.Next.SetKeys("enter")
	k.Text.Prev.SetEnabled(false)
	k.Text.Editor.SetEnabled(false)
	return k
}()

// summary names the request in one line for the log and the inbox: its
// first question (header, else text) and how many more follow.
func (r *request) summary() string {
	q := r.questions[0]
	s := q.header
	if s == "" {
		s = firstLine(q.text)
	}
	s = ansi.Truncate(s, 80, "…")
	if n := len(r.questions) - 1; n > 0 {
		s += " (+" + itoaPlural(n, "more question", "more questions") + ")"
	}
	return s
}

// answerSummary says in one line what was answered.
func (r *request) answerSummary(a interaction.Answer) string {
	parts := make([]string, 0, len(a.Answers))
	for i, item := range a.Answers {
		var v string
		switch {
		case item.Custom != "":
			v = "“" + SanitizeLine(item.Custom) + "”"
		case len(item.Selected) > 0:
			shown := make([]string, len(item.Selected))
			for j, l := range item.Selected {
				shown[j] = SanitizeLine(l)
			}
			v = strings.Join(shown, ", ")
		default:
			v = "skipped"
		}
		if len(a.Answers) > 1 {
			v = r.questions[i].title + " = " + v
		}
		parts = append(parts, v)
	}
	return ansi.Truncate(strings.Join(parts, "; "), 200, "…")
}

// wrapped returns the question text styled (with its inline Markdown) and
// wrapped to width.
func (q *question) wrapped(width int, st *styles.Styles) []string {
	if q.wrap.width != width || q.wrap.styles != st {
		styled := inlineMarkdown(q.text, st.Question.Text, st.Question.Code)
		q.wrap.width, q.wrap.styles = width, st
		q.wrap.lines = strings.Split(ansi.Wrap(styled, width, ""), "\n")
	}
	return q.wrap.lines
}
