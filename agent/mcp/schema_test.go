package mcp

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/interaction/interactiontest"
)

// listedSchemas lists the tool through the SDK client and resolves the
// schemas it advertises, as a validating client does.
func listedSchemas(t *testing.T) (in, out *jsonschema.Resolved) {
	t.Helper()
	_, hs := serve(t, interactiontest.NewProvider(), Options{})
	res, err := connect(t, hs, nil).ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	tool := res.Tools[0]
	resolve := func(name string, v any) *jsonschema.Resolved {
		if v == nil {
			t.Fatalf("the tool advertises no %s", name)
		}
		data, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		var s jsonschema.Schema
		if err := json.Unmarshal(data, &s); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		r, err := s.Resolve(nil)
		if err != nil {
			t.Fatalf("%s does not resolve: %v\n%s", name, err, data)
		}
		return r
	}
	return resolve("inputSchema", tool.InputSchema), resolve("outputSchema", tool.OutputSchema)
}

func TestOutputSchemaValidatesAnswers(t *testing.T) {
	_, out := listedSchemas(t)
	valid := []interaction.Answer{
		{},
		{Answers: []interaction.AnswerItem{{ID: "db", Selected: []string{"Postgres"}, Note: "but pin the version"}}},
		{Answers: []interaction.AnswerItem{{ID: "why", Custom: "because", Note: "n"}, interaction.Skip("skip")}},
	}
	for _, ans := range valid {
		data, err := ans.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		var v any
		if err := json.Unmarshal(data, &v); err != nil {
			t.Fatal(err)
		}
		if err := out.Validate(v); err != nil {
			t.Errorf("answer %s does not validate: %v", data, err)
		}
	}
	for _, bad := range []string{
		`{}`,
		`{"answers":[{"selected":[]}]}`,
		`{"answers":[{"id":"a","selected":null}]}`,
		`{"answers":[{"id":"a","selected":[],"extra":1}]}`,
	} {
		var v any
		if err := json.Unmarshal([]byte(bad), &v); err != nil {
			t.Fatal(err)
		}
		if out.Validate(v) == nil {
			t.Errorf("%s validates, want a failure", bad)
		}
	}
}

// TestInputSchemaIsPermissiveWhereTheDecoderIsLenient checks that what
// the decoder accepts, a validating client lets through: the aliases of
// multiSelect, missing ids and the new fields.
func TestInputSchemaIsPermissiveWhereTheDecoderIsLenient(t *testing.T) {
	in, _ := listedSchemas(t)
	for _, args := range []string{
		`{"questions":[{"id":"db","question":"Which?","header":"DB","detail":"# Plan\n| a | b |","multiSelect":true,"options":[{"label":"A","description":"d","preview":"x := 1"}]}],"agent":"reviewer"}`,
		`{"questions":[{"question":"Which?","multi_select":true,"options":[{"label":"A"}]}]}`,
		`{"questions":[{"question":"Which?","multiple":true}]}`,
		`{"questions":[{"id":"plan","question":"Approve the plan?","detail":"1. migrate","intent":{"kind":"plan-review","approve":"Approve"},"options":[{"label":"Approve"},{"label":"Revise"}]}]}`,
		`{"questions":[{"question":"Which?","intent":{"kind":"some-other-kind"}}]}`,
	} {
		var v any
		if err := json.Unmarshal([]byte(args), &v); err != nil {
			t.Fatal(err)
		}
		if err := in.Validate(v); err != nil {
			t.Errorf("%s does not validate: %v", args, err)
		}
	}
	for _, bad := range []string{`{}`, `{"questions":[]}`, `{"questions":[{"id":"a"}]}`, `{"questions":null}`} {
		var v any
		if err := json.Unmarshal([]byte(bad), &v); err != nil {
			t.Fatal(err)
		}
		if in.Validate(v) == nil {
			t.Errorf("%s validates, want a failure", bad)
		}
	}
}

func TestDescriptionIsTheEmbeddedMarkdown(t *testing.T) {
	for _, want := range []string{"detail", "preview", `"note"`, "same arguments"} {
		if !strings.Contains(toolDescription, want) {
			t.Errorf("description lacks %q", want)
		}
	}
}

