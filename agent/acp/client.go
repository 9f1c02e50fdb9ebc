package acp

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"unicode/utf8"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/interaction/conversation"
)

// maxInput bounds a tool call's raw input kept for display.
const maxInput = 64 << 10

// maxTerminal bounds a terminal's output kept for display: its end.
const maxTerminal = 256 << 10

// maxToolText bounds each piece of a tool call's content kept for
// display: a text, a command's output, each side of a diff. What is
// longer is cut, and the cut says how much went.
const maxToolText = 256 << 10

// HandleExtensionMethod takes the guard's marks; every other extension
// method is unknown. A mark is handled once everything before it has
// reached the sink and, when the sink is a conversation.Pacer, once the
// sink keeps up: until then the guard reads no further than the next
// mark, so an agent that sends faster than the screen takes waits for it.
func (c *session) HandleExtensionMethod(ctx context.Context, method string, params json.RawMessage) (any, error) {
	if method != markMethod {
		return nil, sdk.NewMethodNotFound(method)
	}
	var p struct {
		N uint64 `json:"n"`
	}
	if json.Unmarshal(params, &p) == nil {
		if pacer, ok := c.sink.(conversation.Pacer); ok {
			pacer.Pace(ctx)
		}
		c.guard.marked(p.N)
	}
	return nil, nil
}

// SessionUpdate turns the agent's session/update notifications into
// events. Kinds asktui does not show are ignored.
func (c *session) SessionUpdate(_ context.Context, n sdk.SessionNotification) error {
	u := n.Update
	switch {
	case u.UserMessageChunk != nil:
		c.emit(conversation.Event{Kind: conversation.EventUserChunk, Text: blockText(u.UserMessageChunk.Content), MessageID: deref(u.UserMessageChunk.MessageId)})
	case u.AgentMessageChunk != nil:
		c.emit(conversation.Event{Kind: conversation.EventMessageChunk, Text: blockText(u.AgentMessageChunk.Content), MessageID: deref(u.AgentMessageChunk.MessageId)})
	case u.AgentThoughtChunk != nil:
		c.emit(conversation.Event{Kind: conversation.EventThoughtChunk, Text: blockText(u.AgentThoughtChunk.Content), MessageID: deref(u.AgentThoughtChunk.MessageId)})
	case u.ToolCall != nil:
		t := u.ToolCall
		c.mergeTool(sdk.ToolCallUpdate{
			ToolCallId: t.ToolCallId, Title: &t.Title, Kind: &t.Kind, Status: &t.Status,
			Locations: t.Locations, RawInput: t.RawInput, Content: t.Content, Meta: t.Meta,
		}, true)
	case u.ToolCallUpdate != nil:
		t := u.ToolCallUpdate
		c.mergeTool(sdk.ToolCallUpdate{
			ToolCallId: t.ToolCallId, Title: t.Title, Kind: t.Kind, Status: t.Status,
			Locations: t.Locations, RawInput: t.RawInput, Content: t.Content, Meta: t.Meta,
		}, true)
	case u.Plan != nil:
		plan := make([]conversation.PlanEntry, 0, len(u.Plan.Entries))
		for _, e := range u.Plan.Entries {
			plan = append(plan, conversation.PlanEntry{Content: e.Content, Priority: string(e.Priority), Status: string(e.Status)})
		}
		c.emit(conversation.Event{Kind: conversation.EventPlan, Plan: plan})
	case u.AvailableCommandsUpdate != nil:
		cmds := make([]conversation.Command, 0, len(u.AvailableCommandsUpdate.AvailableCommands))
		for _, ac := range u.AvailableCommandsUpdate.AvailableCommands {
			cmd := conversation.Command{Name: clip(ac.Name, 256), Description: clip(ac.Description, 1024)}
			if ac.Input != nil && ac.Input.Unstructured != nil {
				cmd.Hint = clip(ac.Input.Unstructured.Hint, 256)
			}
			cmds = append(cmds, cmd)
		}
		c.mu.Lock()
		c.info.Commands = cmds
		c.mu.Unlock()
		c.emit(conversation.Event{Kind: conversation.EventInfo, Info: c.infoPtr()})
	case u.CurrentModeUpdate != nil:
		c.mu.Lock()
		c.info.Mode = string(u.CurrentModeUpdate.CurrentModeId)
		c.mu.Unlock()
		c.emit(conversation.Event{Kind: conversation.EventInfo, Info: c.infoPtr()})
	case u.SessionInfoUpdate != nil:
		if u.SessionInfoUpdate.Title == nil {
			return nil
		}
		c.mu.Lock()
		c.info.Title = clip(*u.SessionInfoUpdate.Title, 256)
		c.mu.Unlock()
		c.emit(conversation.Event{Kind: conversation.EventInfo, Info: c.infoPtr()})
	case u.UsageUpdate != nil:
		us := &conversation.Usage{Used: u.UsageUpdate.Used, Size: u.UsageUpdate.Size}
		if cost := u.UsageUpdate.Cost; cost != nil {
			us.Cost, us.Currency = cost.Amount, clip(cost.Currency, 16)
		}
		c.emit(conversation.Event{Kind: conversation.EventUsage, Usage: us})
	}
	return nil
}

