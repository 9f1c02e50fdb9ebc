package acp

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"strings"
	"sync/atomic"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/asktui/asktui/agent/script"
	"github.com/asktui/asktui/interaction"
)

// ScenarioOptions configure [ServeScenario].
type ScenarioOptions struct {
	// Speed scales the scenario's durations: 2 plays twice as fast. Zero
	// means real time.
	Speed float64
	// Version is asktui's version, sent as the agent's.
	Version string
}

// ServeScenario plays a scripted scenario as an ACP agent on stdin and
// stdout (`asktui demo --acp`), until the client hangs up or ctx ends.
// Every prompt plays the whole scenario: what its agents say arrives as
// message chunks, their thinking as thought chunks, their tools as tool
// calls. A question with two options, yes and no, becomes a permission
// request; any other request one form elicitation, in the shape
// claude-agent-acp gives AskUserQuestion (a choice per question, and a
// free-text companion for "Other" and notes, marked as its versions
// before 0.101 mark it). A withdraw step withdraws its request through
// the SDK.
func ServeScenario(ctx context.Context, sc *script.Scenario, stdin io.Reader, stdout io.Writer, opts ScenarioOptions) error {
	a := &scenarioAgent{sc: sc, opts: opts}
	a.conn = sdk.NewAgentSideConnection(a, stdout, stdin)
	a.conn.SetLogger(slog.New(slog.DiscardHandler))
	select {
	case <-a.conn.Done():
		return nil
	case <-ctx.Done():
		return interaction.ContextError(ctx)
	}
}

// scenarioAgent is the ACP agent side of a scenario.
type scenarioAgent struct {
	sc   *script.Scenario
	opts ScenarioOptions
	conn *sdk.AgentSideConnection

	sessions atomic.Int64
	seq      atomic.Int64 // message, tool call and request ids
}

var _ sdk.Agent = (*scenarioAgent)(nil)

func (a *scenarioAgent) next(prefix string) string {
	return prefix + "-" + strconv.FormatInt(a.seq.Add(1), 10)
}

// Initialize implements sdk.Agent.
func (a *scenarioAgent) Initialize(context.Context, sdk.InitializeRequest) (sdk.InitializeResponse, error) {
	title := "asktui demo: " + a.sc.Name
	return sdk.InitializeResponse{
		ProtocolVersion: sdk.ProtocolVersionNumber,
		AgentInfo:       &sdk.Implementation{Name: "asktui-demo", Title: &title, Version: a.opts.Version},
		AuthMethods:     []sdk.AuthMethod{},
	}, nil
}

// NewSession implements sdk.Agent.
func (a *scenarioAgent) NewSession(context.Context, sdk.NewSessionRequest) (sdk.NewSessionResponse, error) {
	return sdk.NewSessionResponse{SessionId: sdk.SessionId("scenario-" + strconv.FormatInt(a.sessions.Add(1), 10))}, nil
}

// Authenticate implements sdk.Agent.
func (a *scenarioAgent) Authenticate(context.Context, sdk.AuthenticateRequest) (sdk.AuthenticateResponse, error) {
	return sdk.AuthenticateResponse{}, nil
}

// Logout implements sdk.Agent.
func (a *scenarioAgent) Logout(context.Context, sdk.LogoutRequest) (sdk.LogoutResponse, error) {
	return sdk.LogoutResponse{}, nil
}

// Cancel implements sdk.Agent: the SDK ends the prompt's context.
func (a *scenarioAgent) Cancel(context.Context, sdk.CancelNotification) error { return nil }

// CloseSession implements sdk.Agent.
func (a *scenarioAgent) CloseSession(context.Context, sdk.CloseSessionRequest) (sdk.CloseSessionResponse, error) {
	return sdk.CloseSessionResponse{}, nil
}

// ListSessions implements sdk.Agent: a scenario keeps no sessions.
func (a *scenarioAgent) ListSessions(context.Context, sdk.ListSessionsRequest) (sdk.ListSessionsResponse, error) {
	return sdk.ListSessionsResponse{}, sdk.NewMethodNotFound(sdk.AgentMethodSessionList)
}

