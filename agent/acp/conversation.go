package acp

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/interaction/conversation"
)

// maxEmbed is the largest file embedded in a prompt; bigger files, and
// files that are not text, are passed as links.
const maxEmbed = 1 << 20

// maxPages bounds how many pages of session/list are read.
const maxPages = 20

// errTurnCancelled and errTurnEnded withdraw the questions of a turn
// that was cancelled, or ended with questions still open.
var (
	errTurnCancelled = interaction.Errorf(interaction.CodeAborted, "the turn was cancelled")
	errTurnEnded     = interaction.Errorf(interaction.CodeAborted, "the agent ended its turn without waiting for the answer")
)

// conversation is one ACP session with one agent process. It implements
// conversation.Conversation, and it is the SDK's acp.Client: the agent's
// requests and notifications arrive on its methods.
type session struct {
	opts  Options
	id    string
	name  string
	sink  conversation.Sink
	conn  *sdk.ClientSideConnection
	proc  agentProc
	stdin io.Closer
	guard *guard

	life   context.Context // ends when the conversation does
	endLif context.CancelCauseFunc
	done   chan struct{} // closed when the conversation has ended

	mu      sync.Mutex
	info    conversation.Info
	caps    sdk.AgentCapabilities
	tools   map[string]*conversation.ToolCall
	terms   map[string]*conversation.TerminalOutput // what the agent sent of its commands' terminals, by id
	turn    *turn
	closing bool
	ended   bool
	endErr  error
	urls    map[string]context.CancelFunc // open URL elicitations by id
	mcpNote string                        // why the agent may not load asktui's MCP server
	note    string                        // what to know of the agent when its session starts
	token   string                        // ties asktui's MCP server to this conversation
	forget  func()                        // drops the token

	emitMu    sync.Mutex
	started   bool // EventStarted went out: a conversation that never started sends nothing
	sinkEnded bool

	closeOnce sync.Once
}

// turn is a prompt in progress.
type turn struct {
	ctx       context.Context // the turn's questions
	cancel    context.CancelCauseFunc
	stop      context.CancelFunc // gives up on the prompt request
	cancelled bool
	done      chan struct{}
}

var (
	_ conversation.Conversation = (*session)(nil)
	_ sdk.Client                = (*session)(nil)
	_ sdk.ClientExperimental    = (*session)(nil)
)

// newConversation connects to an agent that reads from stdin and writes
// to stdout; proc is the agent itself.
func newConversation(opts Options, id, name string, sink conversation.Sink, stdout io.Reader, stdin io.WriteCloser, proc agentProc) *session {
	if sink == nil {
		sink = discard{}
	}
	c := &session{
		opts: opts, id: id, name: name, sink: sink, proc: proc, stdin: stdin,
		done: make(chan struct{}), tools: map[string]*conversation.ToolCall{}, urls: map[string]context.CancelFunc{},
		terms: map[string]*conversation.TerminalOutput{},
	}
	c.life, c.endLif = context.WithCancelCause(context.Background())
	c.info = conversation.Info{ID: id, Agent: interaction.Agent{ID: id, Name: name}, Cwd: opts.Cwd, Attach: conversation.AttachLink}
	pr, pw := io.Pipe()
	stop := make(chan struct{})
	c.guard = newGuard(stdout, pw, stop)
	c.conn = sdk.NewClientSideConnection(c, answersWriter{stdin}, pr)
	c.conn.SetLogger(opts.Logger)
	guarded := make(chan error, 1)
	go func() {
		err := c.guard.run()
		if cl, ok := stdout.(io.Closer); ok {
			_ = cl.Close() // read to its end (or given up on)
		}
		guarded <- err
	}()
	go func() {
		<-c.conn.Done()
		close(stop)
	}()
	go c.watch(guarded)
	return c
}

// watch ends the conversation when the agent's output ends: with the
// guard's protocol error, or with how the agent exited.
func (c *session) watch(guarded <-chan error) {
	err := <-guarded
	if err != nil {
		c.proc.kill()
	}
	select {
	case <-c.proc.exited():
	case <-time.After(closeWait):
		// The agent closed its output but lives on: it cannot talk any more.
		c.proc.kill()
		<-c.proc.exited()
	}
	c.mu.Lock()
	closing := c.closing
	c.mu.Unlock()
	if err == nil && !closing {
		err = c.exitError()
	}
	if err != nil {
		err = c.withStderr(err)
	}
	c.finish(err)
}

