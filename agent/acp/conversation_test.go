package acp

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/interaction/conversation"
	"github.com/asktui/asktui/interaction/interactiontest"
)

func TestEveryUpdateReachesTheSink(t *testing.T) {
	agent := &testAgent{
		modes: &sdk.SessionModeState{CurrentModeId: "ask", AvailableModes: []sdk.SessionMode{{Id: "ask", Name: "Ask"}, {Id: "code", Name: "Code"}}},
		prompt: func(ctx context.Context, a *testAgent, sid sdk.SessionId) (sdk.StopReason, error) {
			a.update(ctx, sid, sdk.UpdateUserMessageText("hi"))
			a.update(ctx, sid, sdk.UpdateAgentThoughtText("thinking"))
			a.update(ctx, sid, sdk.UpdateAgentMessageText("Hello, "))
			a.update(ctx, sid, sdk.UpdateAgentMessageText("world"))
			a.update(ctx, sid, sdk.StartToolCall("t1", "Edit main.go", sdk.WithStartKind(sdk.ToolKindEdit),
				sdk.WithStartLocations([]sdk.ToolCallLocation{{Path: "/w/main.go", Line: sdk.Ptr(3)}}),
				sdk.WithStartRawInput(map[string]any{"path": "/w/main.go"})))
			a.update(ctx, sid, sdk.UpdateToolCall("t1", sdk.WithUpdateStatus(sdk.ToolCallStatusCompleted),
				sdk.WithUpdateContent([]sdk.ToolCallContent{sdk.ToolDiffContent("/w/main.go", "new\n", "old\n"), sdk.ToolContent(sdk.TextBlock("done"))})))
			a.update(ctx, sid, sdk.UpdatePlan(sdk.PlanEntry{Content: "step", Priority: "high", Status: "pending"}))
			a.update(ctx, sid, sdk.SessionUpdate{AvailableCommandsUpdate: &sdk.SessionAvailableCommandsUpdate{SessionUpdate: "available_commands_update",
				AvailableCommands: []sdk.AvailableCommand{{Name: "web", Description: "search the web", Input: &sdk.AvailableCommandInput{Unstructured: &sdk.UnstructuredCommandInput{Hint: "query"}}}}}})
			a.update(ctx, sid, sdk.SessionUpdate{CurrentModeUpdate: &sdk.SessionCurrentModeUpdate{SessionUpdate: "current_mode_update", CurrentModeId: "code"}})
			a.update(ctx, sid, sdk.SessionUpdate{SessionInfoUpdate: &sdk.SessionSessionInfoUpdate{SessionUpdate: "session_info_update", Title: sdk.Ptr("Fix the bug")}})
			a.update(ctx, sid, sdk.SessionUpdate{UsageUpdate: &sdk.SessionUsageUpdate{SessionUpdate: "usage_update", Used: 1200, Size: 200000, Cost: &sdk.Cost{Amount: 0.25, Currency: "USD"}}})
			return sdk.StopReasonEndTurn, nil
		},
	}
	r := newRig(t, agent, Options{Cwd: "/w"}, "")
	res := wait(t, r.prompt("hi"))
	if res.err != nil || res.stop != conversation.StopEndTurn {
		t.Fatalf("Prompt = %q, %v; want end_turn", res.stop, res.err)
	}
	var got []string
	for _, e := range r.sink.all() {
		s := string(e.Kind)
		switch {
		case e.Text != "":
			s += " " + e.Text
		case e.Tool != nil:
			s += " " + e.Tool.ID + " " + string(e.Tool.Kind) + " " + string(e.Tool.Status)
		case e.Plan != nil:
			s += " " + e.Plan[0].Content
		case e.Usage != nil:
			s += " " + e.Usage.Currency
		case e.Kind == conversation.EventTurnEnded:
			s += " " + string(e.Stop)
		case e.Info != nil:
			s += " " + e.Info.Mode + " " + e.Info.Title
		}
		got = append(got, s)
	}
	want := []string{
		"started ask ",
		"user_chunk hi",
		"thought_chunk thinking",
		"message_chunk Hello, ",
		"message_chunk world",
		"tool_call t1 edit pending",
		"tool_call t1 edit completed",
		"plan step",
		"info ask ",
		"info code ",
		"info code Fix the bug",
		"usage USD",
		"turn_ended end_turn",
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("events:\n got %q\nwant %q", got, want)
	}
	tool := r.sink.all()[6].Tool
	if len(tool.Content) != 2 || tool.Content[0].Diff == nil || *tool.Content[0].Diff.Old != "old\n" || tool.Content[1].Text != "done" ||
		len(tool.Locations) != 1 || tool.Locations[0].Line != 3 || tool.Input != `{"path":"/w/main.go"}` {
		t.Fatalf("tool call state: %+v", tool)
	}
	info := r.c.Info()
	if info.Title != "Fix the bug" || info.Mode != "code" || len(info.Commands) != 1 || info.Commands[0].Hint != "query" || len(info.Modes) != 2 {
		t.Fatalf("Info() = %+v", info)
	}
}

