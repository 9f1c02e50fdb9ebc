package mcp

import (
	"container/list"
	"context"
	"crypto/subtle"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/internal/jsonl"
)

// The HTTP layer: everything between the socket and the SDK's streamable
// handler. It is built so that a client without the token costs the
// server little and briefly, and a client with it is never cut while it
// waits for the human:
//
//   - a request is read under ReadHeaderTimeout and ReadTimeout; once it
//     has been read, net/http lifts the read deadline, so a response (an
//     SSE stream) may last as long as the human thinks;
//   - every 401 and 403 closes the connection;
//   - connections are capped (MaxConns), and so are those that have not
//     yet sent an authorised request (MaxUnauthConns: past a short grace,
//     the oldest goes when a new one comes);
//   - a POST body is decoded as it is read, before the SDK sees it; one
//     over MaxBodyBytes, or a call over a request's limits, is answered
//     with a coded error in JSON-RPC as soon as that is seen (body.go);
//   - a session with no request in flight for SessionTimeout is closed.

// Defaults of the HTTP layer; see [Options].
const (
	// DefaultMaxConns caps the connections served at once. A waiting call
	// holds one connection, and each session may hold a standalone
	// stream: this allows 2,000 sessions each with a question waiting.
	DefaultMaxConns = 4096
	// DefaultMaxUnauthConns caps the connections that have not yet sent
	// an authorised request.
	DefaultMaxUnauthConns = 64
	// DefaultReadHeaderTimeout bounds reading a request's headers (and a
	// TLS handshake).
	DefaultReadHeaderTimeout = 10 * time.Second
	// DefaultReadTimeout bounds reading a whole request, body included.
	DefaultReadTimeout = time.Minute
	// DefaultIdleTimeout closes a keep-alive connection idle this long.
	DefaultIdleTimeout = time.Minute
)

// bodySlack is what a JSON-RPC envelope may add around the tool's
// arguments: the HTTP body cap is the request limit plus this.
const bodySlack = 1 << 20

// oversizeScan bounds how much of a refused body is read, in multiples of
// the cap: to find its JSON-RPC id, and so that a client still sending
// gets the answer. Past it, the request gets a plain 413.
const oversizeScan = 2

// HTTPServer returns an *http.Server that serves h (a mux with
// [Server.Handler] on it) with the timeouts and connection caps of the
// HTTP layer ([Options]). Serve it with Serve or ServeTLS; it sets no
// WriteTimeout, since a waiting call's response lasts as long as the
// human takes. Every MCP server asktui runs over HTTP is one of these.
func (s *Server) HTTPServer(h http.Handler) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: s.opts.ReadHeaderTimeout,
		ReadTimeout:       s.opts.ReadTimeout,
		IdleTimeout:       s.opts.IdleTimeout,
		ConnContext:       s.conns.connContext,
		ConnState:         s.conns.connState,
	}
}

// WellKnownHandler answers the OAuth discovery paths
// (/.well-known/oauth-protected-resource and
// /.well-known/oauth-authorization-server, with or without a path
// suffix) with a JSON error that tells an OAuth-capable client to send
// the static bearer token instead. Mount it on "/.well-known/".
func (s *Server) WellKnownHandler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := r.URL.Path
		if !strings.HasPrefix(p, "/.well-known/oauth-protected-resource") &&
			!strings.HasPrefix(p, "/.well-known/oauth-authorization-server") &&
			!strings.HasPrefix(p, "/.well-known/openid-configuration") {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "no-store")
		w.WriteHeader(http.StatusNotFound)
		// jsonl leaves "<token>" as it is: encoding/json would write
		// \u003ctoken\u003e, which is what a person reads in a client's log.
		_ = jsonl.Write(w, map[string]string{
			"error": "invalid_request",
			"error_description": "asktui does not support OAuth: configure the client with a static bearer token, " +
				`sent as "Authorization: Bearer <token>" (asktui serve --print-config prints the setup)`,
		})
	})
}