// exitError words how the agent ended on its own.
func (c *session) exitError() error {
	if e := c.proc.exitErr(); e != nil {
		return interaction.WrapError(interaction.CodeAgentExited, e, "%s exited: %v", c.name, e)
	}
	return interaction.Errorf(interaction.CodeAgentExited, "%s exited", c.name)
}

// withStderr adds the tail of the agent's standard error to err.
func (c *session) withStderr(err error) error {
	tail := c.proc.stderrTail()
	var e *interaction.Error
	if tail == "" || !errors.As(err, &e) {
		return err
	}
	// The last line first, for a screen with room for one; the rest after.
	lines := strings.Split(tail, "\n")
	msg := e.Message + "; it said: " + strings.TrimSpace(lines[len(lines)-1])
	if len(lines) > 1 {
		msg += "\n\nThe end of its standard error:\n" + tail
	}
	return &interaction.Error{Code: e.Code, Message: msg, Err: e.Err}
}

// finish ends the conversation once: open questions are withdrawn, a turn
// in progress ends, and EventEnded is the last event.
func (c *session) finish(err error) {
	c.mu.Lock()
	if c.ended {
		c.mu.Unlock()
		return
	}
	c.ended, c.endErr = true, err
	t, forget := c.turn, c.forget
	c.mu.Unlock()
	if forget != nil {
		forget()
	}
	cause := err
	if cause == nil {
		cause = interaction.Errorf(interaction.CodeAborted, "the conversation ended")
	}
	c.endLif(cause)
	if t != nil {
		stop := conversation.StopCancelled
		if err != nil {
			stop = ""
		}
		c.emit(conversation.Event{Kind: conversation.EventTurnEnded, Stop: stop, Err: err})
	}
	c.emit(conversation.Event{Kind: conversation.EventEnded, Err: err})
	c.emitMu.Lock()
	c.sinkEnded = true
	c.emitMu.Unlock()
	close(c.done)
}

// emit hands an event to the sink, in order, from EventStarted until the
// conversation ended. An agent that fails to start is the caller's error
// of Start alone, not a conversation.
func (c *session) emit(e conversation.Event) {
	e.Conversation = c.id
	if e.Time.IsZero() {
		e.Time = time.Now()
	}
	c.emitMu.Lock()
	defer c.emitMu.Unlock()
	if e.Kind == conversation.EventStarted {
		c.started = true
	}
	if c.started && !c.sinkEnded {
		c.sink.ConversationEvent(e)
	}
}

// initialize says hello and learns what the agent can do.
func (c *session) initialize(ctx context.Context) error {
	start := time.Now()
	ctx, cancel := context.WithTimeout(ctx, c.opts.StartTimeout)
	defer cancel()
	resp, err := c.conn.Initialize(ctx, sdk.InitializeRequest{
		ProtocolVersion: sdk.ProtocolVersionNumber,
		ClientCapabilities: sdk.ClientCapabilities{
			Elicitation: &sdk.ElicitationCapabilities{Form: &sdk.ElicitationFormCapabilities{}, Url: &sdk.ElicitationUrlCapabilities{}},
		},
		ClientInfo: &sdk.Implementation{Name: "asktui", Title: sdk.Ptr("asktui"), Version: c.opts.Version},
	})
	if err != nil {
		return c.callError(ctx, "initialize", start, err)
	}
	if resp.ProtocolVersion != sdk.ProtocolVersionNumber {
		return interaction.Errorf(interaction.CodeAgentProtocol,
			"%s speaks ACP version %d; asktui speaks version %d", c.name, resp.ProtocolVersion, sdk.ProtocolVersionNumber)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.caps = resp.AgentCapabilities
	if resp.AgentCapabilities.PromptCapabilities.EmbeddedContext {
		c.info.Attach = conversation.AttachEmbed
	}
	if ai := resp.AgentInfo; ai != nil {
		name := ai.Name
		if ai.Title != nil && strings.TrimSpace(*ai.Title) != "" {
			name = *ai.Title
		}
		if name = clip(strings.TrimSpace(name), 64); name != "" {
			c.info.Agent.Name = name
		}
	}
	return nil
}

// callError words a failed request to the agent.
func (c *session) callError(ctx context.Context, method string, since time.Time, err error) error {
	select {
	case <-c.conn.Done():
		// The agent is gone: say why, once the conversation knows.
		<-c.done
		c.mu.Lock()
		defer c.mu.Unlock()
		if c.endErr != nil {
			return c.endErr
		}
		return interaction.Errorf(interaction.CodeAgentExited, "%s ended during %s", c.name, method)
	default:
	}
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return interaction.Errorf(interaction.CodeAgentProtocol, "%s did not answer %s within %s", c.name, method, time.Since(since).Round(100*time.Millisecond))
	}
	if ctx.Err() != nil {
		return interaction.WrapError(interaction.CodeAborted, ctx.Err(), "%s: %s was abandoned: %v", c.name, method, ctx.Err())
	}
	var re *sdk.RequestError
	if errors.As(err, &re) {
		if re.Code == -32000 {
			return interaction.WrapError(interaction.CodeAgentAuth, err,
				"%s needs you to sign in first: run it once on its own and sign in, then try again", c.name)
		}
		if re.Code == -32601 {
			return interaction.WrapError(interaction.CodeUnsupported, err, "%s does not support %s", c.name, method)
		}
		return interaction.WrapError(interaction.CodeAgentProtocol, err, "%s failed %s: %s", c.name, method, requestErrorText(re))
	}
	return interaction.WrapError(interaction.CodeAgentProtocol, err, "%s failed %s: %v", c.name, method, err)
}