func TestPermission(t *testing.T) {
	tests := []struct {
		name   string
		answer func(call *interactiontest.Call)
		want   string // the option id, or "cancelled"
	}{
		{"allow", func(c *interactiontest.Call) {
			c.Answer(interaction.Answer{Answers: []interaction.AnswerItem{{ID: permissionID, Selected: []string{"Allow once"}}}})
		}, "allow"},
		{"reject", func(c *interactiontest.Call) {
			c.Answer(interaction.Answer{Answers: []interaction.AnswerItem{{ID: permissionID, Selected: []string{"Reject"}}}})
		}, "reject"},
		{"declined", func(c *interactiontest.Call) {
			c.Fail(interaction.Errorf(interaction.CodeDeclined, "no"))
		}, "cancelled"},
		{"skipped", func(c *interactiontest.Call) {
			c.Answer(interaction.Answer{})
		}, "cancelled"},
		{"own answer", func(c *interactiontest.Call) {
			c.Answer(interaction.Answer{Answers: []interaction.AnswerItem{{ID: permissionID, Custom: "only in /tmp"}}})
		}, "cancelled"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			outcome := make(chan string, 1)
			agent := &testAgent{prompt: func(ctx context.Context, a *testAgent, sid sdk.SessionId) (sdk.StopReason, error) {
				a.update(ctx, sid, sdk.StartToolCall("t1", "Run tests", sdk.WithStartKind(sdk.ToolKindExecute),
					sdk.WithStartRawInput(map[string]any{"command": "go test ./..."})))
				resp, err := a.conn.RequestPermission(ctx, sdk.RequestPermissionRequest{SessionId: sid,
					ToolCall: sdk.ToolCallUpdate{ToolCallId: "t1"},
					Options: []sdk.PermissionOption{
						{Kind: sdk.PermissionOptionKindAllowOnce, Name: "Allow once", OptionId: "allow"},
						{Kind: sdk.PermissionOptionKindRejectOnce, Name: "Reject", OptionId: "reject"},
					}})
				switch {
				case err != nil:
					outcome <- err.Error()
				case resp.Outcome.Selected != nil:
					outcome <- string(resp.Outcome.Selected.OptionId)
				default:
					outcome <- "cancelled"
				}
				return sdk.StopReasonEndTurn, nil
			}}
			r := newRig(t, agent, Options{}, "")
			done := r.prompt("go")
			call := r.human.Next(t)
			q := call.Req.Questions[0]
			if q.Question != "Allow Run tests?" || !q.NoOther || !strings.Contains(q.Detail, "go test ./...") || len(q.Options) != 2 ||
				q.Options[0].Label != "Allow once" || call.Req.Agent.ID != "test" {
				t.Fatalf("question: %+v (agent %+v)", q, call.Req.Agent)
			}
			tt.answer(call)
			if got := wait(t, outcome); got != tt.want {
				t.Fatalf("outcome %q, want %q", got, tt.want)
			}
			wait(t, done)
		})
	}
}