// wrapHTTP puts the HTTP layer around the SDK's handler (next): the
// Origin check, the Host check, the bearer token, the body, and session
// expiry.
func (s *Server) wrapHTTP(next http.Handler) (http.Handler, error) {
	cop := http.NewCrossOriginProtection()
	for _, o := range s.opts.TrustedOrigins {
		if err := cop.AddTrustedOrigin(o); err != nil {
			return nil, fmt.Errorf("trusted origin %q: %w", o, err)
		}
	}
	cop.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		refuse(w, http.StatusForbidden, "Forbidden: cross-origin request")
	}))
	return cop.Handler(s.checkHost(s.authorize(s.readBody(s.expire(next))))), nil
}

// refuse answers with status and closes the connection, so that a refused
// client holds nothing. The read deadline passes at once: the server
// would otherwise wait to discard a body the client may never finish.
func refuse(w http.ResponseWriter, status int, msg string) {
	_ = http.NewResponseController(w).SetReadDeadline(time.Now())
	w.Header().Set("Connection", "close")
	http.Error(w, msg, status)
}

// checkHost refuses a request whose Host names none of Options.Hosts
// (any port). The SDK's own check still refuses a non-loopback Host on a
// loopback connection.
func (s *Server) checkHost(next http.Handler) http.Handler {
	if len(s.opts.Hosts) == 0 {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host := r.Host
		if h, _, err := net.SplitHostPort(host); err == nil {
			host = h
		}
		host = strings.TrimSuffix(strings.Trim(host, "[]"), ".")
		for _, want := range s.opts.Hosts {
			if strings.EqualFold(host, want) {
				next.ServeHTTP(w, r)
				return
			}
		}
		refuse(w, http.StatusForbidden, fmt.Sprintf("Forbidden: invalid Host header %q", r.Host))
	})
}

// authorize requires the bearer token when one is set, and marks the
// connection authorised when the request passes.
//
// A request without the token gets the bare challenge; one with a wrong
// token gets error="invalid_token" (RFC 6750, section 3.1).
func (s *Server) authorize(next http.Handler) http.Handler {
	want := []byte(s.opts.Token)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if len(want) > 0 {
			header := r.Header.Get("Authorization")
			scheme, token, ok := strings.Cut(header, " ")
			if !ok || !strings.EqualFold(scheme, "Bearer") ||
				subtle.ConstantTimeCompare([]byte(strings.TrimSpace(token)), want) != 1 {
				challenge := `Bearer realm="asktui"`
				msg := `Unauthorized: send the asktui token as "Authorization: Bearer <token>"`
				if header != "" {
					challenge += `, error="invalid_token", error_description="the token is not asktui's"`
					msg = `Unauthorized: the token is wrong; send the asktui token as "Authorization: Bearer <token>"`
				}
				w.Header().Set("WWW-Authenticate", challenge)
				refuse(w, http.StatusUnauthorized, msg)
				return
			}
		}
		s.conns.authorised(r.Context())
		next.ServeHTTP(w, r)
	})
}

// readBody reads an authorised POST's body within the read deadline,
// decoding it as it comes (body.go), and hands the SDK what it read.
// (Once a request has been read, net/http lifts the deadline itself, so
// the response, an SSE stream that lasts as long as the human takes, is
// never cut by it: TestWaitingCallOutlivesReadTimeout.)
//
// A body over MaxBodyBytes, or a call with more questions or options, or
// longer strings, than a request may have, gets instead a coded
// INVALID_REQUEST in JSON-RPC: a tool error for tools/call, an error
// response for any other request. A body that is not JSON gets a 400.
func (s *Server) readBody(next http.Handler) http.Handler {
	limit := s.opts.MaxBodyBytes
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.Body == nil || !isJSON(r.Header.Get("Content-Type")) {
			// The SDK refuses other content, reading at most the cap.
			next.ServeHTTP(w, r)
			return
		}
		kept, size, env, oversize, err := readMessage(r.Body, limit)
		switch {
		case kept != nil:
			r.Body, r.ContentLength = kept, int64(size)
			next.ServeHTTP(w, r)
		case env.problem != nil:
			answerRefused(w, env, env.problem, http.StatusBadRequest)
		case oversize:
			answerRefused(w, env, interaction.Errorf(interaction.CodeInvalidRequest,
				"the request is over %d bytes, the limit of one request (%d MiB of questions); send fewer or shorter questions and options",
				limit, interaction.MaxRequestBytes>>20), http.StatusRequestEntityTooLarge)
		default:
			refuse(w, http.StatusBadRequest, "Bad Request: the body is not a JSON-RPC message: "+err.Error())
		}
	})
}