// requestErrorText is a JSON-RPC error's message and details.
func requestErrorText(re *sdk.RequestError) string {
	s := re.Message
	if re.Data != nil {
		if b, err := json.Marshal(re.Data); err == nil && string(b) != "null" {
			s += " " + clip(string(b), 1024)
		}
	}
	return s
}

// mcpServers is asktui's MCP server as the agent can take it, with the
// conversation's token; never nil.
func (c *session) mcpServers() []sdk.McpServer {
	m := c.opts.MCP
	c.mu.Lock()
	token, caps := c.token, c.caps
	c.mu.Unlock()
	switch {
	case m.URL != "" && caps.McpCapabilities.Http:
		headers := []sdk.HttpHeader{}
		if m.Token != "" {
			headers = append(headers, sdk.HttpHeader{Name: "Authorization", Value: "Bearer " + m.Token})
		}
		if token != "" && m.TokenHeader != "" {
			headers = append(headers, sdk.HttpHeader{Name: m.TokenHeader, Value: token})
		}
		return []sdk.McpServer{{Http: &sdk.McpServerHttpInline{Name: "asktui", Type: "http", Url: m.URL, Headers: headers}}}
	case m.Command != "":
		args := slices.Clone(m.Args)
		if args == nil {
			args = []string{}
		}
		env := []sdk.EnvVariable{}
		if token != "" && m.TokenEnv != "" {
			env = append(env, sdk.EnvVariable{Name: m.TokenEnv, Value: token})
		}
		return []sdk.McpServer{{Stdio: &sdk.McpServerStdio{Name: "asktui", Command: m.Command, Args: args, Env: env}}}
	}
	return []sdk.McpServer{}
}

// register gives the conversation its token for asktui's MCP server,
// once.
func (c *session) register() {
	reg := c.opts.MCP.Register
	if reg == nil {
		return
	}
	c.mu.Lock()
	if c.token != "" || c.ended {
		c.mu.Unlock()
		return
	}
	agent := c.info.Agent
	c.mu.Unlock()
	token, forget := reg(agent)
	c.mu.Lock()
	c.token, c.forget = token, forget
	c.mu.Unlock()
}