// enterAtOnce answers a permission as Enter does on a question just
// shown: the question's cursor starts on its first option.
func enterAtOnce(c *interactiontest.Call) {
	q := c.Req.Questions[0]
	c.Answer(interaction.Answer{Answers: []interaction.AnswerItem{{ID: q.ID, Selected: []string{q.Options[0].Label}}}})
}

// TestPermissionDefaultDecidesThisCallOnly: Qwen Code offers "Always
// Allow" first; on asktui's question the option that allows this one call
// comes first, so Enter at once answers allow_once, and an option that
// decides from now on comes last, marked so, chosen only on purpose.
// With no option for this call only, asktui's own "None of these" comes
// first, and Enter at once answers cancelled.
func TestPermissionDefaultDecidesThisCallOnly(t *testing.T) {
	qwen := []sdk.PermissionOption{
		{Kind: sdk.PermissionOptionKindAllowAlways, Name: "Always Allow in project: touch *", OptionId: "proceed_always_project"},
		{Kind: sdk.PermissionOptionKindAllowOnce, Name: "Allow", OptionId: "proceed_once"},
		{Kind: sdk.PermissionOptionKindRejectOnce, Name: "Reject", OptionId: "cancel"},
	}
	standing := []sdk.PermissionOption{
		{Kind: sdk.PermissionOptionKindRejectAlways, Name: "Never", OptionId: "never"},
		{Kind: sdk.PermissionOptionKindAllowAlways, Name: "Always", OptionId: "always"},
	}
	tests := []struct {
		name   string
		opts   []sdk.PermissionOption
		labels []string
		answer func(c *interactiontest.Call)
		want   string
	}{
		{"qwen enter", qwen, []string{"Allow", "Reject", "Always Allow in project: touch *"}, enterAtOnce, "proceed_once"},
		{"qwen always on purpose", qwen, nil, func(c *interactiontest.Call) {
			c.Answer(interaction.Answer{Answers: []interaction.AnswerItem{{ID: permissionID, Selected: []string{"Always Allow in project: touch *"}}}})
		}, "proceed_always_project"},
		{"standing only enter", standing, []string{"None of these", "Never", "Always"}, enterAtOnce, "cancelled"},
		{"standing only on purpose", standing, nil, func(c *interactiontest.Call) {
			c.Answer(interaction.Answer{Answers: []interaction.AnswerItem{{ID: permissionID, Selected: []string{"Always"}}}})
		}, "always"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			outcome := make(chan string, 1)
			agent := &testAgent{prompt: func(ctx context.Context, a *testAgent, sid sdk.SessionId) (sdk.StopReason, error) {
				a.update(ctx, sid, sdk.StartToolCall("t1", "touch a", sdk.WithStartKind(sdk.ToolKindExecute),
					sdk.WithStartRawInput(map[string]any{"command": "touch a"})))
				resp, err := a.conn.RequestPermission(ctx, sdk.RequestPermissionRequest{SessionId: sid,
					ToolCall: sdk.ToolCallUpdate{ToolCallId: "t1"}, Options: tt.opts})
				switch {
				case err != nil:
					outcome <- err.Error()
				case resp.Outcome.Selected != nil:
					outcome <- string(resp.Outcome.Selected.OptionId)
				default:
					outcome <- "cancelled"
				}
				return sdk.StopReasonEndTurn, nil
			}}
			r := newRig(t, agent, Options{}, "")
			done := r.prompt("go")
			call := r.human.Next(t)
			q := call.Req.Questions[0]
			if tt.labels != nil {
				var labels []string
				for _, o := range q.Options {
					labels = append(labels, o.Label)
					if strings.HasPrefix(o.Label, "Always") || o.Label == "Never" {
						if !strings.HasPrefix(o.Description, "from now on: ") {
							t.Errorf("the standing option %q is not marked: %q", o.Label, o.Description)
						}
					}
				}
				if !slices.Equal(labels, tt.labels) {
					t.Fatalf("options %q, want %q", labels, tt.labels)
				}
			}
			tt.answer(call)
			if got := wait(t, outcome); got != tt.want {
				t.Fatalf("outcome %q, want %q", got, tt.want)
			}
			wait(t, done)
		})
	}
}

