package interaction

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Limits on a request and its answer. They are generous: they exist so that
// a confused or hostile caller cannot exhaust the user interface, not to
// constrain ordinary use. Lengths are in bytes of UTF-8.
const (
	// MaxQuestions is the most questions one request may carry.
	MaxQuestions = 100
	// MaxOptions is the most options one question may carry.
	MaxOptions = 100_000
	// MaxIDLen is the longest question id, in bytes. It also bounds an
	// agent's id and name.
	MaxIDLen = 256
	// MaxHeaderLen is the longest question header, in bytes.
	MaxHeaderLen = 256
	// MaxQuestionLen is the longest question text, in bytes.
	MaxQuestionLen = 65_536
	// MaxLabelLen is the longest option label, in bytes.
	MaxLabelLen = 4_096
	// MaxDescriptionLen is the longest option description, in bytes.
	MaxDescriptionLen = 16_384
	// MaxDetailLen is the longest question detail, in bytes: the Markdown
	// shown with a question (a plan, a diff, a log).
	MaxDetailLen = 65_536
	// MaxPreviewLen is the longest option preview, in bytes.
	MaxPreviewLen = 65_536
	// MaxCustomLen is the longest free "Other" text in an answer, in bytes.
	MaxCustomLen = 65_536
	// MaxNoteLen is the longest note on an answer, in bytes.
	MaxNoteLen = 65_536
	// MaxRequestBytes is the largest encoded request [DecodeRequest]
	// accepts (64 MiB). [Request.Validate] also rejects a request whose
	// text alone adds up to more.
	MaxRequestBytes = 64 << 20
)

// maxProblems bounds how many problems one error message lists.
const maxProblems = 5

// Validate reports whether the request can be put to a human. It returns
// nil, an *[Error] with [CodeEmptyQuestions] when there are no questions, or
// one with [CodeInvalidRequest] naming the first few problems.
//
// The rules: at most [MaxQuestions] questions; every question has a
// non-empty id, unique within the request, and non-empty question text
// (whitespace-only counts as empty); a question has at most [MaxOptions]
// options, each with a non-empty label unique within the question (compared
// exactly); every string is valid UTF-8 and within its length limit (see
// the Max constants); the request's text adds up to at most
// [MaxRequestBytes]; and a [Permission], when there is one, is well formed
// (a known kind, an absolute working directory, strings and paths within
// their limits) and names the request's one question and options of it;
// a plan review's [Intent] names, in Approve, one of its question's
// options (an intent of another kind, known or not, is no problem).
//
// Messages count questions and options from 1 and name the question's id,
// for example:
//
//	question 2 (id "db"): option 3 has an empty label; every option needs a non-empty "label"
//
// Validate runs in time linear in the size of the request.
func (r Request) Validate() error {
	if len(r.Questions) == 0 {
		return Errorf(CodeEmptyQuestions,
			`the request has no questions; send at least one, as in {"questions": [{"id": "q1", "question": "..."}]}`)
	}
	if err := tooManyQuestions(len(r.Questions)); err != nil {
		return err
	}
	if n := r.textBytes(); n > MaxRequestBytes {
		return Errorf(CodeInvalidRequest,
			"the request carries %d bytes of text, over the limit of %d bytes (64 MiB); send fewer or shorter questions and options",
			n, MaxRequestBytes)
	}

	var p problems
	if a := r.Agent; a != nil {
		p.checkString(`the agent's "id"`, a.ID, MaxIDLen)
		p.checkString(`the agent's "name"`, a.Name, MaxIDLen)
	}

	ids := make(map[string]int, len(r.Questions))
	labels := labelSets.Get().(*labelSet) // reused across questions
	for i, q := range r.Questions {
		ref := questionRef(i, q.ID)
		p.checkQuestion(ref, i, q, ids)
		p.checkOptions(ref, q, labels)
	}
	labels.opts = nil
	labelSets.Put(labels)
	p.checkPermission(r)
	return p.err(CodeInvalidRequest)
}

