package acp

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/asktui/asktui/interaction"
)

// schemaOf decodes a JSON schema for a form.
func schemaOf(t testing.TB, s string) sdk.UnstableElicitationSchema {
	t.Helper()
	var schema sdk.UnstableElicitationSchema
	if err := json.Unmarshal([]byte(s), &schema); err != nil {
		t.Fatal(err)
	}
	return schema
}

const everyField = `{"type":"object","properties":{
	"env":{"type":"string","title":"Environment","oneOf":[{"const":"prod","title":"Production"},{"const":"stg","title":"Staging"}]},
	"regions":{"type":"array","title":"Regions","items":{"type":"string","enum":["eu","us","ap"]},"minItems":1},
	"name":{"type":"string","title":"Name","minLength":2,"maxLength":10},
	"notify":{"type":"boolean","title":"Notify?","default":false},
	"replicas":{"type":"integer","title":"Replicas","minimum":1,"maximum":9},
	"email":{"type":"string","format":"email","description":"Who to tell"}
},"required":["env","regions","replicas"]}`

var everyOrder = []string{"env", "regions", "name", "notify", "replicas", "email"}

// elicitRig runs one elicitation of schema through a conversation and
// returns the response the agent got.
func elicitRig(t *testing.T, schema string) (*rig, <-chan sdk.UnstableCreateElicitationResponse) {
	t.Helper()
	out := make(chan sdk.UnstableCreateElicitationResponse, 1)
	agent := &testAgent{prompt: func(ctx context.Context, a *testAgent, sid sdk.SessionId) (sdk.StopReason, error) {
		resp, err := a.conn.UnstableCreateElicitation(ctx, sdk.UnstableCreateElicitationRequest{Form: &sdk.UnstableCreateElicitationForm{
			Mode: "form", Message: "Deploy settings", RequestedSchema: schemaOf(t, schema)}})
		if err != nil {
			out <- sdk.UnstableCreateElicitationResponse{Cancel: &sdk.UnstableCreateElicitationCancel{Action: "error: " + err.Error()}}
		} else {
			out <- resp
		}
		return sdk.StopReasonEndTurn, nil
	}}
	r := newRig(t, agent, Options{}, "")
	r.prompt("go")
	return r, out
}

func TestElicitationFormRoundTrip(t *testing.T) {
	r, out := elicitRig(t, everyField)
	call := r.human.Next(t)
	// The Go SDK sends properties sorted by name.
	byID := map[string]interaction.Question{}
	for _, q := range call.Req.Questions {
		byID[q.ID] = q
	}
	qs := make([]interaction.Question, len(everyOrder))
	for i, id := range everyOrder {
		qs[i] = byID[id]
	}
	if !strings.Contains(call.Req.Questions[0].Detail, "Deploy settings") {
		t.Fatalf("the message is not with the first question: %+v", call.Req.Questions[0])
	}
	if len(call.Req.Questions) != len(everyOrder) || qs[0].Options[0].Label != "Production" || qs[0].Options[0].Description != "" || !qs[0].NoOther ||
		!qs[1].MultiSelect || len(qs[1].Options) != 3 || len(qs[2].Options) != 0 ||
		qs[3].Options[0].Label != "Yes" || !strings.Contains(qs[4].Detail, "from 1 to 9") || qs[5].Question != "Who to tell" {
		t.Fatalf("request: %+v", qs)
	}
	call.Answer(interaction.Answer{Answers: []interaction.AnswerItem{
		{ID: "env", Selected: []string{"Staging"}},
		{ID: "regions", Selected: []string{"eu", "ap"}},
		{ID: "name", Custom: "shop"},
		{ID: "replicas", Custom: "3"},
		{ID: "email", Custom: "ops@example.com"},
	}})
	resp := wait(t, out)
	if resp.Accept == nil {
		t.Fatalf("response %+v, want accept", resp)
	}
	want := map[string]any{"env": "stg", "regions": []any{"eu", "ap"}, "name": "shop", "notify": false, "replicas": float64(3), "email": "ops@example.com"}
	if !reflect.DeepEqual(resp.Accept.Content, want) {
		t.Fatalf("content %v\nwant %v", resp.Accept.Content, want)
	}
}

func TestElicitationKeepsTheAgentsOrder(t *testing.T) {
	var r *rig
	agent := &testAgent{prompt: func(ctx context.Context, a *testAgent, sid sdk.SessionId) (sdk.StopReason, error) {
		// Written by hand: the Go SDK would sort the properties.
		line := `{"jsonrpc":"2.0","id":"raw-1","method":"elicitation/create","params":{"sessionId":"s1","mode":"form","message":"m","requestedSchema":` +
			strings.ReplaceAll(strings.ReplaceAll(everyField, "\n", ""), "\t", "") + `}}`
		line = strings.Join(strings.Fields(line), " ")
		_, _ = r.agentOut.Write([]byte(line + "\n"))
		<-ctx.Done()
		return sdk.StopReasonCancelled, nil
	}}
	r = newRig(t, agent, Options{}, "")
	r.prompt("go")
	call := r.human.Next(t)
	var ids []string
	for _, q := range call.Req.Questions {
		ids = append(ids, q.ID)
	}
	if !reflect.DeepEqual(ids, everyOrder) {
		t.Fatalf("questions %q, want the agent's order %q", ids, everyOrder)
	}
	call.Fail(interaction.Errorf(interaction.CodeDeclined, "no"))
	r.c.Cancel()
}

