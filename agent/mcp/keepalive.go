package mcp

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/asktui/asktui/interaction"
)

// Defaults for the lifecycle of a waiting call ([Options]).
const (
	// DefaultKeepaliveInterval is how often a waiting call writes an SSE
	// comment on its stream, with or without a progress token. The
	// official Python and TypeScript SDK clients give up after 300 s
	// without a byte; proxies often after 60 s.
	DefaultKeepaliveInterval = 15 * time.Second
	// DefaultReattachGrace is how long a question whose caller's
	// connection dropped stays on screen for the same call to be issued
	// again (MCP 2026-07-28 clients must re-issue a request whose stream
	// broke). It is short, so that a client that is gone has its question
	// withdrawn within a second.
	DefaultReattachGrace = 500 * time.Millisecond
)

// keepaliveComment is the SSE comment a waiting call writes; clients
// ignore lines starting with ":".
const keepaliveComment = ": waiting for the human\n\n"

// errStreamGone is why a stream takes no more writes.
var errStreamGone = errors.New("the call's stream has ended")

// disconnected is the cause of a call whose client went away without a
// word: its connection closed, or its stream takes no more bytes.
func disconnected() error {
	return interaction.Errorf(interaction.CodeAborted, "the MCP client disconnected before the human answered")
}

// stream is the HTTP response of one POST: the SDK writes the call's
// events on it, and a waiting call writes keepalive comments between
// them. Every write and flush holds mu, so a comment never splits an
// event.
type stream struct {
	http.ResponseWriter
	ctx context.Context // the POST's: done when the client's connection is

	mu     sync.Mutex
	ended  bool // the handler returned: the writer is no longer ours
	broken bool // a write failed: the client cannot be reached
}

// Write writes an SDK event.
func (w *stream) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.ended {
		return 0, errStreamGone
	}
	n, err := w.ResponseWriter.Write(p)
	if err != nil {
		w.broken = true
	}
	return n, err
}

// WriteHeader writes the status line.
func (w *stream) WriteHeader(code int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.ended {
		w.ResponseWriter.WriteHeader(code)
	}
}

// FlushError flushes; http.ResponseController finds it before Unwrap.
func (w *stream) FlushError() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.flushLocked()
}

func (w *stream) flushLocked() error {
	if w.ended {
		return errStreamGone
	}
	if err := http.NewResponseController(w.ResponseWriter).Flush(); err != nil {
		w.broken = true
		return err
	}
	return nil
}

// Unwrap gives http.ResponseController the writer beneath.
func (w *stream) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// comment writes one keepalive comment and flushes it. It writes nothing
// on a response that is not an event stream.
func (w *stream) comment() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.ended || w.broken {
		return errStreamGone
	}
	if !strings.HasPrefix(w.Header().Get("Content-Type"), "text/event-stream") {
		return nil
	}
	if _, err := w.ResponseWriter.Write([]byte(keepaliveComment)); err != nil {
		w.broken = true
		return err
	}
	return w.flushLocked()
}

// end marks the writer as no longer ours: the handler has returned.
func (w *stream) end() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.ended = true
}

// gone reports whether the client can no longer read this stream.
func (w *stream) gone() bool {
	if w.ctx.Err() != nil {
		return true
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.broken
}

// streamFor is the stream of the POST that carries a call, or nil (stdio,
// in-memory transports).
func (s *Server) streamFor(extra *sdk.RequestExtra) *stream {
	if extra == nil || extra.Header == nil {
		return nil
	}
	marker := extra.Header.Get(postHeader)
	if marker == "" {
		return nil
	}
	s.tools.mu.Lock()
	defer s.tools.mu.Unlock()
	return s.tools.streams[marker]
}

// beats are what a waiting call does while it waits, on the goroutine
// that waits (no goroutine per call for them): a keepalive comment on its
// stream every KeepaliveInterval, whether or not the client asked for
// progress, so that no client or proxy sees an idle connection, and
// notifications/progress every ProgressInterval when it asked. A stream
// that takes no more bytes ends the call.
type beats struct {
	keepalive <-chan time.Time // nil: no keepalive
	progress  <-chan time.Time // nil: no progress
	stop      []func()

	w      *stream
	cancel context.CancelCauseFunc
	req    *sdk.CallToolRequest
	token  any
	start  time.Time
	n      int // progress notifications sent
}

// beats starts the call's beats; end stops them.
func (s *Server) beats(w *stream, req *sdk.CallToolRequest, cancel context.CancelCauseFunc) *beats {
	b := &beats{w: w, cancel: cancel, req: req}
	if w != nil && s.opts.KeepaliveInterval > 0 {
		tick, stop := s.ticker(s.opts.KeepaliveInterval)
		b.keepalive, b.stop = tick, append(b.stop, stop)
	}
	if req != nil && req.Params != nil {
		b.token = req.Params.GetProgressToken()
	}
	if b.token != nil && s.opts.ProgressInterval > 0 {
		tk := time.NewTicker(s.opts.ProgressInterval)
		b.progress, b.stop = tk.C, append(b.stop, tk.Stop)
		b.start = time.Now()
	}
	return b
}

// comment writes a keepalive comment; a stream that takes no more bytes
// ends the call.
func (b *beats) comment() {
	if err := b.w.comment(); err != nil {
		b.cancel(disconnected())
		b.keepalive = nil
	}
}

// notify sends the next progress notification.
func (b *beats) notify(ctx context.Context) {
	b.n++
	// Progress must increase with each notification; the total is
	// unknown.
	_ = b.req.Session.NotifyProgress(ctx, &sdk.ProgressNotificationParams{
		ProgressToken: b.token,
		Progress:      float64(b.n),
		Message:       "waiting for the human to answer (" + time.Since(b.start).Round(time.Second).String() + ")",
	})
}

// end stops the beats.
func (b *beats) end() {
	for _, stop := range b.stop {
		stop()
	}
}

// ticker returns a channel that ticks every d and the function that stops
// it. Tests tick by hand.
func (s *Server) ticker(d time.Duration) (<-chan time.Time, func()) {
	if s.opts.hooks.newTicker != nil {
		return s.opts.hooks.newTicker(d)
	}
	tk := time.NewTicker(d)
	return tk.C, tk.Stop
}
