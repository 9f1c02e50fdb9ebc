package interaction

import (
	"strconv"
	"strings"
	"testing"
	"time"
)

// q returns a valid question with the given id and option labels.
func q(id string, labels ...string) Question {
	qq := Question{ID: id, Question: "Question " + id + "?"}
	for _, l := range labels {
		qq.Options = append(qq.Options, Option{Label: l})
	}
	return qq
}

func req(qs ...Question) Request { return Request{Questions: qs} }

// wantError fails t unless err is an *Error with the given code whose
// message contains every fragment.
func wantError(t *testing.T, err error, code Code, fragments ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("error = nil, want %s", code)
	}
	e, ok := err.(*Error) //nolint:errorlint // validation returns an *Error itself, not one wrapped
	if !ok {
		t.Fatalf("error %v is a %T, want *Error", err, err)
	}
	if e.Code != code {
		t.Fatalf("code = %s (%v), want %s", e.Code, err, code)
	}
	for _, f := range fragments {
		if !strings.Contains(e.Message, f) {
			t.Errorf("message %q does not contain %q", e.Message, f)
		}
	}
}

func TestValidateOK(t *testing.T) {
	tests := map[string]Request{
		"free text":            req(q("a")),
		"options":              req(q("a", "x", "y"), q("b")),
		"multi-select":         {Questions: []Question{{ID: "m", Question: "?", Options: []Option{{Label: "x"}, {Label: "X"}}, MultiSelect: true}}},
		"agent":                {Questions: []Question{q("a")}, Agent: &Agent{ID: "1", Name: "n"}},
		"empty agent":          {Questions: []Question{q("a")}, Agent: &Agent{}},
		"header and desc":      {Questions: []Question{{ID: "a", Question: "?", Header: "H", Options: []Option{{Label: "x", Description: "d"}}}}},
		"same label elsewhere": req(q("a", "yes"), q("b", "yes")),
		"label case differs":   req(q("a", "yes", "Yes", "yes ")),
		"max questions":        req(manyQuestions(MaxQuestions)...),
		"limits exactly": {Questions: []Question{{
			ID:       strings.Repeat("i", MaxIDLen),
			Question: strings.Repeat("q", MaxQuestionLen),
			Header:   strings.Repeat("h", MaxHeaderLen),
			Options:  []Option{{Label: strings.Repeat("l", MaxLabelLen), Description: strings.Repeat("d", MaxDescriptionLen)}},
		}}},
		"unicode": req(q("日本", "🎉", "é")),
	}
	for name, r := range tests {
		t.Run(name, func(t *testing.T) {
			if err := r.Validate(); err != nil {
				t.Errorf("Validate() = %v, want nil", err)
			}
		})
	}
}

func manyQuestions(n int) []Question {
	qs := make([]Question, n)
	for i := range qs {
		qs[i] = q("q" + strconv.Itoa(i+1))
	}
	return qs
}