// mergeTool folds what is known of a tool call into its state, whichever
// of tool_call, tool_call_update and the permission request came first,
// and reports the whole state when report is set. It returns the state.
func (c *session) mergeTool(u sdk.ToolCallUpdate, report bool) conversation.ToolCall {
	id := string(u.ToolCallId)
	c.mu.Lock()
	t, ok := c.tools[id]
	if !ok {
		t = &conversation.ToolCall{ID: id, Kind: conversation.ToolOther, Status: conversation.ToolPending}
		c.tools[id] = t
	}
	if u.Title != nil && *u.Title != "" {
		t.Title = clip(*u.Title, 4096)
	}
	if u.Kind != nil && *u.Kind != "" {
		t.Kind = conversation.ToolKind(*u.Kind)
	}
	if u.Status != nil && *u.Status != "" {
		t.Status = conversation.ToolStatus(*u.Status)
	}
	if u.Locations != nil {
		t.Locations = t.Locations[:0]
		for _, l := range u.Locations {
			loc := conversation.Location{Path: l.Path}
			if l.Line != nil && *l.Line > 0 {
				loc.Line = *l.Line
			}
			t.Locations = append(t.Locations, loc)
		}
	}
	if u.RawInput != nil {
		if b, err := json.Marshal(u.RawInput); err == nil {
			t.Input = clip(string(b), maxInput)
		}
	}
	if u.Content != nil {
		t.Content = c.toolContent(u.Content)
	}
	c.terminalMeta(t, u.Meta)
	state := *t
	state.Locations = slices.Clone(t.Locations)
	state.Content = slices.Clone(t.Content)
	for i, tc := range state.Content {
		if tc.Terminal != nil {
			term := *tc.Terminal
			if term.Command == "" {
				term.Command = commandOf(t.Input)
			}
			state.Content[i].Terminal = &term
		}
	}
	c.mu.Unlock()
	if report {
		s := state
		c.emit(conversation.Event{Kind: conversation.EventToolCall, Tool: &s})
	}
	return state
}

// toolContent converts a tool call's content. A terminal's entry is the
// terminal's record, which its output fills in; c.mu is held.
func (c *session) toolContent(in []sdk.ToolCallContent) []conversation.ToolContent {
	out := make([]conversation.ToolContent, 0, len(in))
	for _, tc := range in {
		switch {
		case tc.Content != nil:
			out = append(out, conversation.ToolContent{Text: clipTool(blockText(tc.Content.Content))})
		case tc.Diff != nil:
			d := &conversation.Diff{Path: clip(tc.Diff.Path, 4096), New: clipTool(tc.Diff.NewText)}
			if tc.Diff.OldText != nil {
				old := clipTool(*tc.Diff.OldText)
				d.Old = &old
			}
			out = append(out, conversation.ToolContent{Diff: d})
		case tc.Terminal != nil:
			out = append(out, conversation.ToolContent{Terminal: c.terminal(tc.Terminal.TerminalId)})
		}
	}
	return out
}

// terminal is the record of the terminal with the given id; c.mu is held.
func (c *session) terminal(id string) *conversation.TerminalOutput {
	term, ok := c.terms[id]
	if !ok {
		term = &conversation.TerminalOutput{}
		c.terms[id] = term
	}
	return term
}

// terminalMeta takes a command's output and exit from the _meta of a tool
// call's update, where codex-acp sends them to a client without terminals
// (terminal_output_delta, or Zed's terminal_output; terminal_exit): asktui
// runs no terminals, but shows what it is sent. Output for a terminal the
// call's content does not show adds it. c.mu is held.
func (c *session) terminalMeta(t *conversation.ToolCall, meta map[string]any) {
	if len(meta) == 0 {
		return
	}
	touched := map[string]bool{}
	for _, key := range []string{"terminal_info", "terminal_output", "terminal_output_delta", "terminal_exit"} {
		m, _ := meta[key].(map[string]any)
		id, _ := m["terminal_id"].(string)
		if id == "" {
			continue
		}
		term := c.terminal(id)
		touched[id] = true
		switch key {
		case "terminal_output", "terminal_output_delta":
			if data, _ := m["data"].(string); data != "" {
				term.Output = tail(term.Output+data, maxTerminal)
			}
		case "terminal_exit":
			term.Exited = true
			if code, ok := m["exit_code"].(float64); ok {
				term.ExitCode = int(code)
			}
		}
	}
	for id := range touched {
		if !slices.ContainsFunc(t.Content, func(tc conversation.ToolContent) bool { return tc.Terminal == c.terms[id] }) {
			t.Content = append(t.Content, conversation.ToolContent{Terminal: c.terms[id]})
		}
	}
}