// checkQuestion checks the text of question i, whose reference in
// messages is ref: its id (not empty, and not in ids, the ids of the
// questions before it, which it is added to), question text, header and
// detail.
func (p *problems) checkQuestion(ref string, i int, q Question, ids map[string]int) {
	switch {
	case strings.TrimSpace(q.ID) == "":
		p.addf(`%s: the "id" is %s; every question needs a non-empty "id" that is unique within the request, such as "q%d"`,
			ref, emptiness(q.ID), i+1)
	default:
		p.checkString(ref+`: the "id"`, q.ID, MaxIDLen)
		if first, dup := ids[q.ID]; dup {
			p.addf(`questions %d and %d share the id %s; ids must be unique within a request`,
				first+1, i+1, quote(q.ID))
		} else {
			ids[q.ID] = i
		}
	}
	if strings.TrimSpace(q.Question) == "" {
		p.addf(`%s: the "question" text is %s; every question needs non-empty "question" text`,
			ref, emptiness(q.Question))
	} else {
		p.checkString(ref+`: the "question" text`, q.Question, MaxQuestionLen)
	}
	p.checkString(ref+`: the "header"`, q.Header, MaxHeaderLen)
	if !fine(q.Detail, MaxDetailLen) {
		p.checkString(ref+`: the "detail"`, q.Detail, MaxDetailLen)
	}
	p.checkIntent(ref, q)
}

// checkIntent checks question q's intent: its strings, and in a plan
// review the option that approves. A kind it does not know is no
// problem: the question is asked as any other.
func (p *problems) checkIntent(ref string, q Question) {
	in := q.Intent
	if in == nil {
		return
	}
	p.checkString(ref+`: the "intent"'s "kind"`, in.Kind, MaxIDLen)
	p.checkString(ref+`: the "intent"'s "approve"`, in.Approve, MaxLabelLen)
	if in.Kind != IntentPlanReview {
		return
	}
	switch {
	case len(q.Options) == 0:
		p.addf(`%s: the "intent" is a %q but the question has no options; give it "options", one of them the label "approve" names`,
			ref, IntentPlanReview)
	case in.Approve == "":
		p.addf(`%s: the "intent" is a %q without "approve"; set "approve" to the label of the option that approves the plan, such as %s`,
			ref, IntentPlanReview, quote(q.Options[0].Label))
	default:
		for _, o := range q.Options {
			if o.Label == in.Approve {
				return
			}
		}
		p.addf(`%s: the "intent"'s "approve" is %s, which is no option's label; set it to the label of the option that approves the plan, such as %s`,
			ref, quote(in.Approve), quote(q.Options[0].Label))
	}
}

// checkOptions checks the options of question q: how many, and each
// one. labels is the set of the labels seen, reused across questions.
func (p *problems) checkOptions(ref string, q Question, labels *labelSet) {
	if len(q.Options) > MaxOptions {
		p.addf(`%s: %d options exceed the limit of %d options per question; offer fewer choices, or ask without "options" for a free-text answer`,
			ref, len(q.Options), MaxOptions)
		return
	}
	if len(q.Options) == 0 {
		if q.NoOther {
			p.addf(`%s: "noOther" is set but the question has no options; give it "options", or drop "noOther" to ask for free text`, ref)
		}
		return
	}
	labels.reset(q.Options)
	for j, o := range q.Options {
		p.checkOption(ref, j, o, labels)
	}
}

