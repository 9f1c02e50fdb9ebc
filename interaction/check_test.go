package interaction

import (
	"strconv"
	"strings"
	"testing"
)

// checkReq has a single-select, a multi-select and a free-text question.
var checkReq = Request{Questions: []Question{
	{ID: "db", Question: "Which database?", Options: []Option{{Label: "Postgres"}, {Label: "SQLite"}}},
	{ID: "langs", Question: "Which languages?", Options: []Option{{Label: "Go"}, {Label: "Rust"}, {Label: "Zig"}}, MultiSelect: true},
	{ID: "notes", Question: "Anything else?"},
}}

func TestCheckOK(t *testing.T) {
	tests := map[string]Answer{
		"nothing answered": {},
		"all answered": {Answers: []AnswerItem{
			{ID: "db", Selected: []string{"SQLite"}},
			{ID: "langs", Selected: []string{"Go", "Zig"}},
			{ID: "notes", Custom: "keep it small"},
		}},
		"any order, some skipped": {Answers: []AnswerItem{
			{ID: "notes", Selected: []string{}},
			Skip("langs"),
			{ID: "db", Custom: "MySQL"},
		}},
		"custom with empty selected": {Answers: []AnswerItem{{ID: "langs", Selected: []string{}, Custom: "C"}}},
		"custom at the limit":        {Answers: []AnswerItem{{ID: "notes", Custom: strings.Repeat("x", MaxCustomLen)}}},
	}
	for name, a := range tests {
		t.Run(name, func(t *testing.T) {
			if err := a.Check(checkReq); err != nil {
				t.Errorf("Check = %v, want nil", err)
			}
		})
	}
}

func TestCheckErrors(t *testing.T) {
	tests := []struct {
		name      string
		items     []AnswerItem
		fragments []string
	}{
		{"unknown id", []AnswerItem{Skip("db"), {ID: "dbs", Selected: []string{"SQLite"}}},
			[]string{`answer 2 has the id "dbs", which matches no question`, `known ids: "db", "langs", "notes"`}},
		{"duplicate id", []AnswerItem{{ID: "db", Selected: []string{"SQLite"}}, Skip("notes"), {ID: "db", Selected: []string{"Postgres"}}},
			[]string{`answers 1 and 3 both answer question 1 (id "db")`, "one answer per question"}},
		{"custom and selected", []AnswerItem{{ID: "langs", Selected: []string{"Go"}, Custom: "C"}},
			[]string{`the answer to question 2 (id "langs") has both "custom" text and 1 selected option`, `"selected" must be empty`}},
		{"custom too long", []AnswerItem{{ID: "notes", Custom: strings.Repeat("x", MaxCustomLen+1)}},
			[]string{`the answer to question 3 (id "notes"): the "custom" text is 65537 bytes, over the limit of 65536 bytes`}},
		{"custom invalid UTF-8", []AnswerItem{{ID: "notes", Custom: "\xff"}},
			[]string{`the answer to question 3 (id "notes"): the "custom" text is not valid UTF-8`}},
		{"unknown label", []AnswerItem{{ID: "db", Selected: []string{"MySQL"}}},
			[]string{`the answer to question 1 (id "db") selects "MySQL", which is not one of the question's option labels`}},
		{"label from another question", []AnswerItem{{ID: "langs", Selected: []string{"SQLite"}}},
			[]string{`question 2 (id "langs") selects "SQLite", which is not one of`}},
		{"label case differs", []AnswerItem{{ID: "db", Selected: []string{"sqlite"}}},
			[]string{`selects "sqlite", which is not one of`}},
		{"two for single-select", []AnswerItem{{ID: "db", Selected: []string{"Postgres", "SQLite"}}},
			[]string{`the answer to question 1 (id "db") selects 2 options, but the question is single-select`}},
		{"duplicate selection", []AnswerItem{{ID: "langs", Selected: []string{"Go", "Rust", "Go"}}},
			[]string{`the answer to question 2 (id "langs") selects "Go" more than once`}},
		{"selection without options", []AnswerItem{{ID: "notes", Selected: []string{"yes"}}},
			[]string{`the answer to question 3 (id "notes") selects "yes", but the question has no options`, `"custom" text only`}},
		{"several problems", []AnswerItem{{ID: "x"}, {ID: "db", Selected: []string{"A"}}},
			[]string{`answer 1 has the id "x"`, `; the answer to question 1 (id "db") selects "A"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			wantError(t, Answer{Answers: tt.items}.Check(checkReq), CodeInvalidAnswer, tt.fragments...)
		})
	}
}

func TestCheckNoOther(t *testing.T) {
	req := Request{Questions: []Question{
		{ID: "allow", Question: "Run rm -rf build?", Options: []Option{{Label: "Allow once"}, {Label: "Reject"}}, NoOther: true},
	}}
	if err := (Answer{Answers: []AnswerItem{{ID: "allow", Selected: []string{"Reject"}}}}).Check(req); err != nil {
		t.Fatalf("a selection: %v", err)
	}
	wantError(t, Answer{Answers: []AnswerItem{{ID: "allow", Custom: "only on weekdays"}}}.Check(req), CodeInvalidAnswer,
		`the answer to question 1 (id "allow") has "custom" text, but the question takes only its options ("noOther")`)
}

func TestCheckManySelections(t *testing.T) {
	opts := make([]Option, MaxOptions)
	selected := make([]string, MaxOptions)
	for i := range opts {
		opts[i] = Option{Label: strconv.Itoa(i)}
		selected[i] = strconv.Itoa(MaxOptions - 1 - i)
	}
	r := req(Question{ID: "all", Question: "?", Options: opts, MultiSelect: true})
	a := Answer{Answers: []AnswerItem{{ID: "all", Selected: selected}}}
	if err := a.Check(r); err != nil {
		t.Fatalf("selecting every one of %d options: %v", MaxOptions, err)
	}
	selected[len(selected)-1] = "nope"
	wantError(t, a.Check(r), CodeInvalidAnswer, `selects "nope"`)
}
