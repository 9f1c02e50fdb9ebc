// Package mcp is asktui's MCP endpoint: a streamable-HTTP MCP server with
// one tool, ask_user_question, that puts an agent's questions to the human
// through an [Asker] (in asktui, the *interaction.Service behind the inbox).
//
// It owns the protocol side only: tool schema and description, decoding of
// the model's arguments, turning answers and coded failures into tool
// results, keepalive comments and progress notifications while the human
// thinks, re-attaching a re-issued call to its question, withdrawing
// questions whose caller went away, and the HTTP layer (http.go: bearer
// token, Origin and Host checks, body cap, timeouts, connection caps,
// session expiry; the SDK keeps its own Host check). Listening, token
// storage and the UI belong to the caller.
package mcp

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/asktui/asktui/interaction"
)

// Asker puts a request to the human. *interaction.Service satisfies it. Ask
// must return promptly once ctx ends: that is how a withdrawn call takes its
// questions off the screen.
type Asker interface {
	Ask(ctx context.Context, req interaction.Request) (interaction.Answer, error)
}

// Defaults for [Options].
const (
	// DefaultProgressInterval is how often a waiting call sends a progress
	// notification. It is well under the shortest common client idle
	// timeout (Codex: 60 s).
	DefaultProgressInterval = 15 * time.Second
	// DefaultMaxBodyBytes caps an HTTP request body: the one request
	// limit of every front end, interaction.MaxRequestBytes (64 MiB),
	// plus room for the JSON-RPC envelope.
	DefaultMaxBodyBytes = interaction.MaxRequestBytes + bodySlack
)

// Options configures a [Server]. The zero value serves without
// authentication and with the defaults above.
type Options struct {
	// Token, when non-empty, is the bearer token every HTTP request must
	// carry as "Authorization: Bearer <token>". It is compared in constant
	// time and never logged.
	Token string
	// ProgressInterval is how often a waiting call with a progress token
	// sends notifications/progress. Zero means DefaultProgressInterval; a
	// negative value sends none.
	ProgressInterval time.Duration
	// MaxBodyBytes caps each request body; a call over it gets a coded
	// INVALID_REQUEST tool error. Zero means DefaultMaxBodyBytes.
	MaxBodyBytes int64
	// SessionTimeout closes a session that has had no HTTP request in
	// flight (no waiting call, no open stream) for this long. Zero keeps
	// sessions until the client deletes them or the server closes.
	SessionTimeout time.Duration
	// Hosts, when set, are the only host names a request's Host header
	// may carry (with any port); others get 403. The SDK's own check
	// covers loopback connections only.
	Hosts []string
	// MaxConns and MaxUnauthConns cap the connections of
	// [Server.HTTPServer]: all of them, and those that have not yet sent
	// an authorised request. Zero means DefaultMaxConns and
	// DefaultMaxUnauthConns.
	MaxConns, MaxUnauthConns int
	// ReadHeaderTimeout, ReadTimeout and IdleTimeout are those of
	// [Server.HTTPServer]. Zero means DefaultReadHeaderTimeout,
	// DefaultReadTimeout and DefaultIdleTimeout.
	ReadHeaderTimeout, ReadTimeout, IdleTimeout time.Duration
	// TrustedOrigins are browser origins, such as "http://localhost:6274"
	// for the MCP Inspector's web UI, allowed past the Origin check.
	TrustedOrigins []string
	// KeepaliveInterval is how often a waiting call writes an SSE comment
	// on its stream, independent of progress tokens. Zero means
	// DefaultKeepaliveInterval; a negative value writes none.
	KeepaliveInterval time.Duration
	// ReattachGrace is how long a question stays on screen after its
	// caller's connection dropped, for the same client to issue the same
	// call again and find it (with its draft). Zero means
	// DefaultReattachGrace; a negative value withdraws at once.
	ReattachGrace time.Duration
	// Version is reported in the server's initialize info.
	Version string
	// Logger receives the SDK's log records; nil discards them.
	Logger *slog.Logger
	// Identify, when set, names the asker of a call whose HTTP request
	// carries a token in [ConversationHeader] (asktui run gives each
	// conversation's agent its own): the agent it returns, with ok, asks
	// instead of the client's name. An unknown token changes nothing.
	Identify func(token string) (agent interaction.Agent, ok bool)

	hooks testHooks
}

