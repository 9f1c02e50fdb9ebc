package mcp

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/asktui/asktui/interaction"
)

// toolState is what the calls of ask_user_question share: the live
// streams they are answered on and the questions they wait for. Its zero
// value is ready; mu is never held while taking Server.mu.
type toolState struct {
	mu      sync.Mutex
	streams map[string]*stream    // by POST marker
	asks    map[string]*sharedAsk // by askKey
	closed  bool
	wg      sync.WaitGroup // the asks' goroutines
}

// testHooks let tests drive the lifecycle without timing.
type testHooks struct {
	// newTicker, when set, replaces time.NewTicker for the keepalive.
	newTicker func(time.Duration) (<-chan time.Time, func())
	// detached, when set, is called after a call stopped waiting for its
	// question; dropped says its client was gone.
	detached func(dropped bool)
}

// sharedAsk is one question on screen and the calls waiting for it: the
// call that asked, and any call re-issued by the same client with the
// same arguments while it was on screen. It stays on screen while a call
// waits, and for the re-attach grace after the last caller's connection
// dropped.
type sharedAsk struct {
	cancel context.CancelCauseFunc // withdraws the question
	done   chan struct{}           // closed once ans and err are set
	ans    interaction.Answer
	err    error

	callers int         // calls waiting for it; guarded by toolState.mu
	grace   *time.Timer // running while no call waits; guarded by toolState.mu
}

// protocolSessionless is the first MCP version without sessions; the SDK
// serves it only on a stateless handler.
const protocolSessionless = "2026-07-28"

// protocolHeader carries the request's protocol version on every request
// after the first.
const protocolHeader = "Mcp-Protocol-Version"

// route serves 2026-07-28 requests, which carry no session, on a
// stateless handler and everything else on the stateful one, and wraps
// every POST's response so a waiting call can keep it alive and notice
// when it is gone.
func (s *Server) route(stateful http.Handler) http.Handler {
	stateless := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s.sdk },
		&sdk.StreamableHTTPOptions{
			Stateless:           true,
			Logger:              s.opts.Logger,
			MaxRequestBodyBytes: s.opts.MaxBodyBytes,
			// Cancellation is left to watchPOST, whose cause says the
			// client is gone (and so lets a re-issued call re-attach).
		})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		next := stateful
		if r.Method == http.MethodPost && r.Header.Get(protocolHeader) >= protocolSessionless &&
			r.Header.Get(sessionHeader) == "" {
			next = stateless
		}
		marker := r.Header.Get(postHeader)
		if r.Method != http.MethodPost || marker == "" {
			next.ServeHTTP(w, r)
			return
		}
		st := &stream{ResponseWriter: w, ctx: r.Context()}
		s.tools.mu.Lock()
		if s.tools.streams == nil {
			s.tools.streams = make(map[string]*stream)
		}
		s.tools.streams[marker] = st
		s.tools.mu.Unlock()
		defer func() {
			s.tools.mu.Lock()
			delete(s.tools.streams, marker)
			s.tools.mu.Unlock()
			st.end()
		}()
		next.ServeHTTP(st, r)
	})
}

// askKey identifies a request by who asks (the agent's ID: the session,
// or the client's name without one, and the sub-agent) and what it asks.
func askKey(req interaction.Request) string {
	h := sha256.New()
	if req.Agent != nil {
		h.Write([]byte(req.Agent.ID))
	}
	h.Write([]byte{0})
	_ = json.NewEncoder(h).Encode(req.Questions) // plain data: cannot fail
	return hex.EncodeToString(h.Sum(nil))
}