// checkOption checks option j of a question: its label (not empty, and
// not in labels, the labels before it, which it is added to), description
// and preview.
func (p *problems) checkOption(ref string, j int, o Option, labels *labelSet) {
	if strings.TrimSpace(o.Label) == "" {
		kind := "an empty"
		if o.Label != "" {
			kind = "a whitespace-only"
		}
		p.addf(`%s: option %d has %s label; every option needs a non-empty "label"`, ref, j+1, kind)
	} else {
		if !fine(o.Label, MaxLabelLen) {
			p.checkString(fmt.Sprintf(`%s: option %d "label"`, ref, j+1), o.Label, MaxLabelLen)
		}
		if first := labels.add(j); first >= 0 {
			p.addf(`%s: options %d and %d share the label %s; labels must be unique within a question`,
				ref, first+1, j+1, quote(o.Label))
		}
	}
	if !fine(o.Description, MaxDescriptionLen) {
		p.checkString(fmt.Sprintf(`%s: option %d "description"`, ref, j+1), o.Description, MaxDescriptionLen)
	}
	if !fine(o.Preview, MaxPreviewLen) {
		p.checkString(fmt.Sprintf(`%s: option %d "preview"`, ref, j+1), o.Preview, MaxPreviewLen)
	}
}

// textBytes adds up the lengths of every string in the request.
func (r Request) textBytes() int {
	n := 0
	if r.Agent != nil {
		n += len(r.Agent.ID) + len(r.Agent.Name)
	}
	n += r.Permission.textBytes()
	for _, q := range r.Questions {
		n += len(q.ID) + len(q.Question) + len(q.Header)
		if q.Intent != nil {
			n += len(q.Intent.Kind) + len(q.Intent.Approve)
		}
		for _, o := range q.Options {
			n += len(o.Label) + len(o.Description)
		}
	}
	return n
}

// tooManyQuestions returns the error for a request of n questions, or nil.
func tooManyQuestions(n int) *Error {
	if n <= MaxQuestions {
		return nil
	}
	return Errorf(CodeInvalidRequest,
		"%d questions exceed the limit of %d questions per request; split them across several requests",
		n, MaxQuestions)
}

// problems collects the first few problems of a request or answer and
// counts the rest, so messages stay bounded however broken the input is.
type problems struct {
	list []string
	more int
}

func (p *problems) addf(format string, args ...any) {
	if len(p.list) >= maxProblems {
		p.more++
		return
	}
	p.list = append(p.list, fmt.Sprintf(format, args...))
}

// fine reports whether checkString would find nothing wrong with s, so the
// name of a value is only built when there is a problem to report.
func fine(s string, limit int) bool { return len(s) <= limit && utf8.ValidString(s) }

// checkString reports s if it is longer than limit bytes or not valid
// UTF-8. what names the value, as in `question 2 (id "db"): the "header"`.
func (p *problems) checkString(what, s string, limit int) {
	if len(s) > limit {
		p.addf("%s is %d bytes, over the limit of %d bytes; shorten it", what, len(s), limit)
		return
	}
	if !utf8.ValidString(s) {
		p.addf("%s is not valid UTF-8; send UTF-8 text", what)
	}
}

// err returns the collected problems as one *Error, or nil when there are
// none.
func (p *problems) err(code Code) error {
	if len(p.list) == 0 {
		return nil
	}
	msg := strings.Join(p.list, "; ")
	if p.more > 0 {
		msg += fmt.Sprintf(" (and %d more %s)", p.more, plural(p.more, "problem", "problems"))
	}
	return &Error{Code: code, Message: msg}
}

// questionRef names question i (0-based) for messages: `question 2 (id
// "db")`, or `question 2` when it has no usable id.
func questionRef(i int, id string) string {
	if strings.TrimSpace(id) == "" {
		return "question " + strconv.Itoa(i+1)
	}
	return fmt.Sprintf("question %d (id %s)", i+1, quote(id))
}

// maxQuoted bounds how much of a caller's string a message repeats.
const maxQuoted = 64

// quote returns s as a Go string literal, cut to about maxQuoted bytes so a
// hostile value cannot blow up the message.
func quote(s string) string {
	if len(s) <= maxQuoted {
		return strconv.Quote(s)
	}
	cut := maxQuoted
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return strconv.Quote(s[:cut]) + "…"
}

// emptiness describes an empty or whitespace-only value.
func emptiness(s string) string {
	if s == "" {
		return "empty"
	}
	return "only whitespace"
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