func TestElicitationAsksAgainOnlyWhatDoesNotFit(t *testing.T) {
	r, out := elicitRig(t, everyField)
	call := r.human.Next(t)
	call.Answer(interaction.Answer{Answers: []interaction.AnswerItem{
		{ID: "env", Selected: []string{"Production"}},
		{ID: "regions", Selected: []string{"us"}},
		{ID: "name", Custom: "x"},        // too short
		{ID: "replicas", Custom: "many"}, // not a number
	}})
	again := r.human.Next(t)
	var ids []string
	for _, q := range again.Req.Questions {
		ids = append(ids, q.ID)
	}
	if !reflect.DeepEqual(ids, []string{"name", "replicas"}) {
		t.Fatalf("asked again %q, want only name and replicas", ids)
	}
	if !strings.Contains(again.Req.Questions[0].Detail, "2 to 10 characters") || !strings.Contains(again.Req.Questions[1].Detail, "whole number") {
		t.Fatalf("the problems are not said: %q / %q", again.Req.Questions[0].Detail, again.Req.Questions[1].Detail)
	}
	again.Answer(interaction.Answer{Answers: []interaction.AnswerItem{{ID: "name", Custom: "api"}, {ID: "replicas", Custom: "2"}}})
	resp := wait(t, out)
	if resp.Accept == nil || resp.Accept.Content["name"] != "api" || resp.Accept.Content["env"] != "prod" || resp.Accept.Content["replicas"] != float64(2) {
		t.Fatalf("response %+v", resp)
	}
}

func TestElicitationGivesUpAfterRounds(t *testing.T) {
	r, out := elicitRig(t, `{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]}`)
	for range maxRounds {
		r.human.Next(t).Answer(interaction.Answer{})
	}
	if resp := wait(t, out); resp.Decline == nil {
		t.Fatalf("response %+v, want decline after %d rounds", resp, maxRounds)
	}
}

func TestElicitationDeclined(t *testing.T) {
	r, out := elicitRig(t, everyField)
	r.human.Next(t).Fail(interaction.Errorf(interaction.CodeDeclined, "no"))
	if resp := wait(t, out); resp.Decline == nil {
		t.Fatalf("response %+v, want decline", resp)
	}
}

func TestElicitationCancelledWithTheTurn(t *testing.T) {
	r, out := elicitRig(t, everyField)
	call := r.human.Next(t)
	go r.c.Cancel()
	if err := call.Withdrawn(t, within); err == nil {
		t.Fatal("not withdrawn")
	}
	if resp := wait(t, out); resp.Cancel == nil {
		t.Fatalf("response %+v, want cancel", resp)
	}
}

func TestElicitationBadSchemaIsAnError(t *testing.T) {
	_, out := elicitRig(t, `{"type":"object","properties":{"x":{"type":"object"}}}`)
	resp := wait(t, out)
	if resp.Cancel == nil || !strings.Contains(resp.Cancel.Action, "type \\\"object\\\"") {
		t.Fatalf("response %+v, want an invalid-params error naming the type", resp)
	}
}

func TestConventions(t *testing.T) {
	// claude-agent-acp: a companion field takes the question's "Other";
	// codex-acp: a user_note field takes the notes.
	schema := schemaOf(t, `{"type":"object","properties":{
		"q1":{"type":"string","title":"Database","oneOf":[{"const":"pg","title":"PostgreSQL"},{"const":"lite","title":"SQLite"}]},
		"q1_other":{"type":"string","title":"Other","_meta":{"_askUserQuestionCustomAnswer":"q1"}},
		"note":{"type":"string","title":"Note","_meta":{"codex":{"role":"user_note"}}}
	}}`)
	f, err := buildForm("Pick", schema, nil)
	if err != nil {
		t.Fatal(err)
	}
	req := f.request(nil, nil)
	if len(req.Questions) != 1 || req.Questions[0].ID != "q1" {
		t.Fatalf("questions %+v, want q1 only", req.Questions)
	}
	content, problems := f.content(map[string]interaction.AnswerItem{"q1": {ID: "q1", Custom: "DuckDB", Note: "keep it small"}})
	want := map[string]any{"q1_other": "DuckDB", "note": "keep it small"}
	if len(problems) != 0 || !reflect.DeepEqual(content, want) {
		t.Fatalf("content %v problems %v, want %v", content, problems, want)
	}
	// Without a companion, "Other" text must name an option.
	f2, _ := buildForm("", schemaOf(t, `{"properties":{"q":{"type":"string","enum":["a","b"]}}}`), nil)
	if _, problems := f2.content(map[string]interaction.AnswerItem{"q": {ID: "q", Custom: "B"}}); len(problems) != 0 {
		t.Fatalf("custom text naming an option: %v", problems)
	}
	if _, problems := f2.content(map[string]interaction.AnswerItem{"q": {ID: "q", Custom: "c"}}); len(problems) != 1 {
		t.Fatal("custom text naming no option was accepted")
	}
}

