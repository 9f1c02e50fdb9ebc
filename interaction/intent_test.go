package interaction

import (
	"encoding/json"
	"strings"
	"testing"
)

// planReview is a plan review as deepseek-harness asks it.
func planReview() Question {
	return Question{
		ID: "plan", Question: "Approve this plan?", Detail: "## Plan\n\n1. Copy rows\n2. Swap tables",
		Options: []Option{{Label: "Approve"}, {Label: "Revise"}},
		Intent:  &Intent{Kind: IntentPlanReview, Approve: "Approve"},
	}
}

// A question's intent is decoded, kept through validation and encoded
// again; null or absent is none.
func TestDecodeIntent(t *testing.T) {
	got, err := DecodeRequest(strings.NewReader(`{"questions":[{"id":"plan","question":"Approve this plan?","detail":"## Plan","intent":{"kind":"plan-review","approve":"Approve","extra":1},"options":[{"label":"Approve"},{"label":"Revise"}]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	q := got.Questions[0]
	if q.Intent == nil || *q.Intent != (Intent{Kind: IntentPlanReview, Approve: "Approve"}) || !q.PlanReview() {
		t.Fatalf("intent = %+v", q.Intent)
	}
	b, err := json.Marshal(q)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"intent":{"kind":"plan-review","approve":"Approve"}`) {
		t.Errorf("encoded %s", b)
	}
	for _, src := range []string{
		`{"questions":[{"id":"a","question":"?","intent":null}]}`,
		`{"questions":[{"id":"a","question":"?"}]}`,
	} {
		got, err := DecodeRequest(strings.NewReader(src))
		if err != nil || got.Questions[0].Intent != nil || got.Questions[0].PlanReview() {
			t.Errorf("%s: %+v, %v", src, got.Questions, err)
		}
	}
	_, err = DecodeRequest(strings.NewReader(`{"questions":[{"id":"a","question":"?","intent":"plan-review"}]}`))
	wantError(t, err, CodeInvalidRequest, `question 1 (id "a"): "intent" must be an object, not a string`)
}

// A plan review's "approve" names one of its options; any other kind,
// known or not, asks as an ordinary question and is no error.
func TestValidateIntent(t *testing.T) {
	ok := map[string]Question{
		"plan review": planReview(),
		"unknown kind": func() Question {
			q := planReview()
			q.Intent = &Intent{Kind: "code-review", Approve: "nothing of these"}
			return q
		}(),
		"empty kind": func() Question { q := planReview(); q.Intent = &Intent{}; return q }(),
	}
	for name, q := range ok {
		if err := req(q).Validate(); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	bad := []struct {
		name  string
		edit  func(*Question)
		wants []string
	}{
		{"approve names no option", func(q *Question) { q.Intent.Approve = "Go" },
			[]string{`question 1 (id "plan"): the "intent"'s "approve" is "Go", which is no option's label`, `such as "Approve"`}},
		{"approve is missing", func(q *Question) { q.Intent.Approve = "" },
			[]string{`question 1 (id "plan"): the "intent" is a "plan-review" without "approve"`}},
		{"approve differs in case", func(q *Question) { q.Intent.Approve = "approve" },
			[]string{`"approve" is "approve", which is no option's label`}},
		{"no options", func(q *Question) { q.Options = nil },
			[]string{`the "intent" is a "plan-review" but the question has no options`}},
		{"approve too long", func(q *Question) { q.Intent.Approve = strings.Repeat("a", MaxLabelLen+1) },
			[]string{`the "intent"'s "approve" is 4097 bytes, over the limit of 4096 bytes`}},
	}
	for _, tt := range bad {
		t.Run(tt.name, func(t *testing.T) {
			q := planReview()
			q.Intent = &Intent{Kind: q.Intent.Kind, Approve: q.Intent.Approve}
			tt.edit(&q)
			wantError(t, req(q).Validate(), CodeInvalidRequest, tt.wants...)
		})
	}
}