func TestCancelMidTurnWithdrawsQuestions(t *testing.T) {
	outcome := make(chan string, 1)
	agent := &testAgent{prompt: func(ctx context.Context, a *testAgent, sid sdk.SessionId) (sdk.StopReason, error) {
		// Not ctx: session/cancel ends it, and the answer is what matters.
		resp, err := a.conn.RequestPermission(context.Background(), sdk.RequestPermissionRequest{SessionId: sid,
			ToolCall: sdk.ToolCallUpdate{ToolCallId: "t1", Title: sdk.Ptr("Delete everything")},
			Options:  []sdk.PermissionOption{{Kind: sdk.PermissionOptionKindAllowOnce, Name: "Yes", OptionId: "y"}}})
		switch {
		case err != nil:
			outcome <- "error"
		case resp.Outcome.Cancelled != nil:
			outcome <- "cancelled"
		default:
			outcome <- "selected"
		}
		<-ctx.Done() // the SDK ends the turn's context on session/cancel
		return sdk.StopReasonCancelled, nil
	}}
	r := newRig(t, agent, Options{}, "")
	done := r.prompt("go")
	call := r.human.Next(t)
	cancelled := make(chan struct{})
	go func() {
		r.c.Cancel()
		close(cancelled)
	}()
	if err := call.Withdrawn(t, within); interaction.CodeOf(err) != interaction.CodeAborted {
		t.Fatalf("withdrawn with %v", err)
	}
	if got := wait(t, outcome); got != "cancelled" {
		t.Fatalf("permission outcome %q, want cancelled", got)
	}
	res := wait(t, done)
	if res.err != nil || res.stop != conversation.StopCancelled {
		t.Fatalf("Prompt = %q, %v", res.stop, res.err)
	}
	wait(t, cancelled)
}

func TestBusyDuringATurn(t *testing.T) {
	release, holding := make(chan struct{}), make(chan struct{})
	agent := &testAgent{prompt: func(ctx context.Context, a *testAgent, sid sdk.SessionId) (sdk.StopReason, error) {
		close(holding)
		<-release
		return sdk.StopReasonEndTurn, nil
	}}
	r := newRig(t, agent, Options{}, "")
	done := r.prompt("one")
	wait(t, holding)
	_, err := r.c.Prompt(context.Background(), []conversation.PromptPart{{Text: "two"}})
	if interaction.CodeOf(err) != interaction.CodeBusy {
		t.Fatalf("second Prompt: %v, want BUSY", err)
	}
	close(release)
	wait(t, done)
}

func TestCrashMidTurn(t *testing.T) {
	var r *rig
	agent := &testAgent{prompt: func(ctx context.Context, a *testAgent, sid sdk.SessionId) (sdk.StopReason, error) {
		a.update(ctx, sid, sdk.UpdateAgentMessageText("last words"))
		_ = r.agentOut.Close() // the agent dies
		<-ctx.Done()
		return sdk.StopReasonEndTurn, nil
	}}
	r = newRig(t, agent, Options{}, "")
	r.c.proc.(*pipeProc).tail = "panic: out of cheese"
	res := wait(t, r.prompt("go"))
	if interaction.CodeOf(res.err) != interaction.CodeAgentExited || !strings.Contains(res.err.Error(), "out of cheese") {
		t.Fatalf("Prompt error %v, want AGENT_EXITED with the stderr tail", res.err)
	}
	events := r.sink.all()
	last := events[len(events)-1]
	if last.Kind != conversation.EventEnded || interaction.CodeOf(last.Err) != interaction.CodeAgentExited {
		t.Fatalf("last event %+v", last)
	}
	msg := -1
	for i, e := range events {
		if e.Kind == conversation.EventMessageChunk && e.Text == "last words" {
			msg = i
		}
	}
	if msg < 0 || msg > len(events)-2 {
		t.Fatalf("the last message is missing or late: %v", kinds(events))
	}
	if _, err := r.c.Prompt(context.Background(), []conversation.PromptPart{{Text: "again"}}); interaction.CodeOf(err) != interaction.CodeAgentExited {
		t.Fatalf("Prompt after the end: %v", err)
	}
}

