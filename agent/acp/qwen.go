package acp

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strconv"
	"strings"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/asktui/asktui/interaction"
)

// Qwen Code's own question tool, ask_user_question, reaches an ACP
// client as a permission request (Qwen Code 0.24): kind "think", options
// "Submit" (proceed_once) and "Cancel", the questions in the tool call's
// rawInput (and _meta.qwenQuestions), marked _meta.qwenInteractionKind
// "user_question". Qwen reads the answers from a top-level "answers"
// field of the response, beside "outcome": {"0": "label"}, keyed by the
// question's index, several labels joined with ", " as its own dialog
// joins them, typed text as it was typed. Without them the model gets
// "User has provided the following answers:" and nothing after it.
const (
	qwenInteractionKind = "qwenInteractionKind"
	qwenUserQuestion    = "user_question"
	qwenSubmit          = "proceed_once"
)

// qwenAnswersMeta is the _meta key under which RequestPermission leaves
// Qwen Code's answers for [answersWriter] to move to the response's top
// level, where Qwen reads them: the SDK's response type has no field for
// them.
const qwenAnswersMeta = "asktui/qwen-answers"

// qwenQuestion is one question of Qwen Code's ask_user_question (Claude
// Code's AskUserQuestion shape).
type qwenQuestion struct {
	Question    string `json:"question"`
	Header      string `json:"header"`
	MultiSelect bool   `json:"multiSelect"`
	Options     []struct {
		Label       string `json:"label"`
		Description string `json:"description"`
	} `json:"options"`
}

// qwenQuestions returns the questions of a permission request that is
// Qwen Code's ask_user_question, and the id of its Submit option; nil
// when the request is anything else.
func qwenQuestions(p sdk.RequestPermissionRequest) ([]qwenQuestion, string) {
	if kind, _ := p.ToolCall.Meta[qwenInteractionKind].(string); kind != qwenUserQuestion {
		return nil, ""
	}
	submit := ""
	for _, o := range p.Options {
		if string(o.OptionId) == qwenSubmit && o.Kind == sdk.PermissionOptionKindAllowOnce {
			submit = qwenSubmit
		}
	}
	raw, err := json.Marshal(p.ToolCall.RawInput)
	if err != nil || submit == "" {
		return nil, ""
	}
	var in struct {
		Questions []qwenQuestion `json:"questions"`
	}
	if json.Unmarshal(raw, &in) != nil || len(in.Questions) == 0 {
		return nil, ""
	}
	return in.Questions, submit
}

// qwenRequest is the request that asks Qwen Code's questions as the
// questions they are, each free to take text of the human's own (Qwen's
// dialog offers "Other" too).
func qwenRequest(qs []qwenQuestion) interaction.Request {
	var req interaction.Request
	for i, q := range qs {
		iq := interaction.Question{ID: "q" + strconv.Itoa(i+1), Question: q.Question, Header: q.Header, MultiSelect: q.MultiSelect}
		for _, o := range q.Options {
			iq.Options = append(iq.Options, interaction.Option{Label: o.Label, Description: o.Description})
		}
		req.Questions = append(req.Questions, iq)
	}
	return req
}

// qwenAnswers turns the human's answer into Qwen Code's answers object:
// the question's index as its key, the chosen labels joined with ", ",
// typed text as typed, a note after the answer; a question left
// unanswered has no key.
func qwenAnswers(req interaction.Request, ans interaction.Answer) map[string]string {
	out := map[string]string{}
	for i, q := range req.Questions {
		item, ok := ans.Get(q.ID)
		if !ok {
			continue
		}
		value := item.Custom
		if value == "" {
			value = strings.Join(item.Selected, ", ")
		}
		if item.Note != "" {
			if value == "" {
				value = item.Note
			} else {
				value += " (the user's note: " + item.Note + ")"
			}
		}
		if value != "" {
			out[strconv.Itoa(i)] = value
		}
	}
	return out
}

// askQwen asks Qwen Code's questions and returns its response: Submit
// with the answers, or cancelled when the human declined (Qwen's own
// dialog cancels on Esc too) or the question went away. ok is false when
// the questions cannot be asked as questions (over asktui's limits): the
// request is then asked as the permission it is.
func (c *session) askQwen(ctx context.Context, qs []qwenQuestion, submit string) (resp sdk.RequestPermissionResponse, ok bool) {
	req := qwenRequest(qs)
	req.Agent = c.agent()
	if req.Validate() != nil {
		return resp, false
	}
	cancelled := sdk.RequestPermissionResponse{Outcome: sdk.NewRequestPermissionOutcomeCancelled()}
	ctx, done := c.askCtx(ctx)
	defer done()
	ans, err := c.opts.Asker.Ask(ctx, req)
	if err != nil {
		return cancelled, true
	}
	return sdk.RequestPermissionResponse{
		Outcome: sdk.NewRequestPermissionOutcomeSelected(sdk.PermissionOptionId(submit)),
		Meta:    map[string]any{qwenAnswersMeta: qwenAnswers(req, ans)},
	}, true
}

// answersWriter is the agent's standard input as the connection writes
// it, one JSON-RPC message a Write: a response whose result's _meta holds
// Qwen Code's answers (qwenAnswersMeta, which only askQwen sets) has them
// moved to the result's own "answers"; every other message passes as
// written.
type answersWriter struct{ io.WriteCloser }

func (w answersWriter) Write(b []byte) (int, error) {
	if !bytes.Contains(b, []byte(qwenAnswersMeta)) {
		return w.WriteCloser.Write(b)
	}
	moved, ok := moveAnswers(b)
	if !ok {
		return w.WriteCloser.Write(b)
	}
	if _, err := w.WriteCloser.Write(moved); err != nil {
		return 0, err
	}
	return len(b), nil
}

// moveAnswers rewrites one JSON-RPC response line, moving
// result._meta[qwenAnswersMeta] to result.answers; ok is false when the
// line is no such response.
func moveAnswers(line []byte) ([]byte, bool) {
	var msg map[string]json.RawMessage
	if json.Unmarshal(line, &msg) != nil || msg["result"] == nil || msg["method"] != nil {
		return nil, false
	}
	var result map[string]json.RawMessage
	if json.Unmarshal(msg["result"], &result) != nil {
		return nil, false
	}
	var meta map[string]json.RawMessage
	if json.Unmarshal(result["_meta"], &meta) != nil || meta[qwenAnswersMeta] == nil {
		return nil, false
	}
	result["answers"] = meta[qwenAnswersMeta]
	delete(meta, qwenAnswersMeta)
	delete(result, "_meta")
	if len(meta) > 0 {
		result["_meta"], _ = json.Marshal(meta) // raw members always marshal
	}
	msg["result"], _ = json.Marshal(result)
	out, err := json.Marshal(msg)
	if err != nil {
		return nil, false
	}
	return append(out, '\n'), true
}
