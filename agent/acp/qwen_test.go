package acp

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/interaction/conversation"
	"github.com/asktui/asktui/interaction/interactiontest"
)

// qwenAsk is the permission request Qwen Code 0.24 sends for its own
// ask_user_question (acpAgent's Session: toPermissionOptions and
// interactionMetaFields for a confirmation of type ask_user_question):
// two questions, the second multi-select.
const qwenAsk = `{"sessionId":"s1","options":[{"optionId":"proceed_once","name":"Submit","kind":"allow_once"},{"optionId":"cancel","name":"Cancel","kind":"reject_once"}],
"toolCall":{"toolCallId":"call_1","status":"pending","title":"Ask user 2 questions","content":[],"locations":[],"kind":"think",
"rawInput":{"questions":[
 {"question":"Which database should the service use?","header":"Database","multiSelect":false,"options":[{"label":"Postgres","description":"relational"},{"label":"SQLite","description":"a file"}]},
 {"question":"Which checks on every PR?","header":"Checks","multiSelect":true,"options":[{"label":"Tests","description":"go test"},{"label":"Lint","description":"golangci-lint"}]}]},
"_meta":{"toolName":"ask_user_question","qwenInteractionKind":"user_question","qwenQuestions":[]}}}`

// qwenRig runs one permission request whose params are the JSON given,
// as Qwen Code sends it, and returns the human's side and the raw
// response the agent read.
func qwenRig(t *testing.T, params string) (*interactiontest.Provider, <-chan json.RawMessage) {
	t.Helper()
	var req sdk.RequestPermissionRequest
	if err := json.Unmarshal([]byte(params), &req); err != nil {
		t.Fatal(err)
	}
	agent := &testAgent{prompt: func(ctx context.Context, a *testAgent, sid sdk.SessionId) (sdk.StopReason, error) {
		req.SessionId = sid
		_, _ = a.conn.RequestPermission(ctx, req)
		return sdk.StopReasonEndTurn, nil
	}}
	human := interactiontest.NewProvider()
	svc := interaction.NewService()
	unregister, err := svc.Register(human)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(unregister)
	l, err := NewLauncher(Options{Asker: svc})
	if err != nil {
		t.Fatal(err)
	}
	// What asktui writes reaches the agent through a copy that keeps the
	// responses' raw JSON: the SDK's typed response has no "answers".
	c2aR, c2aW := io.Pipe()
	a2cR, a2cW := io.Pipe()
	seenR, seenW := io.Pipe()
	responses := make(chan json.RawMessage, 8)
	copied := make(chan struct{})
	go func() {
		defer close(copied)
		defer func() { _ = seenW.Close() }()
		sc := bufio.NewScanner(c2aR)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			line := append([]byte(nil), sc.Bytes()...)
			var msg struct {
				Result json.RawMessage `json:"result"`
			}
			if json.Unmarshal(line, &msg) == nil && strings.Contains(string(msg.Result), `"outcome"`) {
				responses <- msg.Result
			}
			if _, err := seenW.Write(append(line, '\n')); err != nil {
				return
			}
		}
	}()
	agent.conn = sdk.NewAgentSideConnection(agent, a2cW, seenR)
	done := make(chan struct{})
	close(done)
	proc := &pipeProc{done: done, close: func() {
		_ = a2cW.Close()
		_ = c2aR.Close()
		_ = seenR.Close()
	}}
	c := newConversation(l.opts, "test", "Qwen Code", newSink(), a2cR, c2aW, proc)
	prompted := make(chan struct{})
	t.Cleanup(func() {
		_ = c.Close()
		<-copied
		<-prompted
	})
	ctx := context.Background()
	if err := c.initialize(ctx); err != nil {
		t.Fatal(err)
	}
	if err := c.open(ctx, ""); err != nil {
		t.Fatal(err)
	}
	go func() {
		defer close(prompted)
		_, _ = c.Prompt(context.Background(), []conversation.PromptPart{{Text: "ask me"}})
	}()
	return human, responses
}