func TestMalformedLineIsAProtocolError(t *testing.T) {
	var r *rig
	agent := &testAgent{prompt: func(ctx context.Context, a *testAgent, sid sdk.SessionId) (sdk.StopReason, error) {
		a.update(ctx, sid, sdk.UpdateAgentMessageText("fine so far"))
		_, _ = r.agentOut.Write([]byte("DEBUG: connecting to the model\n"))
		<-ctx.Done()
		return sdk.StopReasonEndTurn, nil
	}}
	r = newRig(t, agent, Options{}, "")
	res := wait(t, r.prompt("go"))
	if interaction.CodeOf(res.err) != interaction.CodeAgentProtocol || !strings.Contains(res.err.Error(), "DEBUG: connecting") {
		t.Fatalf("Prompt error %v, want AGENT_PROTOCOL quoting the line", res.err)
	}
	ended := r.sink.waitKind(t, conversation.EventEnded)
	if interaction.CodeOf(ended.Err) != interaction.CodeAgentProtocol {
		t.Fatalf("ended with %v", ended.Err)
	}
}

func TestResumeAndSessions(t *testing.T) {
	agent := &testAgent{caps: sdk.AgentCapabilities{LoadSession: true, SessionCapabilities: sdk.SessionCapabilities{List: &sdk.SessionListCapabilities{}}}}
	r := newRig(t, agent, Options{}, "old")
	if got := r.c.Info().Session; got != "old" {
		t.Fatalf("session %q", got)
	}
	var replay []string
	for _, e := range r.sink.all() {
		if e.Text != "" && e.Kind != conversation.EventNotice {
			replay = append(replay, string(e.Kind)+" "+e.Text)
		}
	}
	if want := []string{"user_chunk earlier prompt", "message_chunk earlier reply"}; !reflect.DeepEqual(replay, want) {
		t.Fatalf("replay %q, want %q", replay, want)
	}
	past, err := r.c.sessions(context.Background())
	if err != nil || len(past) != 2 || past[0].Session != "new" || past[1].Title != "Old one" {
		t.Fatalf("sessions %+v, %v", past, err)
	}
}

func TestResumeUnsupported(t *testing.T) {
	human := &testAgent{}
	r := newRig(t, human, Options{}, "")
	err := r.c.open(context.Background(), "old")
	if interaction.CodeOf(err) != interaction.CodeUnsupported {
		t.Fatalf("resume: %v, want UNSUPPORTED", err)
	}
	if _, err := r.c.sessions(context.Background()); interaction.CodeOf(err) != interaction.CodeUnsupported {
		t.Fatalf("sessions: %v, want UNSUPPORTED", err)
	}
}

func TestMCPServerPassed(t *testing.T) {
	for _, tt := range []struct {
		name string
		http bool
		want string
	}{
		{"http", true, `[{"headers":[{"name":"Authorization","value":"Bearer tok"}],"name":"asktui","type":"http","url":"http://127.0.0.1:7341/mcp"}]`},
		{"stdio", false, `[{"args":["mcp","--socket","/run/a.sock"],"command":"/bin/asktui","env":[],"name":"asktui"}]`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			agent := &testAgent{caps: sdk.AgentCapabilities{McpCapabilities: sdk.McpCapabilities{Http: tt.http}}, newReq: make(chan sdk.NewSessionRequest, 1)}
			newRig(t, agent, Options{MCP: MCPServer{URL: "http://127.0.0.1:7341/mcp", Token: "tok", Command: "/bin/asktui", Args: []string{"mcp", "--socket", "/run/a.sock"}}}, "")
			req := <-agent.newReq
			b, _ := json.Marshal(req.McpServers)
			if string(b) != tt.want {
				t.Fatalf("mcpServers %s\nwant %s", b, tt.want)
			}
		})
	}
	agent := &testAgent{newReq: make(chan sdk.NewSessionRequest, 1)}
	newRig(t, agent, Options{}, "")
	if b, _ := json.Marshal((<-agent.newReq).McpServers); string(b) != "[]" {
		t.Fatalf("no server: %s, want []", b)
	}
}