// isJSON reports whether a Content-Type names JSON.
func isJSON(contentType string) bool {
	mt, _, _ := strings.Cut(contentType, ";")
	return strings.EqualFold(strings.TrimSpace(mt), "application/json")
}

// answerRefused answers a message that broke a limit with the coded
// error cause, in JSON-RPC when the message had an id (a tool error for
// tools/call, so the model reads it), and otherwise (a notification, a
// batch, an id never found) with status and the message.
func answerRefused(w http.ResponseWriter, env envelope, cause *interaction.Error, status int) {
	msg := interaction.NewErrorEnvelope(cause).Error.ForAgent()
	if env.batch || len(env.id) == 0 || string(env.id) == "null" {
		refuse(w, status, http.StatusText(status)+": "+msg)
		return
	}
	resp := map[string]any{"jsonrpc": "2.0", "id": env.id}
	if env.method == "tools/call" {
		resp["result"] = &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: msg}}}
	} else {
		resp["error"] = map[string]any{"code": -32600, "message": msg}
	}
	w.Header().Set("Content-Type", "application/json")
	_ = jsonl.Write(w, resp)
}

// sessionUse is what keeps a session alive: the requests of it in flight
// (a waiting call's POST, the client's standalone stream).
type sessionUse struct {
	live  int
	timer *time.Timer // runs while live is 0
}

// expire closes a session once it has had no request in flight for
// SessionTimeout. Clients that leave without a DELETE (the TypeScript
// SDK's close(), Claude Code on exit and in `claude mcp list`, Gemini's
// health check) would otherwise leave their sessions, and the inbox's
// agents, behind for good. A waiting call keeps its POST, and a live
// client its standalone stream, open: neither expires.
func (s *Server) expire(next http.Handler) http.Handler {
	if s.opts.SessionTimeout <= 0 {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := r.Header.Get(sessionHeader)
		if id != "" && r.Method != http.MethodDelete {
			s.useSession(id)
			defer s.releaseSession(id)
		}
		next.ServeHTTP(w, r)
		if id == "" {
			// An initialize: the SDK named the new session in the response.
			if id = w.Header().Get(sessionHeader); id != "" {
				s.useSession(id)
				s.releaseSession(id)
			}
		}
	})
}

func (s *Server) useSession(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	u := s.uses[id]
	if u == nil {
		u = &sessionUse{}
		s.uses[id] = u
	}
	u.live++
	if u.timer != nil {
		u.timer.Stop()
		u.timer = nil
	}
}

func (s *Server) releaseSession(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	u := s.uses[id]
	if u == nil {
		return
	}
	if u.live--; u.live > 0 || s.closed {
		return
	}
	u.timer = time.AfterFunc(s.opts.SessionTimeout, func() { s.expireSession(id, u) })
}

// expireSession closes the session with the given ID unless it came back
// to life since its timer started.
func (s *Server) expireSession(id string, u *sessionUse) {
	s.mu.Lock()
	if s.uses[id] != u || u.live > 0 || s.closed {
		s.mu.Unlock()
		return
	}
	delete(s.uses, id)
	s.mu.Unlock()
	for ss := range s.sdk.Sessions() {
		if ss.ID() == id {
			_ = ss.Close() // the session watcher reports it gone
			return
		}
	}
}