// TestArgumentsCarryTheNewFields sends detail, preview and gets a note back.
func TestArgumentsCarryTheNewFields(t *testing.T) {
	asker := interactiontest.NewProvider()
	_, hs := serve(t, asker, Options{})
	cs := connect(t, hs, nil)
	ch := callAsync(context.Background(), cs, askParams(map[string]any{"questions": []any{map[string]any{
		"id": "plan", "question": "Approve the plan?", "detail": "# Plan\n1. migrate",
		"options": []any{map[string]any{"label": "Yes", "preview": "```go\nx := 1\n```"}, map[string]any{"label": "No"}},
	}}}))
	p := asker.Next(t)
	q := p.Req.Questions[0]
	if q.Detail != "# Plan\n1. migrate" || q.Options[0].Preview != "```go\nx := 1\n```" {
		t.Errorf("question = %+v", q)
	}
	p.Answer(interaction.Answer{Answers: []interaction.AnswerItem{{ID: "plan", Selected: []string{"Yes"}, Note: "after lunch"}}})
	r := waitCall(t, ch)
	if r.err != nil || r.res.IsError {
		t.Fatalf("call = %+v, %v", r.res, r.err)
	}
	if want := `{"answers":[{"id":"plan","selected":["Yes"],"note":"after lunch"}]}`; textOf(t, r.res) != want {
		t.Errorf("text = %s, want %s", textOf(t, r.res), want)
	}
}

// TestLenientArgumentsReachTheDecoder: what the input schema leaves open
// (options as strings, missing ids, the multi-select spellings) reaches
// interaction's lenient decoder unchanged.
func TestLenientArgumentsReachTheDecoder(t *testing.T) {
	asker := interactiontest.NewProvider()
	_, hs := serve(t, asker, Options{})
	cs := connect(t, hs, nil)
	ch := callAsync(context.Background(), cs, askParams(map[string]any{"questions": []any{
		map[string]any{"question": "Which?", "options": []any{"Yes", "No"}, "multiple": true},
		map[string]any{"question": "Why?"},
	}}))
	p := asker.Next(t)
	q := p.Req.Questions
	if len(q) != 2 || q[0].ID != "q1" || q[1].ID != "q2" || !q[0].MultiSelect ||
		len(q[0].Options) != 2 || q[0].Options[1].Label != "No" {
		t.Fatalf("questions = %+v", q)
	}
	p.Answer(interaction.Answer{Answers: []interaction.AnswerItem{{ID: "q1", Selected: []string{"Yes", "No"}}, interaction.Skip("q2")}})
	r := waitCall(t, ch)
	if r.err != nil || r.res.IsError {
		t.Fatalf("call = %+v, %v", r.res, r.err)
	}
	if want := `{"answers":[{"id":"q1","selected":["Yes","No"]},{"id":"q2","selected":[]}]}`; textOf(t, r.res) != want {
		t.Errorf("text = %s, want %s", textOf(t, r.res), want)
	}
}

// TestArgumentsCarryTheIntent: a plan review's intent reaches the asker
// as sent, and one whose "approve" names no option is a coded tool error
// naming the question and the field.
func TestArgumentsCarryTheIntent(t *testing.T) {
	asker := interactiontest.NewProvider()
	_, hs := serve(t, asker, Options{})
	cs := connect(t, hs, nil)
	question := func(approve string) map[string]any {
		return map[string]any{"questions": []any{map[string]any{
			"id": "plan", "question": "Approve the plan?", "detail": "1. migrate",
			"intent":  map[string]any{"kind": "plan-review", "approve": approve},
			"options": []any{map[string]any{"label": "Approve"}, map[string]any{"label": "Revise"}},
		}}}
	}
	ch := callAsync(context.Background(), cs, askParams(question("Approve")))
	p := asker.Next(t)
	if in := p.Req.Questions[0].Intent; in == nil || *in != (interaction.Intent{Kind: interaction.IntentPlanReview, Approve: "Approve"}) {
		t.Errorf("intent = %+v", in)
	}
	p.Answer(interaction.Answer{Answers: []interaction.AnswerItem{{ID: "plan", Selected: []string{"Revise"}, Note: "split step 2"}}})
	if r := waitCall(t, ch); r.err != nil || r.res.IsError || textOf(t, r.res) != `{"answers":[{"id":"plan","selected":["Revise"],"note":"split step 2"}]}` {
		t.Fatalf("call = %+v, %v", r.res, r.err)
	}
	r := waitCall(t, callAsync(context.Background(), cs, askParams(question("Go"))))
	if r.err != nil || !r.res.IsError {
		t.Fatalf("call = %+v, %v", r.res, r.err)
	}
	if got := textOf(t, r.res); !strings.HasPrefix(got, "INVALID_REQUEST: ") || !strings.Contains(got, `question 1 (id "plan"): the "intent"'s "approve" is "Go"`) {
		t.Errorf("error text = %s", got)
	}
}

// The input schema lists the intent, generated from interaction.Intent,
// so a model reads it among the fields.
func TestInputSchemaListsTheIntent(t *testing.T) {
	in, _, err := toolSchemas()
	if err != nil {
		t.Fatal(err)
	}
	intent := in.Properties["questions"].Items.Properties["intent"]
	if intent == nil || intent.Type != "object" || intent.Properties["kind"] == nil || intent.Properties["approve"] == nil ||
		!strings.Contains(intent.Properties["kind"].Description, "plan-review") {
		t.Fatalf("intent schema = %+v", intent)
	}
}