// ResumeSession implements sdk.Agent: a scenario keeps no sessions.
func (a *scenarioAgent) ResumeSession(context.Context, sdk.ResumeSessionRequest) (sdk.ResumeSessionResponse, error) {
	return sdk.ResumeSessionResponse{}, sdk.NewMethodNotFound(sdk.AgentMethodSessionResume)
}

// SetSessionConfigOption implements sdk.Agent.
func (a *scenarioAgent) SetSessionConfigOption(context.Context, sdk.SetSessionConfigOptionRequest) (sdk.SetSessionConfigOptionResponse, error) {
	return sdk.SetSessionConfigOptionResponse{}, sdk.NewMethodNotFound(sdk.AgentMethodSessionSetConfigOption)
}

// SetSessionMode implements sdk.Agent.
func (a *scenarioAgent) SetSessionMode(context.Context, sdk.SetSessionModeRequest) (sdk.SetSessionModeResponse, error) {
	return sdk.SetSessionModeResponse{}, sdk.NewMethodNotFound(sdk.AgentMethodSessionSetMode)
}

// Prompt plays the whole scenario.
func (a *scenarioAgent) Prompt(ctx context.Context, p sdk.PromptRequest) (sdk.PromptResponse, error) {
	s := &scenarioSession{a: a, id: p.SessionId, multi: len(a.sc.Agents) > 1}
	if a.sc.Title != "" {
		_ = a.conn.SessionUpdate(ctx, sdk.SessionNotification{SessionId: p.SessionId, Update: sdk.SessionUpdate{
			SessionInfoUpdate: &sdk.SessionSessionInfoUpdate{SessionUpdate: "session_info_update", Title: &a.sc.Title},
		}})
	}
	r := &script.Runner{Asker: s, Reporter: s, Speed: a.opts.Speed}
	_, err := r.Run(ctx, a.sc)
	if ctx.Err() != nil {
		return sdk.PromptResponse{StopReason: sdk.StopReasonCancelled}, nil
	}
	if err != nil && interaction.CodeOf(err) == interaction.CodeProviderClosed {
		return sdk.PromptResponse{}, err
	}
	return sdk.PromptResponse{StopReason: sdk.StopReasonEndTurn}, nil
}

// scenarioSession is one prompt's run: the runner's Asker and Reporter.
type scenarioSession struct {
	a     *scenarioAgent
	id    sdk.SessionId
	multi bool
}

func (s *scenarioSession) update(u sdk.SessionUpdate) {
	_ = s.a.conn.SessionUpdate(context.Background(), sdk.SessionNotification{SessionId: s.id, Update: u})
}

// who prefixes a message with its scripted agent when there are several.
func (s *scenarioSession) who(a interaction.Agent, text string) string {
	if !s.multi {
		return text
	}
	return "**" + a.DisplayName() + "**: " + text
}

// Report turns a scripted agent's activity into session updates.
func (s *scenarioSession) Report(act interaction.Activity) {
	switch act.Kind {
	case interaction.ActivityMessage:
		id := s.a.next("msg")
		s.update(sdk.SessionUpdate{AgentMessageChunk: &sdk.SessionUpdateAgentMessageChunk{
			SessionUpdate: "agent_message_chunk", Content: sdk.TextBlock(s.who(act.Agent, act.Text)), MessageId: &id}})
	case interaction.ActivityThinking:
		if act.Text != "" {
			s.update(sdk.UpdateAgentThoughtText(s.who(act.Agent, act.Text)))
		}
	case interaction.ActivityToolCall:
		var input any
		if json.Unmarshal([]byte(act.Args), &input) != nil && act.Args != "" {
			input = act.Args
		}
		title := act.Tool
		if cmd := commandOf(act.Args); cmd != "" {
			title += ": " + cmd
		}
		s.update(sdk.StartToolCall(sdk.ToolCallId(act.CallID), s.who(act.Agent, title),
			sdk.WithStartKind(toolKind(act.Tool)), sdk.WithStartStatus(sdk.ToolCallStatusInProgress), sdk.WithStartRawInput(input)))
	case interaction.ActivityToolResult:
		status := sdk.ToolCallStatusCompleted
		if act.Failed {
			status = sdk.ToolCallStatusFailed
		}
		s.update(sdk.UpdateToolCall(sdk.ToolCallId(act.CallID), sdk.WithUpdateStatus(status),
			sdk.WithUpdateContent([]sdk.ToolCallContent{sdk.ToolContent(sdk.TextBlock(act.Text))})))
	default:
		// Connecting, disconnecting and going idle have no session update.
	}
}

