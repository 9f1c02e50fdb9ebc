package acp

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/interaction/conversation"
)

// The elicitations below are what the real adapters send, copied from
// their sources: @agentclientprotocol/claude-agent-acp 0.101.0
// (dist/elicitation.js, askUserQuestionsToCreateRequest), codex-acp 2.6.0
// (CodexElicitationHandler, buildUserInputRequest) and deepseek-harness at
// b06bcfd21c (packages/ui/acp/src/index.ts, elicitationForQuestion).

// claudeTwoQuestions is AskUserQuestion with two questions: a field per
// question titled with its header, the question in the description, and
// a companion question_<n>_custom titled "Other", without any marker.
const claudeTwoQuestions = `{"mode":"form","sessionId":"s1","toolCallId":"toolu_01","message":"Please answer the following questions.",
"requestedSchema":{"type":"object","properties":{
"question_0":{"type":"string","title":"Database","description":"Which database should the service use?","oneOf":[
  {"const":"Postgres","title":"Postgres","description":"relational","_meta":{"_claude/askUserQuestionOption":{"preview":"CREATE TABLE users ();"}}},
  {"const":"SQLite","title":"SQLite","description":"a file"}]},
"question_0_custom":{"type":"string","title":"Other","description":"Type your own answer, or add a note to the option you chose above (optional)."},
"question_1":{"type":"array","title":"Checks","description":"Which checks on every PR?","items":{"anyOf":[{"const":"Tests","title":"Tests"},{"const":"Lint","title":"Lint"}]}},
"question_1_custom":{"type":"string","title":"Other","description":"Type your own answer to add to your selection above (optional)."}}}}`

// claudeOneQuestion: with one question the message is the question, and
// the field has no description.
const claudeOneQuestion = `{"mode":"form","sessionId":"s1","toolCallId":"toolu_02","message":"Which database should the service use?",
"requestedSchema":{"type":"object","properties":{
"question_0":{"type":"string","title":"Database","oneOf":[{"const":"Postgres","title":"Postgres","description":"relational"},{"const":"SQLite","title":"SQLite"}]},
"question_0_custom":{"type":"string","title":"Other","description":"Type your own answer, or add a note to the option you chose above (optional)."}}}}`

// codexUserInput is request_user_input: the question as the title, its
// header as the description, "None of the above" added, and a note field
// <id>_note naming its question.
const codexUserInput = `{"sessionId":"s1","toolCallId":"item_7","mode":"form","message":"Codex needs your input to continue.",
"requestedSchema":{"type":"object","properties":{
"db":{"title":"Which database should the service use?","description":"Database","_meta":{"codex":{"isOther":true,"isSecret":false}},"type":"string","oneOf":[
  {"const":"Postgres","title":"Postgres","description":"relational"},
  {"const":"SQLite","title":"SQLite"},
  {"const":"None of the above","title":"None of the above","description":"Provide a different answer in the note field."}]},
"db_note":{"type":"string","title":"Additional answer or note","_meta":{"codex":{"questionId":"db","role":"user_note","isSecret":false}}},
"name":{"title":"What should the service be called?","_meta":{"codex":{"isOther":false,"isSecret":false}},"type":"string"}},
"required":["db","name"]},"_meta":{"codex":{"autoResolutionMs":null}}}`

// deepseekQuestion is ask_user_question: one form per question, a
// "choice" titled with the question (again) whose options are titled
// "label: description", and a "custom" companion.
const deepseekQuestion = `{"sessionId":"s1","mode":"form","message":"Which database should the service use?\n\nThe billing service needs one.",
"requestedSchema":{"type":"object","title":"Database","properties":{
"choice":{"type":"string","title":"Which database should the service use?","description":"Choose one option, or fill a custom answer below.","oneOf":[
  {"const":"Postgres","title":"Postgres: relational"},{"const":"SQLite","title":"SQLite"}]},
"custom":{"type":"string","title":"Custom answer","description":"Optional free-form answer. Leave empty to use the selected option."}},
"required":[]}}`