// open starts a new session, or resumes session resume. An agent that
// refuses asktui's MCP server is asked again without it, and the
// transcript says so.
func (c *session) open(ctx context.Context, resume string) error {
	start := time.Now()
	ctx, cancel := context.WithTimeout(ctx, c.opts.SessionTimeout)
	defer cancel()
	c.mu.Lock()
	caps := c.caps
	c.mu.Unlock()
	c.register()
	servers := c.mcpServers()
	var refused error // why the agent refused asktui's MCP server
	if resume == "" {
		resp, err := c.conn.NewSession(ctx, sdk.NewSessionRequest{Cwd: c.opts.Cwd, McpServers: servers})
		if err != nil && len(servers) > 0 && refusesMCP(err) {
			refused = err
			resp, err = c.conn.NewSession(ctx, sdk.NewSessionRequest{Cwd: c.opts.Cwd, McpServers: []sdk.McpServer{}})
		}
		if err != nil {
			return c.callError(ctx, "session/new", start, err)
		}
		c.setSession(string(resp.SessionId), resp.Modes)
		c.emit(conversation.Event{Kind: conversation.EventStarted, Info: c.infoPtr()})
		c.startNotices(false, refused)
		return nil
	}
	if !resumable(caps) {
		return interaction.Errorf(interaction.CodeUnsupported,
			"%s cannot resume sessions (it supports neither session/load nor session/resume); start a new one", c.name)
	}
	// The history replays as updates during session/load: the
	// conversation is started before they come.
	c.setSession(resume, nil)
	c.emit(conversation.Event{Kind: conversation.EventStarted, Info: c.infoPtr()})
	modes, err := c.reopen(ctx, caps, resume, servers)
	if err != nil && len(servers) > 0 && refusesMCP(err) {
		refused = err
		modes, err = c.reopen(ctx, caps, resume, []sdk.McpServer{})
	}
	if err != nil {
		method := "session/load"
		if !caps.LoadSession {
			method = "session/resume"
		}
		return c.callError(ctx, method, start, err)
	}
	if modes != nil {
		c.setSession(resume, modes)
		c.emit(conversation.Event{Kind: conversation.EventInfo, Info: c.infoPtr()})
	}
	c.startNotices(true, refused)
	return nil
}

// reopen loads or resumes session id.
func (c *session) reopen(ctx context.Context, caps sdk.AgentCapabilities, id string, servers []sdk.McpServer) (*sdk.SessionModeState, error) {
	if caps.LoadSession {
		resp, err := c.conn.LoadSession(ctx, sdk.LoadSessionRequest{Cwd: c.opts.Cwd, McpServers: servers, SessionId: sdk.SessionId(id)})
		return resp.Modes, err
	}
	resp, err := c.conn.ResumeSession(ctx, sdk.ResumeSessionRequest{Cwd: c.opts.Cwd, McpServers: servers, SessionId: sdk.SessionId(id)})
	return resp.Modes, err
}

// resumable reports whether an agent can reopen a session by its id.
func resumable(caps sdk.AgentCapabilities) bool {
	return caps.LoadSession || caps.SessionCapabilities.Resume != nil
}

// refusesMCP reports whether the agent's error for session/new (or load)
// is about the MCP servers it was given: invalid params, or words about
// MCP. deepseek-harness refuses any ("mcpServers is not supported in this
// MVP").
func refusesMCP(err error) bool {
	var re *sdk.RequestError
	if !errors.As(err, &re) || re.Code == -32000 || re.Code == -32601 {
		return false
	}
	return re.Code == -32602 || strings.Contains(strings.ToLower(requestErrorText(re)), "mcp")
}

// startNotices tell the transcript the session's id and how to reopen
// it (when it can be), and what became of asktui's MCP server.
func (c *session) startNotices(resumed bool, refused error) {
	c.mu.Lock()
	// The agent as the header names it: its own name from initialize,
	// else the command's.
	id, caps, name := c.info.Session, c.caps, c.info.Agent.Name
	c.mu.Unlock()
	// A session that cannot be reopened goes unnamed: its id means
	// nothing to the human, and that it cannot be resumed is said where
	// resuming is offered (the agent picker, --resume).
	switch {
	case id == "":
	case resumed:
		c.emit(conversation.Event{Kind: conversation.EventNotice, Text: clip("resumed session "+id, 1024)})
	case resumable(caps):
		c.emit(conversation.Event{Kind: conversation.EventNotice, Text: clip("session "+id+" · --resume="+id+" reopens it", 1024)})
	}
	if refused != nil {
		why := refused.Error()
		var re *sdk.RequestError
		if errors.As(refused, &re) {
			why = requestErrorText(re)
		}
		c.opts.Logger.Info("the agent refused asktui's MCP server; its session runs without it", "agent", c.name, "error", why)
		c.emit(conversation.Event{Kind: conversation.EventNotice, Text: name + " refused asktui's MCP server (" + clip(why, 256) +
			"), so it runs without it: its own tools cannot ask through asktui's ask_user_question. " +
			"Its permission requests and questions still come here."})
	}
	if c.mcpNote != "" && refused == nil && len(c.mcpServers()) > 0 {
		c.emit(conversation.Event{Kind: conversation.EventNotice, Text: c.mcpNote})
	}
	if c.note != "" {
		c.emit(conversation.Event{Kind: conversation.EventNotice, Text: c.note})
	}
}