func TestValidateErrors(t *testing.T) {
	long := func(n int) string { return strings.Repeat("x", n) }
	tests := []struct {
		name      string
		req       Request
		code      Code
		fragments []string
	}{
		{"nil questions", Request{}, CodeEmptyQuestions, []string{"no questions", `"questions"`}},
		{"empty questions", Request{Questions: []Question{}}, CodeEmptyQuestions, []string{"no questions"}},
		{"too many questions", req(manyQuestions(MaxQuestions + 1)...), CodeInvalidRequest,
			[]string{"101 questions", "limit of 100 questions per request"}},
		{"empty id", req(q("a"), Question{Question: "?"}), CodeInvalidRequest,
			[]string{`question 2: the "id" is empty`, `non-empty "id"`, `"q2"`}},
		{"whitespace id", req(Question{ID: " \t", Question: "?"}), CodeInvalidRequest,
			[]string{`question 1: the "id" is only whitespace`}},
		{"duplicate id", req(q("env"), q("x"), q("env")), CodeInvalidRequest,
			[]string{`questions 1 and 3 share the id "env"; ids must be unique within a request`}},
		{"long id", req(q(long(MaxIDLen + 1))), CodeInvalidRequest,
			[]string{"question 1 (id ", `the "id" is 257 bytes, over the limit of 256 bytes`, "…"}},
		{"invalid UTF-8 id", req(q("a\xff")), CodeInvalidRequest,
			[]string{`question 1 (id "a\xff"): the "id" is not valid UTF-8`}},
		{"empty question", req(q("a"), Question{ID: "db"}), CodeInvalidRequest,
			[]string{`question 2 (id "db"): the "question" text is empty`}},
		{"noOther without options", req(Question{ID: "ok", Question: "Proceed?", NoOther: true}), CodeInvalidRequest,
			[]string{`question 1 (id "ok"): "noOther" is set but the question has no options`}},
		{"whitespace question", req(Question{ID: "db", Question: "\n  "}), CodeInvalidRequest,
			[]string{`question 1 (id "db"): the "question" text is only whitespace`}},
		{"long question", req(Question{ID: "db", Question: long(MaxQuestionLen + 1)}), CodeInvalidRequest,
			[]string{`question 1 (id "db"): the "question" text is 65537 bytes, over the limit of 65536 bytes`}},
		{"invalid UTF-8 question", req(Question{ID: "db", Question: "\xc3("}), CodeInvalidRequest,
			[]string{`question 1 (id "db"): the "question" text is not valid UTF-8`}},
		{"long header", req(Question{ID: "db", Question: "?", Header: long(MaxHeaderLen + 1)}), CodeInvalidRequest,
			[]string{`question 1 (id "db"): the "header" is 257 bytes, over the limit of 256 bytes`}},
		{"invalid UTF-8 header", req(Question{ID: "db", Question: "?", Header: "\x80"}), CodeInvalidRequest,
			[]string{`question 1 (id "db"): the "header" is not valid UTF-8`}},
		{"empty label", req(q("a"), q("db", "x", "y", "")), CodeInvalidRequest,
			[]string{`question 2 (id "db"): option 3 has an empty label; every option needs a non-empty "label"`}},
		{"whitespace label", req(q("db", " ")), CodeInvalidRequest,
			[]string{`question 1 (id "db"): option 1 has a whitespace-only label`}},
		{"duplicate label", req(q("db", "yes", "no", "maybe", "yes")), CodeInvalidRequest,
			[]string{`question 1 (id "db"): options 1 and 4 share the label "yes"; labels must be unique within a question`}},
		{"long label", req(q("db", long(MaxLabelLen+1))), CodeInvalidRequest,
			[]string{`question 1 (id "db"): option 1 "label" is 4097 bytes, over the limit of 4096 bytes`}},
		{"invalid UTF-8 label", req(q("db", "ok", "\xfe")), CodeInvalidRequest,
			[]string{`question 1 (id "db"): option 2 "label" is not valid UTF-8`}},
		{"long description", Request{Questions: []Question{{ID: "db", Question: "?", Options: []Option{{Label: "a", Description: long(MaxDescriptionLen + 1)}}}}}, CodeInvalidRequest,
			[]string{`question 1 (id "db"): option 1 "description" is 16385 bytes, over the limit of 16384 bytes`}},
		{"invalid UTF-8 description", Request{Questions: []Question{{ID: "db", Question: "?", Options: []Option{{Label: "a", Description: "\xff"}}}}}, CodeInvalidRequest,
			[]string{`question 1 (id "db"): option 1 "description" is not valid UTF-8`}},
		{"long agent id", Request{Questions: []Question{q("a")}, Agent: &Agent{ID: long(MaxIDLen + 1)}}, CodeInvalidRequest,
			[]string{`the agent's "id" is 257 bytes, over the limit of 256 bytes`}},
		{"invalid UTF-8 agent name", Request{Questions: []Question{q("a")}, Agent: &Agent{Name: "\xff"}}, CodeInvalidRequest,
			[]string{`the agent's "name" is not valid UTF-8`}},
		{"too many options", req(Question{ID: "x", Question: "?", Options: make([]Option, MaxOptions+1)}), CodeInvalidRequest,
			[]string{`question 1 (id "x"): 100001 options exceed the limit of 100000 options per question`}},
		{"several problems", req(Question{ID: "a"}, Question{ID: "a", Question: "?"}), CodeInvalidRequest,
			[]string{`question 1 (id "a"): the "question" text is empty`, `; questions 1 and 2 share the id "a"`}},
		{"many problems are bounded", req(Question{ID: "x", Question: "?", Options: make([]Option, 1000)}), CodeInvalidRequest,
			[]string{"option 1 has an empty label", "option 5 has an empty label", "(and 995 more problems)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.req.Validate()
			wantError(t, err, tt.code, tt.fragments...)
			if len(err.Error()) > 4096 {
				t.Errorf("message is %d bytes long; it should stay bounded", len(err.Error()))
			}
		})
	}
}

func TestValidateTooMuchText(t *testing.T) {
	// 100 questions of 16 options at the description limit, plus question
	// text, adds up to more than MaxRequestBytes while every field is
	// within its own limit. The strings share memory, so this is cheap.
	desc := strings.Repeat("d", MaxDescriptionLen)
	text := strings.Repeat("q", MaxQuestionLen)
	qs := manyQuestions(MaxQuestions)
	for i := range qs {
		qs[i].Question = text
		qs[i].Options = make([]Option, 41)
		for j := range qs[i].Options {
			qs[i].Options[j] = Option{Label: strconv.Itoa(j), Description: desc}
		}
	}
	wantError(t, req(qs...).Validate(), CodeInvalidRequest, "bytes of text, over the limit of 67108864 bytes (64 MiB)")
}

func TestValidateMaxOptionsFast(t *testing.T) {
	opts := make([]Option, MaxOptions)
	for i := range opts {
		opts[i] = Option{Label: "option " + strconv.Itoa(i)}
	}
	r := req(Question{ID: "big", Question: "Pick one", Options: opts})
	start := time.Now()
	if err := r.Validate(); err != nil {
		t.Fatalf("Validate() with %d options = %v, want nil", MaxOptions, err)
	}
	// Linear validation takes milliseconds (see BenchmarkValidateMaxOptions);
	// the bound is loose so that only a quadratic blow-up trips it, even
	// under -race on a loaded machine.
	if d := time.Since(start); d > 30*time.Second {
		t.Errorf("Validate() with %d options took %v; it should be linear", MaxOptions, d)
	}

	r.Questions[0].Options = append(opts, Option{Label: "one too many"})
	wantError(t, r.Validate(), CodeInvalidRequest, "100001 options exceed the limit of 100000 options per question")

	// A duplicate at the very end is found.
	opts[MaxOptions-1].Label = "option 0"
	r.Questions[0].Options = opts
	wantError(t, r.Validate(), CodeInvalidRequest, `options 1 and 100000 share the label "option 0"`)
}

func BenchmarkValidateMaxOptions(b *testing.B) {
	opts := make([]Option, MaxOptions)
	for i := range opts {
		opts[i] = Option{Label: "option " + strconv.Itoa(i)}
	}
	r := req(Question{ID: "big", Question: "Pick one", Options: opts})
	for b.Loop() {
		if err := r.Validate(); err != nil {
			b.Fatal(err)
		}
	}
}