func TestSetMode(t *testing.T) {
	agent := &testAgent{modes: &sdk.SessionModeState{CurrentModeId: "ask", AvailableModes: []sdk.SessionMode{{Id: "ask", Name: "Ask"}, {Id: "code", Name: "Code"}}}}
	r := newRig(t, agent, Options{}, "")
	if err := r.c.SetMode(context.Background(), "code"); err != nil || r.c.Info().Mode != "code" {
		t.Fatalf("SetMode: %v, mode %q", err, r.c.Info().Mode)
	}
	if err := r.c.SetMode(context.Background(), "yolo"); interaction.CodeOf(err) != interaction.CodeInvalidRequest {
		t.Fatalf("unknown mode: %v", err)
	}
}

func TestCloseEndsQuietly(t *testing.T) {
	r := newRig(t, &testAgent{}, Options{}, "")
	if err := r.c.Close(); err != nil {
		t.Fatal(err)
	}
	ended := r.sink.waitKind(t, conversation.EventEnded)
	if ended.Err != nil {
		t.Fatalf("Close ended with %v", ended.Err)
	}
	if err := r.c.Close(); err != nil {
		t.Fatal(err)
	}
	var e *interaction.Error
	_, err := r.c.Prompt(context.Background(), []conversation.PromptPart{{Text: "x"}})
	if !errors.As(err, &e) {
		t.Fatalf("Prompt after Close: %v", err)
	}
}

func TestCancelGivesUpOnAHungAgent(t *testing.T) {
	release, holding := make(chan struct{}), make(chan struct{})
	agent := &testAgent{prompt: func(ctx context.Context, a *testAgent, sid sdk.SessionId) (sdk.StopReason, error) {
		close(holding)
		<-release // deaf to session/cancel
		return sdk.StopReasonEndTurn, nil
	}}
	r := newRig(t, agent, Options{CancelGrace: 50 * time.Millisecond}, "")
	defer close(release)
	done := r.prompt("go")
	wait(t, holding)
	r.c.Cancel()
	res := wait(t, done)
	if res.err != nil || res.stop != conversation.StopCancelled {
		t.Fatalf("Prompt = %q, %v; want cancelled", res.stop, res.err)
	}
	if e := r.sink.waitKind(t, conversation.EventTurnEnded); e.Stop != conversation.StopCancelled {
		t.Fatalf("turn ended with %q", e.Stop)
	}
}

func TestCapabilitiesAdvertised(t *testing.T) {
	agent := &testAgent{init: make(chan sdk.InitializeRequest, 1)}
	newRig(t, agent, Options{Version: "1.2.3"}, "")
	req := <-agent.init
	b, _ := json.Marshal(req.ClientCapabilities)
	// Elicitation only: no file system, no terminals.
	if want := `{"auth":{},"elicitation":{"form":{},"url":{}},"fs":{}}`; string(b) != want {
		t.Fatalf("clientCapabilities %s\nwant %s", b, want)
	}
	if req.ClientInfo == nil || req.ClientInfo.Name != "asktui" || req.ClientInfo.Version != "1.2.3" {
		t.Fatalf("clientInfo %+v", req.ClientInfo)
	}
}

