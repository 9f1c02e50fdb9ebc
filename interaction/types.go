package interaction

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/asktui/asktui/internal/jsonl"
)

// Option is one selectable choice of a [Question].
//
// Label is both the text the human sees and the value reported back in
// [AnswerItem.Selected], so labels are unique within a question.
type Option struct {
	// Label is the user-facing text and the model-facing selected value.
	Label string `json:"label" jsonschema:"Short, unique text of the choice; returned in \"selected\"."`
	// Description is optional help text rendered by capable interfaces.
	Description string `json:"description,omitempty" jsonschema:"What choosing it means."`
	// Preview is optional Markdown or code shown for the option under the
	// cursor: what choosing it means (the file it writes, the layout it
	// gives).
	Preview string `json:"preview,omitempty" jsonschema:"Markdown or code shown while the option is under the cursor: what choosing it gives."`
}

// Question is one question of a [Request].
//
// A question with Options is answered by selecting labels (or by free
// "Other" text); a question without Options is answered with free text only.
type Question struct {
	// ID is a stable, caller-chosen identifier echoed in the answer.
	ID string `json:"id" jsonschema:"Stable identifier echoed in the answer, such as \"db\"."`
	// Question is the text to display.
	Question string `json:"question" jsonschema:"The complete question to ask."`
	// Header is an optional short heading or group label.
	Header string `json:"header,omitempty" jsonschema:"Very short heading for the question (a few words)."`
	// Detail is optional supporting Markdown shown with the question but
	// kept out of the labels: a plan to approve, a diff, an error log.
	Detail string `json:"detail,omitempty" jsonschema:"Supporting Markdown the human reads with the question: a plan, a diff, an error log."`
	// Options are the choices the interface can render as a menu.
	Options []Option `json:"options,omitempty" jsonschema:"2-6 choices, recommended first with \" (Recommended)\" at the end of its label. Omit for a free-text question."`
	// MultiSelect allows more than one option to be selected. The default
	// is single-select.
	MultiSelect bool `json:"multiSelect,omitempty" jsonschema:"Allow several options to be selected. Default false."`
	// NoOther says the question takes only its options: no free "Other"
	// text. A permission prompt whose protocol has no place for text, or
	// a form field whose schema cannot carry it, sets it; an answer to
	// such a question never has Custom text. It needs Options.
	NoOther bool `json:"noOther,omitempty" jsonschema:"Offer only the options, with no free-text Other answer. Needs options. Default false."`
	// Intent says what the question is for, when it is more than a
	// choice (a plan to approve), so that the screen presents it as
	// that; nil for an ordinary question. The answer is the same either
	// way.
	Intent *Intent `json:"intent,omitempty" jsonschema:"What the question is for, when it is more than a choice. Omit for an ordinary question."`
}

// Intent says what a [Question] is for, as deepseek-harness's question
// tool names it: the screen presents the question as that, and the
// answer is the same as for any question (the labels chosen, the note).
type Intent struct {
	// Kind names the intent: [IntentPlanReview]. A kind asktui does not
	// know is no error: the question is asked as any other.
	Kind string `json:"kind" jsonschema:"\"plan-review\": \"detail\" is a plan in Markdown, the option \"approve\" names approves it and every other option declines it. Other kinds are asked as an ordinary question."`
	// Approve is, in a plan review, the label of the option that
	// approves the plan; every other option declines it.
	Approve string `json:"approve,omitempty" jsonschema:"For \"plan-review\": the label of the option that approves the plan."`
}

// IntentPlanReview is the kind of [Intent] of a question that asks the
// human to approve a plan: its Detail is the plan, in Markdown, the
// option [Intent.Approve] names approves it, and every other option
// declines it.
const IntentPlanReview = "plan-review"

// PlanReview reports whether the question asks the human to approve a
// plan ([IntentPlanReview]), one option approving it.
func (q Question) PlanReview() bool {
	return q.Intent != nil && q.Intent.Kind == IntentPlanReview
}

// wireQuestion is the decoding form of a Question. It has no methods, so
// decoding errors carry plain field paths, and it accepts both spellings of
// the multi-select flag.
type wireQuestion struct {
	ID               string     `json:"id"`
	Question         string     `json:"question"`
	Header           string     `json:"header"`
	Detail           string     `json:"detail"`
	Options          optionList `json:"options"`
	MultiSelect      bool       `json:"multiSelect"`
	MultiSelectSnake bool       `json:"multi_select"`
	Multiple         bool       `json:"multiple"`
	NoOther          bool       `json:"noOther"`
	Intent           *Intent    `json:"intent"`
}

func (w wireQuestion) question() Question {
	return Question{
		ID:          w.ID,
		Question:    w.Question,
		Header:      w.Header,
		Detail:      w.Detail,
		Options:     w.Options,
		MultiSelect: w.MultiSelect || w.MultiSelectSnake || w.Multiple,
		NoOther:     w.NoOther,
		Intent:      w.Intent,
	}
}

// UnmarshalJSON decodes a question. Besides "multiSelect" it accepts the
// spellings "multi_select" and "multiple" that models often produce; the
// question is multi-select if any of them is true. Unknown fields are
// ignored. ([DecodeRequest] is more lenient still: options as plain
// strings, missing ids.)
func (q *Question) UnmarshalJSON(data []byte) error {
	w := wireQuestion{
		ID:          q.ID,
		Question:    q.Question,
		Header:      q.Header,
		Detail:      q.Detail,
		Options:     q.Options,
		MultiSelect: q.MultiSelect,
		NoOther:     q.NoOther,
		Intent:      q.Intent,
	}
	if err := json.Unmarshal(data, &w); err != nil {
		return err
	}
	*q = w.question()
	return nil
}