// Server is asktui's MCP server. Mount [Server.Handler] on a path such as
// "/mcp" and call [Server.Close] when done.
type Server struct {
	asker    Asker
	reporter interaction.ActivitySink // nil when the asker shows no activity
	opts     Options
	sdk      *sdk.Server
	handler  http.Handler

	mu     sync.Mutex
	closed bool
	calls  map[string]map[*call]struct{} // in-flight calls by session ID
	posts  map[string]*livePost          // live POST requests by marker
	ended  map[string]struct{}           // sessions deleted but not yet closed
	uses   map[string]*sessionUse        // what keeps each session alive (http.go)
	conns  *connLimiter
	wg     sync.WaitGroup // session watchers

	tools toolState // the calls' streams and the questions they wait for (reattach.go)
}

// call is one in-flight tool call.
type call struct {
	cancel context.CancelCauseFunc
}

// livePost is one live HTTP POST. done is closed when its handler has
// returned, which the SDK does only once it has written the results of
// the calls the POST carries (or the client has gone).
type livePost struct {
	ctx  context.Context
	done chan struct{}
}

// closeGrace bounds how long Close waits for live POSTs to deliver the
// results of the calls it withdrew.
const closeGrace = 2 * time.Second

// postHeader carries a per-POST marker from the HTTP wrapper to the tool
// handler, which sees the POST's headers but not its context. The wrapper
// overwrites any value a client sends.
const postHeader = "X-Asktui-Post"

// ConversationHeader carries the token that ties an MCP client to the
// conversation it belongs to (see [Options.Identify]).
const ConversationHeader = "X-Asktui-Conversation"

// sessionHeader is the streamable transport's session header.
const sessionHeader = "Mcp-Session-Id"

// NewServer returns a server that asks through asker. When asker also
// implements [interaction.ActivitySink] (as *interaction.Service does), the
// server reports sessions connecting and disconnecting. It fails only for a
// malformed trusted origin.
func NewServer(asker Asker, opts Options) (*Server, error) {
	if opts.ProgressInterval == 0 {
		opts.ProgressInterval = DefaultProgressInterval
	}
	if opts.KeepaliveInterval == 0 {
		opts.KeepaliveInterval = DefaultKeepaliveInterval
	}
	if opts.ReattachGrace == 0 {
		opts.ReattachGrace = DefaultReattachGrace
	}
	if opts.MaxBodyBytes <= 0 {
		opts.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if opts.Version == "" {
		opts.Version = "dev"
	}
	if opts.MaxConns <= 0 {
		opts.MaxConns = DefaultMaxConns
	}
	if opts.MaxUnauthConns <= 0 {
		opts.MaxUnauthConns = DefaultMaxUnauthConns
	}
	if opts.ReadHeaderTimeout <= 0 {
		opts.ReadHeaderTimeout = DefaultReadHeaderTimeout
	}
	if opts.ReadTimeout <= 0 {
		opts.ReadTimeout = DefaultReadTimeout
	}
	if opts.IdleTimeout <= 0 {
		opts.IdleTimeout = DefaultIdleTimeout
	}
	s := &Server{
		asker: asker,
		opts:  opts,
		calls: make(map[string]map[*call]struct{}),
		posts: make(map[string]*livePost),
		ended: make(map[string]struct{}),
		uses:  make(map[string]*sessionUse),
		conns: newConnLimiter(opts.MaxConns, opts.MaxUnauthConns),
	}
	if r, ok := asker.(interaction.ActivitySink); ok {
		s.reporter = r
	}

	s.sdk = sdk.NewServer(&sdk.Implementation{Name: "asktui", Title: "asktui", Version: opts.Version},
		&sdk.ServerOptions{
			Instructions: "asktui connects you to the human at the asktui inbox. When a decision is theirs, " +
				"call " + ToolName + " with all related questions at once and wait for the answers.",
			Logger:             opts.Logger,
			InitializedHandler: s.initialized,
			Capabilities:       &sdk.ServerCapabilities{}, // no logging; tools are inferred
		})
	in, out := schemas()
	s.sdk.AddTool(&sdk.Tool{
		Name:         ToolName,
		Title:        "Ask the user",
		Description:  toolDescription,
		InputSchema:  in,
		OutputSchema: out,
		Annotations: &sdk.ToolAnnotations{
			Title:         "Ask the user",
			ReadOnlyHint:  true,
			OpenWorldHint: new(false),
		},
	}, s.handleAsk)

	streamable := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s.sdk },
		&sdk.StreamableHTTPOptions{
			Logger:              opts.Logger,
			MaxRequestBodyBytes: opts.MaxBodyBytes, // readBody answers first
			// Sessions expire in expire (http.go), which also counts
			// open streams.
			// DNS-rebinding protection (a non-loopback Host on a loopback
			// connection gets 403) stays on: DisableLocalhostProtection is
			// left false.
		})
	var err error
	if s.handler, err = s.wrapHTTP(s.track(s.route(streamable))); err != nil {
		return nil, err
	}
	return s, nil
}