func TestPermissionBeforeItsToolCall(t *testing.T) {
	agent := &testAgent{prompt: func(ctx context.Context, a *testAgent, sid sdk.SessionId) (sdk.StopReason, error) {
		_, _ = a.conn.RequestPermission(ctx, sdk.RequestPermissionRequest{SessionId: sid,
			ToolCall: sdk.ToolCallUpdate{ToolCallId: "t9", Title: sdk.Ptr("Write notes.md"), Kind: sdk.Ptr(sdk.ToolKindEdit),
				Content: []sdk.ToolCallContent{sdk.ToolDiffContent("notes.md", "hello\n")}},
			Options: []sdk.PermissionOption{{Kind: sdk.PermissionOptionKindAllowOnce, Name: "Allow", OptionId: "a"}}})
		a.update(ctx, sid, sdk.UpdateToolCall("t9", sdk.WithUpdateStatus(sdk.ToolCallStatusCompleted)))
		return sdk.StopReasonEndTurn, nil
	}}
	r := newRig(t, agent, Options{}, "")
	done := r.prompt("go")
	call := r.human.Next(t)
	if d := call.Req.Questions[0].Detail; !strings.Contains(d, "+hello") {
		t.Fatalf("the diff is not in the question's detail:\n%s", d)
	}
	call.Answer(interaction.Answer{Answers: []interaction.AnswerItem{{ID: permissionID, Selected: []string{"Allow"}}}})
	wait(t, done)
	var last *conversation.ToolCall
	for _, e := range r.sink.all() {
		if e.Kind == conversation.EventToolCall {
			last = e.Tool
		}
	}
	if last == nil || last.Title != "Write notes.md" || last.Status != conversation.ToolCompleted || last.Kind != conversation.ToolEdit || len(last.Content) != 1 {
		t.Fatalf("merged tool call %+v", last)
	}
}

func TestPromptAttachesFiles(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "notes.md"), []byte("# Notes\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	parts := []conversation.PromptPart{{Text: "Summarise "}, {Path: "notes.md"}}
	for _, tt := range []struct {
		embed bool
		want  string
	}{
		{false, `[{"text":"Summarise ","type":"text"},{"name":"notes.md","type":"resource_link","uri":"file://` + dir + `/notes.md"}]`},
		{true, `[{"text":"Summarise ","type":"text"},{"resource":{"text":"# Notes\n","uri":"file://` + dir + `/notes.md"},"type":"resource"}]`},
	} {
		agent := &testAgent{asked: make(chan []sdk.ContentBlock, 1),
			caps: sdk.AgentCapabilities{PromptCapabilities: sdk.PromptCapabilities{EmbeddedContext: tt.embed}}}
		r := newRig(t, agent, Options{Cwd: dir}, "")
		if _, err := r.c.Prompt(context.Background(), parts); err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(<-agent.asked)
		if string(b) != tt.want {
			t.Errorf("embed %v: prompt %s\nwant %s", tt.embed, b, tt.want)
		}
	}
	r := newRig(t, &testAgent{}, Options{Cwd: dir}, "")
	if _, err := r.c.Prompt(context.Background(), []conversation.PromptPart{{Path: "missing.md"}}); interaction.CodeOf(err) != interaction.CodeInvalidRequest {
		t.Fatalf("a missing file: %v", err)
	}
}

// TestRefusedMCPServerIsLeftOut: an agent that refuses asktui's MCP
// server in session/new, as deepseek-harness does, gets a session
// without it, and the transcript says what that means.
func TestRefusedMCPServerIsLeftOut(t *testing.T) {
	for _, resume := range []string{"", "old"} {
		t.Run("resume="+resume, func(t *testing.T) {
			var seen [][]sdk.McpServer
			var mu sync.Mutex
			refuse := func(servers []sdk.McpServer) error {
				mu.Lock()
				defer mu.Unlock()
				seen = append(seen, servers)
				if len(servers) > 0 {
					// What the TypeScript SDK's RequestError.invalidParams(undefined, detail) sends.
					return &sdk.RequestError{Code: -32602, Message: "Invalid params: mcpServers is not supported in this MVP"}
				}
				return nil
			}
			agent := &testAgent{refuse: refuse, caps: sdk.AgentCapabilities{LoadSession: true}, title: "Deep Harness"}
			r := newRig(t, agent, Options{MCP: MCPServer{Command: "/bin/asktui", Args: []string{"mcp"}}}, resume)
			mu.Lock()
			if len(seen) != 2 || len(seen[0]) != 1 || len(seen[1]) != 0 {
				t.Fatalf("mcpServers sent: %v; want asktui's, then none", seen)
			}
			mu.Unlock()
			var notices []string
			for _, e := range r.sink.all() {
				if e.Kind == conversation.EventNotice {
					notices = append(notices, e.Text)
				}
			}
			// Named as the header names the agent, by its initialize,
			// not by the command that runs it (test-agent).
			if len(notices) != 2 || !strings.HasPrefix(notices[1], "Deep Harness refused asktui's MCP server (Invalid params: mcpServers is not supported in this MVP)") ||
				!strings.Contains(notices[1], "its own tools cannot ask through asktui") {
				t.Fatalf("notices %q", notices)
			}
		})
	}
	// Failures that are not about the MCP servers are not retried.
	if !refusesMCP(&sdk.RequestError{Code: -32603, Message: "Internal error", Data: "MCP server asktui failed to start"}) ||
		refusesMCP(sdk.NewAuthRequired(nil)) || refusesMCP(errors.New("mcp")) {
		t.Fatal("refusesMCP")
	}
}