// Agent identifies the agent that sent a request, when it came from one.
type Agent struct {
	// ID is a stable identifier for the agent or its session.
	ID string `json:"id"`
	// Name is an optional human-readable name.
	Name string `json:"name,omitempty"`
}

// DisplayName returns the name to show for the agent: its Name, else its
// ID, else "agent". Whitespace-only values count as absent.
func (a Agent) DisplayName() string {
	switch {
	case strings.TrimSpace(a.Name) != "":
		return a.Name
	case strings.TrimSpace(a.ID) != "":
		return a.ID
	default:
		return "agent"
	}
}

// Request asks the human one or more questions in one flow.
type Request struct {
	// Questions to display, in order. A valid request has at least one.
	Questions []Question `json:"questions" jsonschema:"The questions, asked in this order in one flow."`
	// Agent is the calling agent, when the request came from an agent.
	Agent *Agent `json:"agent,omitempty"`
	// Permission describes the tool call a permission request is about,
	// for the human's standing rules; nil for every other request. It is
	// set only by asktui's own code and never part of the request's JSON
	// (see [Permission]).
	Permission *Permission `json:"-"`
}

// AnswerItem is the answer to one question, routed by the question's ID.
type AnswerItem struct {
	// ID is the answered question's id.
	ID string `json:"id" jsonschema:"The answered question's id."`
	// Selected holds the selected option labels. It is empty when the
	// answer is free text or the question was skipped.
	Selected []string `json:"selected" jsonschema:"The chosen option labels; empty for free text or a skipped question."`
	// Custom is free "Other" text. When non-empty it overrides the choices:
	// Selected must then be empty.
	Custom string `json:"custom,omitempty" jsonschema:"Free text typed by the human; when present it replaces the choices."`
	// Note is the human's note on the answer ("yes, but…"), alongside the
	// selection or the text; it is neither.
	Note string `json:"note,omitempty" jsonschema:"The human's note on the answer, alongside the selection or the text."`
}

// MarshalJSON encodes the item with "selected" always an array, never
// null, and without HTML escaping: answers carry the human's text, and "<"
// should read as "<". Because custom text overrides the choices, "selected" is encoded
// empty whenever Custom is non-empty.
func (a AnswerItem) MarshalJSON() ([]byte, error) {
	type plain AnswerItem // no methods: avoids recursion
	if a.Selected == nil || a.Custom != "" {
		a.Selected = []string{}
	}
	return jsonl.Marshal(plain(a))
}

// Skipped reports whether the question was skipped: nothing selected and no
// custom text.
func (a AnswerItem) Skipped() bool {
	return len(a.Selected) == 0 && a.Custom == ""
}

// Skip returns the answer item for a skipped question:
// {"id": id, "selected": []}.
func Skip(id string) AnswerItem {
	return AnswerItem{ID: id, Selected: []string{}}
}

// Answer is a provider's reply to a [Request].
type Answer struct {
	// Answers holds one item per answered question. Answers returned by
	// [Service.Ask] hold exactly one item per question, in request order.
	Answers []AnswerItem `json:"answers" jsonschema:"One item per question, in request order."`
}

// MarshalJSON encodes the answer with "answers" always an array, never
// null.
func (a Answer) MarshalJSON() ([]byte, error) {
	type plain Answer // no methods: avoids recursion
	if a.Answers == nil {
		a.Answers = []AnswerItem{}
	}
	return jsonl.Marshal(plain(a))
}

// Get returns the item answering the question with the given id, and
// whether there is one.
func (a Answer) Get(id string) (AnswerItem, bool) {
	for _, item := range a.Answers {
		if item.ID == id {
			return item, true
		}
	}
	return AnswerItem{}, false
}

// Provider is a user interface that can put questions to a human.
//
// Ask blocks until the human answers or declines, the interface goes away,
// or ctx ends; ctx is the request's lifetime, and when it ends the provider
// withdraws the questions and returns promptly. Errors should be *[Error]
// values: [CodeDeclined] when the human declines, [CodeProviderClosed] when
// the interface goes away, and the result of [ContextError] when ctx ends.
// Ask may be called concurrently.
type Provider interface {
	Ask(ctx context.Context, req Request) (Answer, error)
}

// ProviderFunc adapts an ordinary function to the [Provider] interface.
type ProviderFunc func(ctx context.Context, req Request) (Answer, error)

// Ask calls f(ctx, req).
func (f ProviderFunc) Ask(ctx context.Context, req Request) (Answer, error) {
	return f(ctx, req)
}

// optionList decodes a question's options into a slice made to measure:
// encoding/json appends to a slice it grows by a quarter at a time, which
// for 100,000 options copies and clears it twenty times over.
type optionList []Option

// UnmarshalJSON decodes the common form of options with [scanOptions],
// and anything else with encoding/json, counting the options first.
func (l *optionList) UnmarshalJSON(data []byte) error {
	if opts, ok := scanOptions(data); ok {
		*l = opts
		return nil
	}
	opts := make([]Option, 0, countElements(data))
	if err := json.Unmarshal(data, &opts); err != nil {
		return err
	}
	*l = opts
	return nil
}

// countElements counts the elements of a JSON array that encoding/json
// has already found well formed (or 0 for any other value).
func countElements(data []byte) int {
	if data = trimLeftSpace(data); len(data) == 0 || data[0] != '[' {
		return 0
	}
	return arrayLen(string(data[1:]))
}