// toolKind guesses an ACP tool kind from a scripted tool's name.
func toolKind(name string) sdk.ToolKind {
	n := strings.ToLower(name)
	switch {
	case strings.Contains(n, "bash") || strings.Contains(n, "shell") || strings.Contains(n, "exec") || strings.Contains(n, "run"):
		return sdk.ToolKindExecute
	case strings.Contains(n, "read") || strings.Contains(n, "cat"):
		return sdk.ToolKindRead
	case strings.Contains(n, "edit") || strings.Contains(n, "write"):
		return sdk.ToolKindEdit
	case strings.Contains(n, "grep") || strings.Contains(n, "search") || strings.Contains(n, "find"):
		return sdk.ToolKindSearch
	case strings.Contains(n, "http") || strings.Contains(n, "fetch"):
		return sdk.ToolKindFetch
	}
	return sdk.ToolKindOther
}

// Ask puts a scripted agent's request to the client.
func (s *scenarioSession) Ask(ctx context.Context, req interaction.Request) (interaction.Answer, error) {
	if yes, no, ok := yesNo(req); ok {
		return s.askPermission(ctx, req, yes, no)
	}
	return s.askForm(ctx, req)
}

// yesNo reports whether req is one question answered yes or no, and its
// two labels.
func yesNo(req interaction.Request) (yes, no string, ok bool) {
	if len(req.Questions) != 1 {
		return "", "", false
	}
	q := req.Questions[0]
	if q.MultiSelect || len(q.Options) != 2 {
		return "", "", false
	}
	starts := func(label, word string) bool {
		l := strings.ToLower(strings.TrimSpace(label))
		return l == word || strings.HasPrefix(l, word+" ") || strings.HasPrefix(l, word+",") || strings.HasPrefix(l, word+"(")
	}
	a, b := q.Options[0].Label, q.Options[1].Label
	switch {
	case starts(a, "yes") && starts(b, "no"):
		return a, b, true
	case starts(a, "no") && starts(b, "yes"):
		return b, a, true
	}
	return "", "", false
}

// askPermission asks a yes/no question as a permission request.
func (s *scenarioSession) askPermission(ctx context.Context, req interaction.Request, yes, no string) (interaction.Answer, error) {
	q := req.Questions[0]
	id := sdk.ToolCallId(s.a.next("ask"))
	title := s.who(*req.Agent, q.Question)
	resp, err := s.a.conn.RequestPermission(ctx, sdk.RequestPermissionRequest{
		SessionId: s.id,
		ToolCall: sdk.ToolCallUpdate{ToolCallId: id, Title: &title, Kind: sdk.Ptr(sdk.ToolKindOther),
			Status: sdk.Ptr(sdk.ToolCallStatusPending), RawInput: map[string]any{"question": q.Question}},
		Options: []sdk.PermissionOption{
			{Kind: sdk.PermissionOptionKindAllowOnce, Name: yes, OptionId: "yes"},
			{Kind: sdk.PermissionOptionKindRejectOnce, Name: no, OptionId: "no"},
		},
	})
	if err != nil {
		return interaction.Answer{}, s.askError(ctx, err)
	}
	status := sdk.ToolCallStatusFailed
	defer func() { s.update(sdk.UpdateToolCall(id, sdk.WithUpdateStatus(status))) }()
	if sel := resp.Outcome.Selected; sel != nil {
		label := no
		if sel.OptionId == "yes" {
			label, status = yes, sdk.ToolCallStatusCompleted
		}
		return interaction.Answer{Answers: []interaction.AnswerItem{{ID: q.ID, Selected: []string{label}}}}, nil
	}
	return interaction.Answer{}, interaction.Errorf(interaction.CodeDeclined, "the permission request was cancelled")
}