// Qwen Code's own ask_user_question arrives as a permission request; it
// is asked as the questions it holds, and the answers go back where Qwen
// reads them: a top-level "answers" keyed by the question's index, labels
// joined with ", ", typed text as typed, beside Submit.
func TestQwenQuestionAskedAsQuestions(t *testing.T) {
	for _, c := range []struct {
		name   string
		answer []interaction.AnswerItem
		want   string
	}{
		{"chosen", []interaction.AnswerItem{{ID: "q1", Selected: []string{"Postgres"}}, {ID: "q2", Selected: []string{"Tests", "Lint"}}},
			`{"0":"Postgres","1":"Tests, Lint"}`},
		{"typed, a note, one skipped", []interaction.AnswerItem{{ID: "q1", Custom: "DuckDB", Note: "we tried it"}, {ID: "q2", Selected: []string{}}},
			`{"0":"DuckDB (the user's note: we tried it)"}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			human, responses := qwenRig(t, qwenAsk)
			call := human.Next(t)
			qs := call.Req.Questions
			if len(qs) != 2 || qs[0].Question != "Which database should the service use?" || qs[0].Header != "Database" ||
				qs[0].NoOther || qs[0].Options[1].Description != "a file" || !qs[1].MultiSelect || call.Req.Permission != nil {
				t.Fatalf("request %+v", call.Req)
			}
			call.Answer(interaction.Answer{Answers: c.answer})
			var got struct {
				Outcome struct{ Outcome, OptionID string } `json:"outcome"`
				Answers json.RawMessage                    `json:"answers"`
				Meta    json.RawMessage                    `json:"_meta"`
			}
			raw := wait(t, responses)
			if err := json.Unmarshal(raw, &got); err != nil {
				t.Fatal(err)
			}
			if got.Outcome.Outcome != "selected" || got.Outcome.OptionID != "proceed_once" || string(got.Answers) != c.want || got.Meta != nil {
				t.Fatalf("response %s, want answers %s beside Submit", raw, c.want)
			}
		})
	}
}

// Declining Qwen Code's question cancels it, as Esc does in Qwen's own
// dialog; no answers are sent.
func TestQwenQuestionDeclined(t *testing.T) {
	human, responses := qwenRig(t, qwenAsk)
	human.Next(t).Fail(interaction.Errorf(interaction.CodeDeclined, "no"))
	if raw := wait(t, responses); string(raw) != `{"outcome":{"outcome":"cancelled"}}` {
		t.Fatalf("response %s", raw)
	}
}

// A permission request that is not Qwen Code's question (no marker, or
// no Submit option) is asked as the permission it is.
func TestQwenQuestionOnlyWhenMarked(t *testing.T) {
	for _, params := range []string{
		strings.Replace(qwenAsk, `"qwenInteractionKind":"user_question"`, `"qwenInteractionKind":"other"`, 1),
		strings.Replace(qwenAsk, `"optionId":"proceed_once"`, `"optionId":"proceed_always"`, 1),
	} {
		human, responses := qwenRig(t, params)
		call := human.Next(t)
		if q := call.Req.Questions[0]; q.ID != permissionID || !strings.HasPrefix(q.Question, "Allow Ask user 2 questions") {
			t.Fatalf("asked %+v", q)
		}
		call.Answer(interaction.Answer{Answers: []interaction.AnswerItem{{ID: permissionID, Selected: []string{"Cancel"}}}})
		if raw := wait(t, responses); strings.Contains(string(raw), "answers") {
			t.Fatalf("response %s", raw)
		}
	}
}

// Only a response's own _meta moves: a line that merely holds the key in
// a string (a file's text) passes as written.
func TestMoveAnswersOnlyTheResponsesOwn(t *testing.T) {
	line := `{"jsonrpc":"2.0","id":3,"result":{"content":"{\"_meta\":{\"` + qwenAnswersMeta + `\":1}}"}}` + "\n"
	if _, ok := moveAnswers([]byte(line)); ok {
		t.Fatal("moved answers out of a string")
	}
	out, ok := moveAnswers([]byte(`{"jsonrpc":"2.0","id":4,"result":{"_meta":{"keep":1,"` + qwenAnswersMeta + `":{"0":"a"}},"outcome":{"outcome":"cancelled"}}}`))
	if !ok || string(out) != `{"id":4,"jsonrpc":"2.0","result":{"_meta":{"keep":1},"answers":{"0":"a"},"outcome":{"outcome":"cancelled"}}}`+"\n" {
		t.Fatalf("moved %q, %v", out, ok)
	}
}