// elicitWire runs one elicitation whose params are the JSON given, as
// the agent sends it, and returns the response the agent got.
func elicitWire(t *testing.T, params string) (*rig, <-chan sdk.UnstableCreateElicitationResponse) {
	t.Helper()
	var req sdk.UnstableCreateElicitationRequest
	if err := json.Unmarshal([]byte(params), &req); err != nil || req.Form == nil {
		t.Fatalf("params: %v", err)
	}
	out := make(chan sdk.UnstableCreateElicitationResponse, 1)
	agent := &testAgent{prompt: func(ctx context.Context, a *testAgent, sid sdk.SessionId) (sdk.StopReason, error) {
		resp, err := a.conn.UnstableCreateElicitation(ctx, req)
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

// accepted is the content of an accept, or fails.
func accepted(t *testing.T, resp sdk.UnstableCreateElicitationResponse) map[string]any {
	t.Helper()
	if resp.Accept == nil {
		t.Fatalf("response %+v, want accept", resp)
	}
	return resp.Accept.Content
}

func TestClaudeAskUserQuestion(t *testing.T) {
	r, out := elicitWire(t, claudeTwoQuestions)
	call := r.human.Next(t)
	qs := call.Req.Questions
	if len(qs) != 2 {
		t.Fatalf("%d questions, want one per AskUserQuestion question: %+v", len(qs), qs)
	}
	q0, q1 := qs[0], qs[1]
	if q0.ID != "question_0" || q0.Header != "Database" || q0.Question != "Which database should the service use?" || q0.NoOther ||
		strings.Contains(q0.Detail, "Which database") {
		t.Fatalf("first question %+v", q0)
	}
	want := []interaction.Option{{Label: "Postgres", Description: "relational", Preview: "CREATE TABLE users ();"}, {Label: "SQLite", Description: "a file"}}
	if !reflect.DeepEqual(q0.Options, want) {
		t.Fatalf("options %+v\nwant %+v", q0.Options, want)
	}
	if q1.Header != "Checks" || !q1.MultiSelect || q1.NoOther || len(q1.Options) != 2 {
		t.Fatalf("second question %+v", q1)
	}
	call.Answer(interaction.Answer{Answers: []interaction.AnswerItem{
		{ID: "question_0", Selected: []string{"Postgres"}, Note: "keep it small"},
		{ID: "question_1", Custom: "Fmt"},
	}})
	got := accepted(t, wait(t, out))
	// The adapter reads question_<n>_custom beside a pick as its notes,
	// and alone as the answer.
	wantContent := map[string]any{"question_0": "Postgres", "question_0_custom": "keep it small", "question_1_custom": "Fmt"}
	if !reflect.DeepEqual(got, wantContent) {
		t.Fatalf("content %v\nwant %v", got, wantContent)
	}
}

func TestClaudeOneQuestion(t *testing.T) {
	r, out := elicitWire(t, claudeOneQuestion)
	call := r.human.Next(t)
	if len(call.Req.Questions) != 1 {
		t.Fatalf("questions %+v", call.Req.Questions)
	}
	q := call.Req.Questions[0]
	if q.Header != "Database" || q.Question != "Which database should the service use?" || q.Detail != "" || q.NoOther {
		t.Fatalf("question %+v", q)
	}
	call.Answer(interaction.Answer{Answers: []interaction.AnswerItem{{ID: "question_0", Custom: "DuckDB"}}})
	if got := accepted(t, wait(t, out)); !reflect.DeepEqual(got, map[string]any{"question_0_custom": "DuckDB"}) {
		t.Fatalf("content %v", got)
	}
}

func TestCodexUserInput(t *testing.T) {
	for _, tt := range []struct {
		name   string
		answer interaction.AnswerItem
		want   map[string]any
	}{
		{"own answer", interaction.AnswerItem{ID: "db", Custom: "DuckDB"},
			map[string]any{"db": "None of the above", "db_note": "DuckDB", "name": "billing"}},
		{"choice with a note", interaction.AnswerItem{ID: "db", Selected: []string{"Postgres"}, Note: "version 17"},
			map[string]any{"db": "Postgres", "db_note": "version 17", "name": "billing"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r, out := elicitWire(t, codexUserInput)
			call := r.human.Next(t)
			qs := call.Req.Questions
			if len(qs) != 2 || qs[0].ID != "db" || qs[1].ID != "name" {
				t.Fatalf("questions %+v", qs)
			}
			db := qs[0]
			if db.Header != "Database" || db.Question != "Which database should the service use?" || db.NoOther ||
				len(db.Options) != 2 || db.Options[0].Description != "relational" {
				t.Fatalf("the question %+v: want its header, two options (the Other row for None of the above)", db)
			}
			call.Answer(interaction.Answer{Answers: []interaction.AnswerItem{tt.answer, {ID: "name", Custom: "billing"}}})
			if got := accepted(t, wait(t, out)); !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("content %v\nwant %v", got, tt.want)
			}
		})
	}
}

func TestDeepseekQuestion(t *testing.T) {
	for _, tt := range []struct {
		name   string
		answer interaction.AnswerItem
		want   map[string]any
	}{
		{"choice", interaction.AnswerItem{ID: "choice", Selected: []string{"SQLite"}}, map[string]any{"choice": "SQLite"}},
		{"own answer", interaction.AnswerItem{ID: "choice", Custom: "DuckDB"}, map[string]any{"custom": "DuckDB"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r, out := elicitWire(t, deepseekQuestion)
			call := r.human.Next(t)
			if len(call.Req.Questions) != 1 {
				t.Fatalf("%d questions, want the choice and its custom answer as one: %+v", len(call.Req.Questions), call.Req.Questions)
			}
			q := call.Req.Questions[0]
			if q.Question != "Which database should the service use?" || q.Header != "Database" || q.NoOther ||
				strings.Contains(q.Detail, "Which database") || strings.Contains(q.Detail, "custom answer below") ||
				!strings.Contains(q.Detail, "The billing service needs one.") {
				t.Fatalf("question %+v", q)
			}
			want := []interaction.Option{{Label: "Postgres", Description: "relational"}, {Label: "SQLite"}}
			if !reflect.DeepEqual(q.Options, want) {
				t.Fatalf("options %+v\nwant %+v", q.Options, want)
			}
			call.Answer(interaction.Answer{Answers: []interaction.AnswerItem{tt.answer}})
			if got := accepted(t, wait(t, out)); !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("content %v\nwant %v", got, tt.want)
			}
		})
	}
}

// TestNoOtherWhereTextCannotGo: a choice, an array of choices and a
// boolean without a companion take only their options.
func TestNoOtherWhereTextCannotGo(t *testing.T) {
	f, err := buildForm("", schemaOf(t, `{"properties":{
		"env":{"type":"string","enum":["prod","stg"]},
		"regions":{"type":"array","items":{"enum":["eu","us"]}},
		"ok":{"type":"boolean"},
		"name":{"type":"string"}}}`), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range f.request(nil, nil).Questions {
		if want := q.ID != "name"; q.NoOther != want {
			t.Errorf("%s: NoOther %v, want %v", q.ID, q.NoOther, want)
		}
	}
}

// codexCommand is how codex-acp 2.6.0 reports a command to a client that
// declares no terminals (ToolCallReports, standardMeta: the output in
// _meta.terminal_output_delta, the exit in _meta.terminal_exit).
var codexCommand = []string{
	`{"sessionUpdate":"tool_call","toolCallId":"call_25","title":"Run go test ./...","kind":"execute","status":"in_progress",
	  "rawInput":{"command":"go test ./...","cwd":"/w"},"content":[{"type":"terminal","terminalId":"call_25"}],
	  "_meta":{"terminal_info":{"cwd":"/w","terminal_id":"call_25"}}}`,
	`{"sessionUpdate":"tool_call_update","toolCallId":"call_25","_meta":{"terminal_output_delta":{"data":"ok  \tshop/api\t0.21s\n","terminal_id":"call_25"}}}`,
	`{"sessionUpdate":"tool_call_update","toolCallId":"call_25","_meta":{"terminal_output_delta":{"data":"FAIL\tshop/db\t0.02s\n","terminal_id":"call_25"}}}`,
	`{"sessionUpdate":"tool_call_update","toolCallId":"call_25","status":"failed","_meta":{"terminal_exit":{"exit_code":1,"signal":null,"terminal_id":"call_25"}}}`,
}

func TestCodexCommandOutput(t *testing.T) {
	agent := &testAgent{prompt: func(ctx context.Context, a *testAgent, sid sdk.SessionId) (sdk.StopReason, error) {
		for _, line := range codexCommand {
			var u sdk.SessionUpdate
			if err := json.Unmarshal([]byte(line), &u); err != nil {
				return "", err
			}
			a.update(ctx, sid, u)
		}
		return sdk.StopReasonEndTurn, nil
	}}
	r := newRig(t, agent, Options{}, "")
	if res := wait(t, r.prompt("go")); res.err != nil {
		t.Fatal(res.err)
	}
	var last *conversation.ToolCall
	for _, e := range r.sink.all() {
		if e.Kind == conversation.EventToolCall {
			last = e.Tool
		}
	}
	if last == nil || len(last.Content) != 1 || last.Content[0].Terminal == nil {
		t.Fatalf("tool call %+v, want its terminal", last)
	}
	want := conversation.TerminalOutput{Command: "go test ./...", Output: "ok  \tshop/api\t0.21s\nFAIL\tshop/db\t0.02s\n", Exited: true, ExitCode: 1}
	if got := *last.Content[0].Terminal; got != want {
		t.Fatalf("terminal %+v\nwant %+v", got, want)
	}
	if last.Status != conversation.ToolFailed {
		t.Fatalf("status %q", last.Status)
	}
}