// askError is the error of a request the client did not answer.
func (s *scenarioSession) askError(ctx context.Context, err error) error {
	if cerr := interaction.ContextError(ctx); cerr != nil {
		return cerr
	}
	select {
	case <-s.a.conn.Done():
		return interaction.WrapError(interaction.CodeProviderClosed, err, "the client has gone")
	default:
	}
	return interaction.WrapError(interaction.CodeInternal, err, "the client failed the request: %v", err)
}

// askForm asks a request as one form elicitation. Field names start with
// the question's number, so that their order survives JSON objects,
// whose keys the SDK sorts.
func (s *scenarioSession) askForm(ctx context.Context, req interaction.Request) (interaction.Answer, error) {
	props, keys := formSchema(req)
	message := "Questions from " + req.Agent.DisplayName()
	resp, err := s.a.conn.UnstableCreateElicitation(ctx, sdk.UnstableCreateElicitationRequest{Form: &sdk.UnstableCreateElicitationForm{
		Mode: "form", Message: message, RequestedSchema: sdk.UnstableElicitationSchema{Type: "object", Properties: props},
	}})
	if err != nil {
		return interaction.Answer{}, s.askError(ctx, err)
	}
	switch {
	case resp.Decline != nil:
		return interaction.Answer{}, interaction.Errorf(interaction.CodeDeclined, "the human declined")
	case resp.Accept == nil:
		if cerr := interaction.ContextError(ctx); cerr != nil {
			return interaction.Answer{}, cerr
		}
		return interaction.Answer{}, interaction.Errorf(interaction.CodeAborted, "the client cancelled the question")
	}
	var ans interaction.Answer
	for i, q := range req.Questions {
		other, _ := resp.Accept.Content[keys[i]+customSuffix].(string)
		ans.Answers = append(ans.Answers, formItem(q, resp.Accept.Content[keys[i]], strings.TrimSpace(other)))
	}
	return ans, nil
}

// formSchema returns the properties of askForm's form, and the key of
// each question's.
func formSchema(req interaction.Request) (props map[string]any, keys []string) {
	props = map[string]any{}
	keys = make([]string, len(req.Questions))
	width := len(strconv.Itoa(len(req.Questions)))
	for i, q := range req.Questions {
		key := fmt.Sprintf("q%0*d_%s", width, i+1, q.ID)
		keys[i] = key
		props[key] = formProperty(q)
		if len(q.Options) > 0 {
			props[key+customSuffix] = map[string]any{"type": "string", "title": "Other",
				"description": "Your own answer to: " + q.Question, "_meta": map[string]any{metaCustomAnswer: key}}
		}
	}
	return props, keys
}

// formProperty is the schema of question q in askForm's form.
func formProperty(q interaction.Question) map[string]any {
	// Form fields have no header: the question is the title.
	p := map[string]any{"type": "string", "title": q.Question}
	if len(q.Options) == 0 {
		return p
	}
	choices := make([]any, 0, len(q.Options))
	for _, o := range q.Options {
		c := map[string]any{"const": o.Label, "title": o.Label}
		if o.Description != "" {
			c["description"] = o.Description
		}
		choices = append(choices, c)
	}
	if q.MultiSelect {
		return map[string]any{"type": "array", "title": q.Question, "items": map[string]any{"anyOf": choices}}
	}
	p["oneOf"] = choices
	return p
}

// formItem reads the answer to question q from askForm's form: v, the
// value of its field, and other, its companion's text. As
// claude-agent-acp reads it, the companion's text is the answer when
// nothing was chosen, and a note beside a choice.
func formItem(q interaction.Question, v any, other string) interaction.AnswerItem {
	item := interaction.AnswerItem{ID: q.ID, Selected: []string{}}
	switch v := v.(type) {
	case string:
		if len(q.Options) > 0 {
			item.Selected, item.Note = []string{v}, other
		} else {
			item.Custom = v
		}
	case []any:
		for _, x := range v {
			if str, ok := x.(string); ok {
				item.Selected = append(item.Selected, str)
			}
		}
		item.Note = other
	default:
		item.Custom = other
	}
	if len(item.Selected) == 0 && item.Note != "" {
		item.Custom, item.Note = item.Note, ""
	}
	return item
}