// setSession records the session's id and modes.
func (c *session) setSession(id string, modes *sdk.SessionModeState) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.info.Session = id
	if modes != nil {
		c.info.Modes = nil
		for _, m := range modes.AvailableModes {
			md := conversation.Mode{ID: string(m.Id), Name: clip(m.Name, 256)}
			if m.Description != nil {
				md.Description = clip(*m.Description, 1024)
			}
			c.info.Modes = append(c.info.Modes, md)
		}
		c.info.Mode = string(modes.CurrentModeId)
	}
}

// infoPtr is a copy of the info, for an event.
func (c *session) infoPtr() *conversation.Info {
	c.mu.Lock()
	defer c.mu.Unlock()
	info := c.info
	info.Modes = slices.Clone(info.Modes)
	info.Commands = slices.Clone(info.Commands)
	return &info
}

// sessions lists the agent's past sessions, newest first.
func (c *session) sessions(ctx context.Context) ([]conversation.PastSession, error) {
	c.mu.Lock()
	caps := c.caps
	c.mu.Unlock()
	if caps.SessionCapabilities.List == nil {
		if resumable(caps) {
			return nil, interaction.Errorf(interaction.CodeUnsupported,
				"%s cannot list its past sessions; reopen one by its id with --resume=ID (the transcript shows a session's id when it starts)", c.name)
		}
		return nil, interaction.Errorf(interaction.CodeUnsupported, "%s cannot list or resume its past sessions", c.name)
	}
	start := time.Now()
	ctx, cancel := context.WithTimeout(ctx, c.opts.SessionTimeout)
	defer cancel()
	out := []conversation.PastSession{}
	var cursor *string
	for range maxPages {
		resp, err := c.conn.ListSessions(ctx, sdk.ListSessionsRequest{Cwd: sdk.Ptr(c.opts.Cwd), Cursor: cursor})
		if err != nil {
			return nil, c.callError(ctx, "session/list", start, err)
		}
		for _, s := range resp.Sessions {
			p := conversation.PastSession{Session: string(s.SessionId), Cwd: s.Cwd}
			if s.Title != nil {
				p.Title = clip(*s.Title, 256)
			}
			if s.UpdatedAt != nil {
				p.Updated, _ = time.Parse(time.RFC3339, *s.UpdatedAt)
			}
			out = append(out, p)
		}
		if resp.NextCursor == nil || *resp.NextCursor == "" {
			break
		}
		cursor = resp.NextCursor
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Updated.After(out[j].Updated) })
	return out, nil
}

// Info describes the conversation as it stands.
func (c *session) Info() conversation.Info { return *c.infoPtr() }

// Prompt sends the prompt and waits for the turn to end.
func (c *session) Prompt(ctx context.Context, parts []conversation.PromptPart) (conversation.StopReason, error) {
	blocks, err := c.promptBlocks(parts)
	if err != nil {
		return "", err
	}
	c.mu.Lock()
	if c.ended {
		err := c.endErr
		c.mu.Unlock()
		if err == nil {
			err = interaction.Errorf(interaction.CodeAgentExited, "%s has ended", c.name)
		}
		return "", err
	}
	if c.turn != nil {
		c.mu.Unlock()
		return "", interaction.Errorf(interaction.CodeBusy, "%s is still working on the last prompt: wait, or cancel it", c.name)
	}
	t := &turn{done: make(chan struct{})}
	t.ctx, t.cancel = context.WithCancelCause(c.life)
	pctx, stop := context.WithCancel(ctx)
	t.stop = stop
	start := time.Now()
	c.turn = t
	session := c.info.Session
	c.mu.Unlock()

	resp, err := c.conn.Prompt(pctx, sdk.PromptRequest{SessionId: sdk.SessionId(session), Prompt: blocks})
	c.mu.Lock()
	c.turn = nil
	cancelled := t.cancelled
	c.mu.Unlock()
	t.cancel(errTurnEnded)
	stop()
	close(t.done)

	stopReason := conversation.StopReason(resp.StopReason)
	switch {
	case err == nil:
	case cancelled:
		stopReason, err = conversation.StopCancelled, nil
	default:
		select {
		case <-c.conn.Done():
			<-c.done
			c.mu.Lock()
			err = c.endErr
			c.mu.Unlock()
			if err == nil {
				err = interaction.Errorf(interaction.CodeAgentExited, "%s has ended", c.name)
			}
			return "", err // the conversation's end reported the turn's
		default:
		}
		err = c.callError(ctx, "session/prompt", start, err)
		stopReason = ""
	}
	if stopReason == "" && err == nil {
		stopReason = conversation.StopEndTurn
	}
	c.emit(conversation.Event{Kind: conversation.EventTurnEnded, Stop: stopReason, Err: err})
	return stopReason, err
}