// Handler returns the HTTP handler serving streamable MCP. It answers at
// whatever path the caller mounts it on.
//
// Requests pass, in order: the Origin check (a cross-site browser request
// gets 403), the Host check (Options.Hosts), the bearer token (401 with
// WWW-Authenticate), the body cap (a coded error), and the SDK's Host
// check (403 for a non-loopback Host arriving on a loopback address).
// Every 401 and 403 closes the connection. See http.go.
func (s *Server) Handler() http.Handler { return s.handler }

// Close withdraws every waiting question, lets the live POSTs deliver the
// results (for at most closeGrace), closes every session and waits for the
// session watchers to finish. The handler refuses nothing afterwards, but
// new sessions are neither watched nor reported; close the HTTP server
// first.
func (s *Server) Close() error {
	s.stopExpiry()
	s.mu.Lock()
	s.closed = true
	for _, calls := range s.calls {
		for c := range calls {
			c.cancel(interaction.Errorf(interaction.CodeAborted, "the asktui MCP server is shutting down"))
		}
	}
	posts := make([]*livePost, 0, len(s.posts))
	for _, p := range s.posts {
		posts = append(posts, p)
	}
	s.mu.Unlock()
	// A closing session drops every result not yet written, and a call
	// that just ended (withdrawn here, or failed because the UI is gone)
	// may not have written its own: wait for the POSTs carrying them.
	grace := time.After(closeGrace)
wait:
	for _, p := range posts {
		select {
		case <-p.done:
		case <-grace:
			break wait
		}
	}
	s.tools.closeAsks(interaction.Errorf(interaction.CodeAborted, "the asktui MCP server is shutting down"))
	for ss := range s.sdk.Sessions() {
		_ = ss.Close() // a session that fails to close is over all the same
	}
	s.wg.Wait()
	return nil
}

// track does what the SDK leaves undone in stateful mode: a DELETE of a
// session withdraws its calls before the SDK closes the session (which
// waits for them), and each POST is marked so that a call can end when the
// POST carrying it is abandoned.
func (s *Server) track(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.Method {
		case http.MethodDelete:
			if id := r.Header.Get(sessionHeader); id != "" {
				s.endSession(id, interaction.Errorf(interaction.CodeAborted,
					"the MCP client ended its session before the human answered"))
			}
		case http.MethodPost:
			marker := rand.Text()
			r.Header.Set(postHeader, marker)
			p := &livePost{ctx: r.Context(), done: make(chan struct{})}
			s.mu.Lock()
			s.posts[marker] = p
			s.mu.Unlock()
			defer func() {
				s.mu.Lock()
				delete(s.posts, marker)
				s.mu.Unlock()
				close(p.done)
			}()
		}
		next.ServeHTTP(w, r)
	})
}