// ask puts req to the human, or attaches the call to the same question
// already on screen, and waits for the answer or for ctx to end. When ctx
// ends and no other call waits for the question, the question is
// withdrawn: at once when the client withdrew the call, or after the
// re-attach grace when its stream is gone (w.gone), so that the client
// can issue the call again. It beats (b) while it waits.
func (s *Server) ask(ctx context.Context, req interaction.Request, w *stream, b *beats) (interaction.Answer, error) {
	if ctx.Err() != nil { // withdrawn before it was asked
		return interaction.Answer{}, interaction.ContextError(ctx)
	}
	a := s.attach(ctx, req)
wait:
	for {
		select {
		case <-a.done:
			return a.ans, a.err
		case <-ctx.Done():
			break wait
		case <-b.keepalive:
			b.comment()
		case <-b.progress:
			b.notify(ctx)
		}
	}
	cause := context.Cause(ctx)
	dropped := w != nil && w.gone()
	last := s.detach(a, cause, dropped)
	if s.opts.hooks.detached != nil {
		s.opts.hooks.detached(dropped)
	}
	if !last || dropped {
		// Nobody reads this result: another call waits for the question,
		// or this call's client is gone.
		return interaction.Answer{}, interaction.ContextError(ctx)
	}
	<-a.done // the asker returns promptly once withdrawn
	return a.ans, a.err
}

// attach returns the question req is waiting for, asking it when it is
// not on screen yet. A question answered while nobody waited (within the
// grace) hands its answer to the call that comes back for it.
func (s *Server) attach(ctx context.Context, req interaction.Request) *sharedAsk {
	key := askKey(req)
	t := &s.tools
	t.mu.Lock()
	defer t.mu.Unlock()
	if a, ok := t.asks[key]; ok {
		select {
		case <-a.done:
			delete(t.asks, key)
		default:
			a.callers++
			if a.grace != nil {
				a.grace.Stop()
				a.grace = nil
			}
		}
		return a
	}
	// The question outlives the call that asked it (for the grace), and
	// keeps its values.
	actx, cancel := context.WithCancelCause(context.WithoutCancel(ctx))
	a := &sharedAsk{cancel: cancel, done: make(chan struct{}), callers: 1}
	if t.closed {
		cancel(interaction.Errorf(interaction.CodeAborted, "the asktui MCP server is shutting down"))
	}
	if t.asks == nil {
		t.asks = make(map[string]*sharedAsk)
	}
	t.asks[key] = a
	t.wg.Add(1)
	go func() {
		defer t.wg.Done()
		ans, err := s.asker.Ask(actx, req)
		t.mu.Lock()
		defer t.mu.Unlock()
		a.ans, a.err = ans, err
		close(a.done)
		withdrawn := actx.Err() != nil
		cancel(nil)
		if a.callers > 0 || withdrawn || t.closed || s.opts.ReattachGrace <= 0 {
			delete(t.asks, key)
			return
		}
		// Answered while its caller was away: keep the answer for the
		// grace, for the call to come back for it.
		if a.grace != nil {
			a.grace.Stop() // the withdrawal that did not happen
		}
		a.grace = time.AfterFunc(s.opts.ReattachGrace, func() {
			t.mu.Lock()
			defer t.mu.Unlock()
			if t.asks[key] == a {
				delete(t.asks, key)
			}
		})
	}()
	return a
}

// detach takes a call off a; it reports whether it was the last caller.
// The last caller withdraws the question, after the grace when its
// client dropped.
func (s *Server) detach(a *sharedAsk, cause error, dropped bool) (last bool) {
	t := &s.tools
	t.mu.Lock()
	defer t.mu.Unlock()
	a.callers--
	if a.callers > 0 {
		return false
	}
	select {
	case <-a.done:
		return true
	default:
	}
	if !dropped || s.opts.ReattachGrace <= 0 || t.closed {
		a.cancel(cause)
		return true
	}
	a.grace = time.AfterFunc(s.opts.ReattachGrace, func() {
		t.mu.Lock()
		defer t.mu.Unlock()
		if a.callers == 0 {
			a.cancel(cause)
		}
	})
	return true
}

// closeAsks withdraws every question, those in their grace included,
// refuses new ones, and waits for the asker to return them all.
func (t *toolState) closeAsks(cause error) {
	t.mu.Lock()
	t.closed = true
	for _, a := range t.asks {
		if a.grace != nil {
			a.grace.Stop()
		}
		a.cancel(cause)
	}
	t.mu.Unlock()
	t.wg.Wait()
}