// promptBlocks turns the prompt's parts into content blocks: text as is,
// files as links or embedded, as the agent accepts them.
func (c *session) promptBlocks(parts []conversation.PromptPart) ([]sdk.ContentBlock, error) {
	c.mu.Lock()
	embed := c.info.Attach == conversation.AttachEmbed
	c.mu.Unlock()
	blocks := make([]sdk.ContentBlock, 0, len(parts))
	for _, p := range parts {
		if p.Path == "" {
			if p.Text != "" {
				blocks = append(blocks, sdk.TextBlock(p.Text))
			}
			continue
		}
		path := p.Path
		if !filepath.IsAbs(path) {
			path = filepath.Join(c.opts.Cwd, path)
		}
		st, err := os.Stat(path)
		if err != nil {
			return nil, interaction.WrapError(interaction.CodeInvalidRequest, err, "cannot attach %s: %v", p.Path, err)
		}
		uri := "file://" + filepath.ToSlash(path)
		if embed && st.Mode().IsRegular() && st.Size() <= maxEmbed {
			if data, err := os.ReadFile(path); err == nil && utf8.Valid(data) { //nolint:gosec // the agent asked for this file through fs/read_text_file, which the conversation allows
				blocks = append(blocks, sdk.ResourceBlock(sdk.EmbeddedResourceResource{
					TextResourceContents: &sdk.TextResourceContents{Uri: uri, Text: string(data)},
				}))
				continue
			}
		}
		blocks = append(blocks, sdk.ResourceLinkBlock(filepath.Base(path), uri))
	}
	if len(blocks) == 0 {
		return nil, interaction.Errorf(interaction.CodeInvalidRequest, "the prompt is empty: write something to send")
	}
	return blocks, nil
}

// Cancel sends session/cancel, withdraws the turn's open questions (they
// answer cancelled), and waits for the agent to end the turn, at most
// CancelGrace; then it stops waiting for the agent.
func (c *session) Cancel() {
	c.mu.Lock()
	t := c.turn
	if t == nil {
		c.mu.Unlock()
		return
	}
	t.cancelled = true
	session := c.info.Session
	c.mu.Unlock()
	t.cancel(errTurnCancelled)
	_ = c.conn.Cancel(context.Background(), sdk.CancelNotification{SessionId: sdk.SessionId(session)})
	timer := time.NewTimer(c.opts.CancelGrace)
	defer timer.Stop()
	select {
	case <-t.done:
	case <-timer.C:
		t.stop()
		<-t.done
	}
}

// SetMode switches the agent's mode.
func (c *session) SetMode(ctx context.Context, id string) error {
	c.mu.Lock()
	session := c.info.Session
	known := slices.ContainsFunc(c.info.Modes, func(m conversation.Mode) bool { return m.ID == id })
	c.mu.Unlock()
	if !known {
		return interaction.Errorf(interaction.CodeInvalidRequest, "%s has no mode %q", c.name, id)
	}
	start := time.Now()
	if _, err := c.conn.SetSessionMode(ctx, sdk.SetSessionModeRequest{SessionId: sdk.SessionId(session), ModeId: sdk.SessionModeId(id)}); err != nil {
		return c.callError(ctx, "session/set_mode", start, err)
	}
	c.mu.Lock()
	c.info.Mode = id
	c.mu.Unlock()
	c.emit(conversation.Event{Kind: conversation.EventInfo, Info: c.infoPtr()})
	return nil
}

// Close ends the conversation: the agent's input closes, and after
// closeWait its process group is killed. It waits for the end.
func (c *session) Close() error {
	c.closeOnce.Do(func() {
		c.mu.Lock()
		c.closing = true
		c.mu.Unlock()
		_ = c.stdin.Close()
		timer := time.NewTimer(closeWait)
		defer timer.Stop()
		select {
		case <-c.proc.exited():
		case <-timer.C:
		}
		c.proc.kill()
		<-c.done
	})
	return nil
}

// clip makes s valid UTF-8 of at most n bytes.
func clip(s string, n int) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut]
}