// forgetSession drops what expire knows of a session that ended.
func (s *Server) forgetSession(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if u := s.uses[id]; u != nil {
		if u.timer != nil {
			u.timer.Stop()
		}
		delete(s.uses, id)
	}
}

// stopExpiry stops every session timer; the server is closing.
func (s *Server) stopExpiry() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for id, u := range s.uses {
		if u.timer != nil {
			u.timer.Stop()
		}
		delete(s.uses, id)
	}
}

// connLimiter caps the connections of the HTTP server: all of them, and
// those that have not yet sent an authorised request.
//
// A connection without the token is closed, oldest first, once more than
// maxUnauth of them are open and it is older than grace: a burst of new
// clients (a thousand calls at once) is not cut off before its requests
// have been read, while a flood of idle connections holds at most
// maxUnauth of them past the grace. When all max connections are taken,
// the oldest without the token makes room for a new one, whatever its
// age: only clients with the token can fill the server.
type connLimiter struct {
	max, maxUnauth int
	grace          time.Duration
	now            func() time.Time

	mu     sync.Mutex
	conns  map[net.Conn]*connInfo
	unauth list.List // *connInfo not yet authorised, oldest first
}

// connInfo is one connection; fields are guarded by the limiter's mu.
type connInfo struct {
	conn    net.Conn
	arrived time.Time
	unauth  *list.Element // in the limiter's unauth list; nil once authorised
	gone    bool          // closed by the limiter, or ended
}

type connKey struct{}

// unauthGrace is how long a new connection may take to send its first
// request before the cap on connections without the token applies to it.
const unauthGrace = 2 * time.Second

func newConnLimiter(maxConns, maxUnauth int) *connLimiter {
	return &connLimiter{max: maxConns, maxUnauth: maxUnauth, grace: unauthGrace, now: time.Now, conns: make(map[net.Conn]*connInfo)}
}

// connContext registers a new connection, closing it at once when the
// server is full, and hands its info to the requests it carries.
func (l *connLimiter) connContext(ctx context.Context, c net.Conn) context.Context {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	info := &connInfo{conn: c, arrived: now}
	ctx = context.WithValue(ctx, connKey{}, info)
	for l.unauth.Len() >= l.maxUnauth {
		oldest := l.unauth.Front().Value.(*connInfo)
		if now.Sub(oldest.arrived) < l.grace {
			break
		}
		l.dropLocked(oldest)
		_ = oldest.conn.Close()
	}
	if len(l.conns) >= l.max && l.unauth.Len() > 0 {
		// Full: a connection without the token makes room, however young.
		oldest := l.unauth.Front().Value.(*connInfo)
		l.dropLocked(oldest)
		_ = oldest.conn.Close()
	}
	if len(l.conns) >= l.max {
		info.gone = true // full of clients with the token
		_ = c.Close()
		return ctx
	}
	l.conns[c] = info
	info.unauth = l.unauth.PushBack(info)
	return ctx
}

func (l *connLimiter) dropLocked(ci *connInfo) {
	if ci.gone {
		return
	}
	ci.gone = true
	delete(l.conns, ci.conn)
	if ci.unauth != nil {
		l.unauth.Remove(ci.unauth)
		ci.unauth = nil
	}
}

// connState forgets connections that ended.
func (l *connLimiter) connState(c net.Conn, st http.ConnState) {
	if st != http.StateClosed && st != http.StateHijacked {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if ci := l.conns[c]; ci != nil {
		l.dropLocked(ci)
	}
}

// authorised marks the connection of a request that passed the token
// check.
func (l *connLimiter) authorised(ctx context.Context) {
	ci, _ := ctx.Value(connKey{}).(*connInfo)
	if ci == nil {
		return // not served by HTTPServer
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if ci.unauth != nil {
		l.unauth.Remove(ci.unauth)
		ci.unauth = nil
	}
}

// counts reports the connections tracked and how many are unauthorised.
func (l *connLimiter) counts() (all, unauth int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.conns), l.unauth.Len()
}