// endSession withdraws the calls of the session with the given ID, and
// refuses its later calls until the session closes.
func (s *Server) endSession(id string, cause error) {
	known := false
	for ss := range s.sdk.Sessions() {
		if ss.ID() == id {
			known = true
			break
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if known {
		s.ended[id] = struct{}{}
	}
	for c := range s.calls[id] {
		c.cancel(cause)
	}
}

// initialized reports the new session and watches for its end.
func (s *Server) initialized(_ context.Context, req *sdk.InitializedRequest) {
	ss := req.Session
	agent := agentFor(ss.ID(), clientName(ss), "")
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.wg.Add(1)
	s.mu.Unlock()
	s.report(interaction.Activity{Agent: agent, Kind: interaction.ActivityConnected})
	go func() {
		defer s.wg.Done()
		_ = ss.Wait() // however the session ended, its calls end with it
		s.endSession(ss.ID(), interaction.Errorf(interaction.CodeAborted, "the MCP session closed before the human answered"))
		s.mu.Lock()
		delete(s.ended, ss.ID())
		s.mu.Unlock()
		s.forgetSession(ss.ID())
		s.report(interaction.Activity{Agent: agent, Kind: interaction.ActivityDisconnected})
	}()
}

func (s *Server) report(a interaction.Activity) {
	if s.reporter != nil {
		s.reporter.Report(a)
	}
}

// clientName is the client's name from its initialize info, or "".
func clientName(ss *sdk.ServerSession) string {
	if p := ss.InitializeParams(); p != nil && p.ClientInfo != nil {
		return p.ClientInfo.Name
	}
	return ""
}

// callerName is the name of the client making req: from the request's
// _meta under 2026-07-28, else from the session's initialize, as
// req.ClientInfo has it. The name is read straight out of the _meta the
// SDK has decoded already: ClientInfo would encode that entry and decode
// it again, with a fresh 32 KiB decoder buffer on every call.
func callerName(req *sdk.CallToolRequest) string {
	if m := req.Params.GetMeta(); m != nil {
		if info, ok := m[sdk.MetaKeyClientInfo].(map[string]any); ok {
			name, _ := info["name"].(string)
			return name
		}
	}
	if info := req.ClientInfo(); info != nil {
		return info.Name
	}
	return ""
}

// handleAsk serves ask_user_question. Every failure is a tool error whose
// text is "CODE: message", so the model can read and act on it.
func (s *Server) handleAsk(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
	ireq, subAgent, err := decodeArguments(req.Params.Arguments)
	if err != nil {
		return toolError(err), nil
	}
	ss := req.Session
	agent := agentFor(ss.ID(), callerName(req), subAgent)
	if a, ok := s.identify(req.Extra); ok {
		agent = a
		if subAgent != "" {
			agent.Name = fmt.Sprintf("%s › %s", a.DisplayName(), clip(subAgent, maxNameBytes))
		}
	}
	ireq.Agent = &agent

	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	w := s.streamFor(req.Extra)
	defer s.register(ss.ID(), &call{cancel: cancel})()
	defer s.watchPOST(req.Extra, cancel)()
	b := s.beats(w, req, cancel)
	defer b.end()

	ans, err := s.ask(ctx, ireq, w, b)
	if err != nil {
		return toolError(err), nil
	}
	data, err := ans.MarshalJSON()
	if err != nil {
		return toolError(interaction.WrapError(interaction.CodeInternal, err, "encoding the answer: %v", err)), nil
	}
	return &sdk.CallToolResult{
		Content:           []sdk.Content{&sdk.TextContent{Text: string(data)}},
		StructuredContent: json.RawMessage(data),
	}, nil
}

// identify is the agent the call's conversation token names, if any.
func (s *Server) identify(extra *sdk.RequestExtra) (interaction.Agent, bool) {
	if s.opts.Identify == nil || extra == nil || extra.Header == nil {
		return interaction.Agent{}, false
	}
	token := extra.Header.Get(ConversationHeader)
	if token == "" {
		return interaction.Agent{}, false
	}
	return s.opts.Identify(token)
}

// register tracks c under its session and returns the function that
// forgets it. A call on a session already deleted, or on a closed server,
// is withdrawn at once.
func (s *Server) register(sessionID string, c *call) (unregister func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch _, ended := s.ended[sessionID]; {
	case s.closed:
		c.cancel(interaction.Errorf(interaction.CodeAborted, "the asktui MCP server is shutting down"))
	case ended:
		c.cancel(interaction.Errorf(interaction.CodeAborted, "the MCP client ended its session before the human answered"))
	}
	if s.calls[sessionID] == nil {
		s.calls[sessionID] = make(map[*call]struct{})
	}
	s.calls[sessionID][c] = struct{}{}
	return func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		delete(s.calls[sessionID], c)
		if len(s.calls[sessionID]) == 0 {
			delete(s.calls, sessionID)
		}
	}
}

// watchPOST withdraws the call when the HTTP POST that carries it ends
// first: without an event store the SDK could never deliver the result,
// yet in stateful mode it leaves the handler running.
func (s *Server) watchPOST(extra *sdk.RequestExtra, cancel context.CancelCauseFunc) (stop func()) {
	if extra == nil || extra.Header == nil {
		return func() {}
	}
	marker := extra.Header.Get(postHeader)
	if marker == "" {
		return func() {}
	}
	cause := disconnected()
	s.mu.Lock()
	p, live := s.posts[marker]
	s.mu.Unlock()
	if !live {
		cancel(cause)
		return func() {}
	}
	stopAfter := context.AfterFunc(p.ctx, func() { cancel(cause) })
	return func() { stopAfter() }
}

// toolError is the tool result for a failure: IsError with "CODE:
// message" and what the model should do about it, as the agent is told
// (interaction.Error.ForAgent: a decline's message is written for a
// person, the advice not to ask again is the model's).
func toolError(err error) *sdk.CallToolResult {
	env := interaction.NewErrorEnvelope(err)
	return &sdk.CallToolResult{
		IsError: true,
		Content: []sdk.Content{&sdk.TextContent{Text: env.Error.ForAgent()}},
	}
}

// RunStdio serves one MCP client over standard input and output (the
// transport of clients that only launch stdio servers) until the client
// goes away or ctx ends. Auth and origin checks do not apply: the client
// started this process.
func (s *Server) RunStdio(ctx context.Context) error {
	return s.sdk.Run(ctx, &sdk.StdioTransport{})
}

// Run serves one MCP client over t until the client goes away or ctx
// ends; RunStdio is Run with the stdio transport. Tests use in-memory
// transports.
func (s *Server) Run(ctx context.Context, t sdk.Transport) error {
	return s.sdk.Run(ctx, t)
}