// TestSessionIDShown: the transcript shows the session's id, and whether
// --resume=ID reopens it.
func TestSessionIDShown(t *testing.T) {
	r := newRig(t, &testAgent{caps: sdk.AgentCapabilities{LoadSession: true}}, Options{}, "")
	if e := r.sink.waitKind(t, conversation.EventNotice); e.Text != "session s1 · --resume=s1 reopens it" {
		t.Fatalf("notice %q", e.Text)
	}
	if got := noResume("gemini", sdk.AgentCapabilities{LoadSession: true}); !strings.Contains(got, "cannot list its past sessions") || !strings.Contains(got, "--resume=ID") {
		t.Fatalf("load without list: %q", got)
	}
	if got := noResume("claude", sdk.AgentCapabilities{LoadSession: true, SessionCapabilities: sdk.SessionCapabilities{List: &sdk.SessionListCapabilities{}}}); got != "" {
		t.Fatalf("load and list: %q", got)
	}
	_, err := r.c.sessions(context.Background())
	if interaction.CodeOf(err) != interaction.CodeUnsupported || !strings.Contains(err.Error(), "--resume=ID") {
		t.Fatalf("sessions of an agent that loads but cannot list: %v", err)
	}
}

// TestConversationTokenPassed: each conversation's asktui MCP server
// carries a token of its own (a header over HTTP, an environment variable
// for the stdio bridge), registered under the conversation's agent and
// forgotten when the conversation ends.
func TestConversationTokenPassed(t *testing.T) {
	for _, http := range []bool{true, false} {
		var mu sync.Mutex
		var registered []interaction.Agent
		forgotten := make(chan struct{})
		reg := func(a interaction.Agent) (string, func()) {
			mu.Lock()
			defer mu.Unlock()
			registered = append(registered, a)
			return "tok-1", func() { close(forgotten) }
		}
		agent := &testAgent{caps: sdk.AgentCapabilities{McpCapabilities: sdk.McpCapabilities{Http: http}}, newReq: make(chan sdk.NewSessionRequest, 1)}
		r := newRig(t, agent, Options{MCP: MCPServer{URL: "http://127.0.0.1:7341/mcp", Token: "tok", Command: "/bin/asktui", Args: []string{"mcp"}, //nolint:gosec // a test token, not a credential
			Register: reg, TokenHeader: "X-Asktui-Conversation", TokenEnv: "ASKTUI_CONVERSATION"}}, "")
		b, _ := json.Marshal((<-agent.newReq).McpServers)
		want := `[{"args":["mcp"],"command":"/bin/asktui","env":[{"name":"ASKTUI_CONVERSATION","value":"tok-1"}],"name":"asktui"}]`
		if http {
			want = `[{"headers":[{"name":"Authorization","value":"Bearer tok"},{"name":"X-Asktui-Conversation","value":"tok-1"}],"name":"asktui","type":"http","url":"http://127.0.0.1:7341/mcp"}]`
		}
		if string(b) != want {
			t.Fatalf("mcpServers %s\nwant %s", b, want)
		}
		mu.Lock()
		if len(registered) != 1 || registered[0] != (interaction.Agent{ID: "test", Name: "test-agent"}) {
			t.Fatalf("registered %+v, want the conversation's agent once", registered)
		}
		mu.Unlock()
		_ = r.c.Close()
		wait(t, forgotten)
	}
}