// tail is the end of s, at most n bytes, cut at a rune.
func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := len(s) - n
	for cut < len(s) && !utf8.RuneStart(s[cut]) {
		cut++
	}
	return s[cut:]
}

// blockText is the text of a content block, or a word for what it is.
func blockText(b sdk.ContentBlock) string {
	switch {
	case b.Text != nil:
		return b.Text.Text
	case b.ResourceLink != nil:
		return "@" + b.ResourceLink.Name
	case b.Resource != nil:
		if r := b.Resource.Resource.TextResourceContents; r != nil {
			return "@" + r.Uri
		}
		return "[resource]"
	case b.Image != nil:
		return "[image]"
	case b.Audio != nil:
		return "[audio]"
	}
	return ""
}

// clipTool cuts a piece of tool content at maxToolText, saying so.
func clipTool(s string) string {
	if len(s) <= maxToolText {
		return s
	}
	return clip(s, maxToolText) + fmt.Sprintf("\n… %d more bytes not shown", len(s)-len(clip(s, maxToolText)))
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// The client does not offer the file system or terminals: the agent uses
// its own tools. These answer "method not found", as the capabilities say.

// ReadTextFile is not offered.
func (c *session) ReadTextFile(context.Context, sdk.ReadTextFileRequest) (sdk.ReadTextFileResponse, error) {
	return sdk.ReadTextFileResponse{}, sdk.NewMethodNotFound(sdk.ClientMethodFsReadTextFile)
}

// WriteTextFile is not offered.
func (c *session) WriteTextFile(context.Context, sdk.WriteTextFileRequest) (sdk.WriteTextFileResponse, error) {
	return sdk.WriteTextFileResponse{}, sdk.NewMethodNotFound(sdk.ClientMethodFsWriteTextFile)
}

// CreateTerminal is not offered.
func (c *session) CreateTerminal(context.Context, sdk.CreateTerminalRequest) (sdk.CreateTerminalResponse, error) {
	return sdk.CreateTerminalResponse{}, sdk.NewMethodNotFound(sdk.ClientMethodTerminalCreate)
}

// KillTerminal is not offered.
func (c *session) KillTerminal(context.Context, sdk.KillTerminalRequest) (sdk.KillTerminalResponse, error) {
	return sdk.KillTerminalResponse{}, sdk.NewMethodNotFound(sdk.ClientMethodTerminalKill)
}

// TerminalOutput is not offered.
func (c *session) TerminalOutput(context.Context, sdk.TerminalOutputRequest) (sdk.TerminalOutputResponse, error) {
	return sdk.TerminalOutputResponse{}, sdk.NewMethodNotFound(sdk.ClientMethodTerminalOutput)
}

// ReleaseTerminal is not offered.
func (c *session) ReleaseTerminal(context.Context, sdk.ReleaseTerminalRequest) (sdk.ReleaseTerminalResponse, error) {
	return sdk.ReleaseTerminalResponse{}, sdk.NewMethodNotFound(sdk.ClientMethodTerminalRelease)
}

// WaitForTerminalExit is not offered.
func (c *session) WaitForTerminalExit(context.Context, sdk.WaitForTerminalExitRequest) (sdk.WaitForTerminalExitResponse, error) {
	return sdk.WaitForTerminalExitResponse{}, sdk.NewMethodNotFound(sdk.ClientMethodTerminalWaitForExit)
}

// UnstableConnectMcp is not offered.
func (c *session) UnstableConnectMcp(context.Context, sdk.UnstableConnectMcpRequest) (sdk.UnstableConnectMcpResponse, error) {
	return sdk.UnstableConnectMcpResponse{}, sdk.NewMethodNotFound(sdk.ClientMethodMcpConnect)
}

// UnstableDisconnectMcp is not offered.
func (c *session) UnstableDisconnectMcp(context.Context, sdk.UnstableDisconnectMcpRequest) (sdk.UnstableDisconnectMcpResponse, error) {
	return sdk.UnstableDisconnectMcpResponse{}, sdk.NewMethodNotFound(sdk.ClientMethodMcpDisconnect)
}

// askCtx is the lifetime of one of the agent's questions: the request's
// own (the agent can withdraw it), the turn's (Cancel withdraws it) and the
// conversation's.
func (c *session) askCtx(req context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancelCause(req)
	c.mu.Lock()
	parent := c.life
	if c.turn != nil {
		parent = c.turn.ctx
	}
	c.mu.Unlock()
	stop := context.AfterFunc(parent, func() { cancel(context.Cause(parent)) })
	return ctx, func() {
		stop()
		cancel(nil)
	}
}

// agent is the conversation as the asker of a request.
func (c *session) agent() *interaction.Agent {
	c.mu.Lock()
	defer c.mu.Unlock()
	a := c.info.Agent
	return &a
}