func TestURLElicitation(t *testing.T) {
	out := make(chan sdk.UnstableCreateElicitationResponse, 1)
	agent := &testAgent{prompt: func(ctx context.Context, a *testAgent, sid sdk.SessionId) (sdk.StopReason, error) {
		resp, _ := a.conn.UnstableCreateElicitation(ctx, sdk.NewUnstableCreateElicitationRequestUrl("e1", "http://user@xn--pypal-4ve.com/login"))
		out <- resp
		return sdk.StopReasonEndTurn, nil
	}}
	r := newRig(t, agent, Options{}, "")
	r.prompt("go")
	call := r.human.Next(t)
	d := call.Req.Questions[0].Detail
	for _, w := range []string{"not encrypted", "user name", "punycode", "http://user@xn--pypal-4ve.com/login"} {
		if !strings.Contains(d, w) {
			t.Errorf("detail lacks %q:\n%s", w, d)
		}
	}
	call.Answer(interaction.Answer{Answers: []interaction.AnswerItem{{ID: "url", Selected: []string{urlDone}}}})
	if resp := wait(t, out); resp.Accept == nil {
		t.Fatalf("response %+v, want accept", resp)
	}
	if w := urlWarnings("https://93.184.216.34/x"); len(w) != 1 || !strings.Contains(w[0], "IP") {
		t.Fatalf("bare IP: %q", w)
	}
	if w := urlWarnings("https://example.com/ok"); len(w) != 0 {
		t.Fatalf("a plain https link: %q", w)
	}
}

// FuzzElicitationSchema: any schema becomes a valid request, or an
// INVALID_REQUEST error; and any answer to it becomes content or problems.
func FuzzElicitationSchema(f *testing.F) {
	f.Add([]byte(everyField), "x", "1")
	f.Add([]byte(`{"properties":{"":{"type":"string","enum":[]}}}`), "", "")
	f.Add([]byte(`{"properties":{"a":{"type":"array","items":{"anyOf":[{"const":1},{"const":1}]}}}}`), "1,1", "")
	f.Add([]byte(`{"properties":{"a":{"type":"number","minimum":5,"default":"x"}}}`), "NaN", "1e400")
	f.Add([]byte(`{"properties":{"choice":{"type":"string","oneOf":[{"const":"a","title":"a: first"}]},"custom":{"type":"string","title":"Custom answer"}}}`), "x", "")
	f.Add([]byte(`{"properties":{"q":{"type":"array","items":{"anyOf":[{"const":"None of the above"}]}},"q_note":{"type":"string","_meta":{"codex":{"role":"user_note","questionId":"q"}}}}}`), "x", "y")
	f.Add([]byte(`{"properties":{"question_0":{"type":"string","title":"H","oneOf":[{"const":"a","_meta":{"_claude/askUserQuestionOption":{"preview":"p"}}}]},"question_0_custom":{"type":"string","title":"Other"}}}`), "", "z")
	f.Fuzz(func(t *testing.T, data []byte, custom, other string) {
		var schema sdk.UnstableElicitationSchema
		if json.Unmarshal(data, &schema) != nil {
			return
		}
		form, err := buildForm("message", schema, nil)
		if err != nil {
			if interaction.CodeOf(err) != interaction.CodeInvalidRequest {
				t.Fatalf("uncoded error %v", err)
			}
			return
		}
		req := form.request(nil, nil)
		if err := req.Validate(); err != nil {
			t.Fatalf("invalid request: %v\n%+v", err, req)
		}
		answers := map[string]interaction.AnswerItem{}
		for i, q := range req.Questions {
			item := interaction.AnswerItem{ID: q.ID, Custom: custom}
			if i%2 == 1 {
				item.Custom = other
			}
			if len(q.Options) > 0 && i%3 == 0 {
				item = interaction.AnswerItem{ID: q.ID, Selected: []string{q.Options[0].Label}}
			}
			answers[q.ID] = item
		}
		content, problems := form.content(answers)
		if _, err := json.Marshal(content); err != nil {
			t.Fatalf("content does not encode: %v", err)
		}
		var ask []*field
		for fd := range problems {
			ask = append(ask, fd)
		}
		if len(ask) > 0 {
			if err := form.request(ask, problems).Validate(); err != nil {
				t.Fatalf("invalid request asking again: %v", err)
			}
		}
	})
}
