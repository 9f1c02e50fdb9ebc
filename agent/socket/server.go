package socket

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"sync"
	"time"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/internal/jsonl"
)

// MaxLineBytes is the longest line either side reads: a request of
// [interaction.MaxRequestBytes] plus room for the envelope and its id.
const MaxLineBytes = interaction.MaxRequestBytes + 1<<20

// writeGrace bounds how long the server keeps writing replies to a
// connection it has stopped reading, so a client that never reads cannot
// hold up [Serve]'s shutdown.
const writeGrace = 2 * time.Second

// maxTimeoutMS bounds a request's "timeout_ms": a year, well within a
// time.Duration.
const maxTimeoutMS = 365 * 24 * 3600 * 1000

// lineExample is the shape quoted by messages that tell a client what to
// send.
const lineExample = `{"id": 1, "request": {"questions": [{"id": "q1", "question": "..."}]}}`

// Asker puts a request to the human and waits for the outcome.
// *interaction.Service satisfies it. Ask must return promptly once ctx
// ends: that is how a withdrawn request leaves the screen, and [Serve]
// waits for every Ask it started.
//
// [Serve] hands a connection's requests to Ask in the order they were
// sent, each once the one before has taken its place in line: Ask calls
// [interaction.Queued] with its ctx when the request is queued (the inbox
// and interactiontest's provider do), or returns. An Asker that does
// neither holds the connection's next request until it returns.
type Asker interface {
	Ask(ctx context.Context, req interaction.Request) (interaction.Answer, error)
}

var _ Asker = (*interaction.Service)(nil)

// Options configures [Serve]. The zero value is ready to use.
type Options struct {
	// DefaultAgent is given to every request that names no agent, so the
	// inbox can show who asked (for example {ID: "socket", Name: "script"}).
	// The zero Agent leaves such requests without one.
	DefaultAgent interaction.Agent
	// Identify, when set, names the asker of a request line that carries
	// "conversation": a token of asktui run's conversations (passed to
	// the stdio MCP bridge it starts for an agent). The agent it returns,
	// with ok, replaces the request's; an unknown token changes nothing.
	Identify func(token string) (agent interaction.Agent, ok bool)

	// maxLine overrides MaxLineBytes in tests.
	maxLine int
}

// Serve answers requests from connections accepted on l, putting each to
// asker, until ctx ends.
//
// When ctx ends Serve closes l, withdraws every waiting request (their
// contexts end with a PROVIDER_CLOSED cause, which is also what the clients
// are told), closes every connection once its replies are written, and
// returns nil after all of its goroutines have finished. It returns early
// with an error only when l fails for good; it then shuts down the same
// way.
func Serve(ctx context.Context, l net.Listener, asker Asker, opts Options) error {
	if asker == nil {
		return errors.New("socket: Serve needs an Asker")
	}
	if opts.maxLine <= 0 {
		opts.maxLine = MaxLineBytes
	}
	s := &server{asker: asker, opts: opts}

	// base keeps ctx's values but ends with a cause the clients can read.
	base, stop := context.WithCancelCause(context.WithoutCancel(ctx))
	var wg sync.WaitGroup
	wg.Go(func() {
		select {
		case <-ctx.Done():
			stop(interaction.Errorf(interaction.CodeProviderClosed,
				"the asktui inbox is shutting down; ask again once it is back"))
		case <-base.Done():
		}
		_ = l.Close() // ends Accept; Serve reports why it stopped
	})

	var err error
	var delay time.Duration
	for {
		nc, aerr := l.Accept()
		if aerr == nil {
			delay = 0
			wg.Go(func() { s.serveConn(base, nc) })
			continue
		}
		if base.Err() != nil {
			break
		}
		if errors.Is(aerr, net.ErrClosed) {
			err = fmt.Errorf("socket: accepting connections: %w", aerr)
			break
		}
		// Probably transient (such as running out of file descriptors):
		// back off as net/http does rather than spin or give up.
		delay = min(max(2*delay, 5*time.Millisecond), time.Second)
		t := time.NewTimer(delay)
		select {
		case <-t.C:
		case <-base.Done():
			t.Stop()
		}
	}
	stop(interaction.Errorf(interaction.CodeProviderClosed,
		"the asktui inbox stopped accepting connections; ask again once it is back"))
	wg.Wait()
	return err
}

// server is the state Serve shares with its connections.
type server struct {
	asker Asker
	opts  Options
}

// conn is one client connection.
type conn struct {
	s  *server
	nc net.Conn

	wmu  sync.Mutex // serializes whole lines
	werr error      // first write error; later writes are dropped

	mu      sync.Mutex
	pending map[string]context.CancelCauseFunc // by the compact JSON of the id

	// last is closed once the latest request read has taken its place in
	// line (or has ended): the next request waits for it, so the inbox
	// shows a connection's requests in the order they were sent. Only the
	// read loop touches it.
	last chan struct{}
}

// reply is one line the server sends.
type reply struct {
	ID     json.RawMessage     `json:"id"`
	Answer *interaction.Answer `json:"answer,omitempty"`
	Error  *interaction.Error  `json:"error,omitempty"`
}

// serveConn reads requests from nc until the client closes it or parent
// ends, then withdraws what is still waiting, waits for the replies and
// closes nc.
func (s *server) serveConn(parent context.Context, nc net.Conn) {
	ctx, cancel := context.WithCancelCause(parent)
	c := &conn{s: s, nc: nc, pending: make(map[string]context.CancelCauseFunc)}

	var wg sync.WaitGroup
	readDone := make(chan struct{})
	wg.Go(func() {
		select {
		case <-ctx.Done():
			// Unblock the read loop; a time in the past fails reads at once.
			// It fails only on a closed connection, whose reads fail too.
			_ = nc.SetReadDeadline(time.Unix(1, 0))
		case <-readDone:
		}
	})

	c.readLoop(ctx, &wg)
	close(readDone)
	cancel(interaction.Errorf(interaction.CodeAborted,
		"the client closed its connection to the asktui inbox, which withdraws its questions"))
	// Bounds the last replies' writes; on a closed connection they fail
	// anyway.
	_ = nc.SetWriteDeadline(time.Now().Add(writeGrace))
	wg.Wait()
	_ = nc.Close()
}

// readLoop handles lines until reading fails. Each request runs in its own
// goroutine, counted by wg.
func (c *conn) readLoop(ctx context.Context, wg *sync.WaitGroup) {
	br := bufio.NewReaderSize(c.nc, 64<<10)
	for {
		line, tooLong, err := readLine(br, c.s.opts.maxLine)
		if err != nil {
			return
		}
		if tooLong {
			c.send(reply{Error: interaction.Errorf(interaction.CodeInvalidRequest,
				"the line is longer than the limit of %d bytes; send fewer or shorter questions and options",
				c.s.opts.maxLine)})
			continue
		}
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		c.handle(ctx, line, wg)
	}
}

// handle acts on one non-blank line.
func (c *conn) handle(ctx context.Context, line []byte, wg *sync.WaitGroup) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(line, &fields); err != nil || fields == nil {
		c.send(reply{Error: notAnObject(err)})
		return
	}
	id := fields["id"]
	if bytes.Equal(id, []byte("null")) {
		id = nil
	}
	fail := func(format string, args ...any) {
		c.send(reply{ID: id, Error: interaction.Errorf(interaction.CodeInvalidRequest, format, args...)})
	}
	rawReq, hasReq := fields["request"]
	if c.cancelLine(fields, id, hasReq, fail) {
		return
	}
	if !hasReq {
		fail(`the line has no "request"; send %s`, lineExample)
		return
	}
	req, err := interaction.DecodeRequest(bytes.NewReader(rawReq))
	if err == nil {
		err = permissionOf(fields, &req)
	}
	if err != nil {
		c.send(reply{ID: id, Error: interaction.NewErrorEnvelope(err).Error})
		return
	}
	timeout, ok := timeoutOf(fields)
	if !ok {
		fail(`"timeout_ms" must be a whole number of milliseconds from 0 (no timeout) to %d, as in "timeout_ms": 30000`, int64(maxTimeoutMS))
		return
	}
	c.identify(fields, &req)
	c.ask(ctx, id, req, timeout, wg, fail)
}

// permissionOf gives req the line's "permission", if it has one that is
// not null, and checks the two together.
func permissionOf(fields map[string]json.RawMessage, req *interaction.Request) error {
	raw, ok := fields["permission"]
	if !ok || bytes.Equal(raw, []byte("null")) {
		return nil
	}
	p, err := interaction.DecodePermission(raw)
	if err != nil {
		return err
	}
	req.Permission = p
	return req.Validate()
}

// notAnObject is the error for a line that is not a JSON object; err is
// why it did not decode, if it did not.
func notAnObject(err error) *interaction.Error {
	var syntax *json.SyntaxError
	msg := "the line must be a JSON object such as " + lineExample
	if errors.As(err, &syntax) {
		msg = fmt.Sprintf("the line is not valid JSON (%v at byte offset %d); send one JSON object per line, such as %s",
			syntax, max(syntax.Offset-1, 0), lineExample)
	}
	return interaction.Errorf(interaction.CodeInvalidRequest, "%s", msg)
}

// cancelLine acts on the line's "cancel", if it has one that is not
// false, and reports whether it did: it withdraws the request, or fails
// the line.
func (c *conn) cancelLine(fields map[string]json.RawMessage, id json.RawMessage, hasReq bool, fail func(string, ...any)) bool {
	rawCancel, ok := fields["cancel"]
	if !ok {
		return false
	}
	var cancel bool
	if err := json.Unmarshal(rawCancel, &cancel); err != nil {
		fail(`"cancel" must be true or false, as in {"id": 1, "cancel": true}`)
		return true
	}
	switch {
	case !cancel:
		return false
	case hasReq:
		fail(`a line either sends a "request" or cancels one with "cancel": true, not both`)
	case id == nil:
		fail(`a cancel line needs the "id" of the request to withdraw, as in {"id": 1, "cancel": true}`)
	default:
		c.withdraw(idKey(id), cancelReason(fields["reason"]))
	}
	return true
}

// timeoutOf reads the line's "timeout_ms": 0 without one, and false when
// it is not a whole number of milliseconds in range.
func timeoutOf(fields map[string]json.RawMessage) (time.Duration, bool) {
	raw, ok := fields["timeout_ms"]
	if !ok {
		return 0, true
	}
	var ms int64
	if err := json.Unmarshal(raw, &ms); err != nil || ms < 0 || ms > maxTimeoutMS {
		return 0, false
	}
	return time.Duration(ms) * time.Millisecond, true
}

// identify names the agent of req: the conversation whose token the line
// carries, else the server's default agent when req names none.
func (c *conn) identify(fields map[string]json.RawMessage, req *interaction.Request) {
	if raw, ok := fields["conversation"]; ok && c.s.opts.Identify != nil {
		var token string
		if json.Unmarshal(raw, &token) == nil && token != "" {
			if agent, known := c.s.opts.Identify(token); known {
				req.Agent = &agent
			}
		}
	}
	if req.Agent == nil && c.s.opts.DefaultAgent != (interaction.Agent{}) {
		agent := c.s.opts.DefaultAgent
		req.Agent = &agent
	}
}

// ask runs req, with the line's id and timeout, on a goroutine counted by
// wg, once the connection's request before it is queued. It fails the
// line when another request in flight has the same id.
func (c *conn) ask(ctx context.Context, id json.RawMessage, req interaction.Request, timeout time.Duration,
	wg *sync.WaitGroup, fail func(string, ...any)) {
	actx, acancel := context.WithCancelCause(ctx)
	if timeout > 0 {
		// The inbox shows the countdown, and the history the outcome
		// timeout.
		var cancelTimer context.CancelFunc
		actx, cancelTimer = context.WithTimeoutCause(actx, timeout, interaction.TimeoutAfter(timeout))
		cancelAll := acancel
		acancel = func(cause error) { cancelAll(cause); cancelTimer() }
	}
	key := ""
	if id != nil {
		key = idKey(id)
		if !c.register(key, acancel) {
			acancel(nil)
			fail("request id %s is still waiting on this connection; give every request in flight its own id", key)
			return
		}
	}
	prev, mine := c.last, make(chan struct{})
	c.last = mine
	var once sync.Once
	queued := func() { once.Do(func() { close(mine) }) }
	wg.Go(func() {
		defer acancel(nil)
		defer queued() // in case the asker never said
		if prev != nil {
			select {
			case <-prev:
			case <-actx.Done(): // withdrawn before its turn: Ask fails at once
			}
		}
		ans, err := c.s.asker.Ask(interaction.WithQueued(actx, queued), req)
		if key != "" {
			// Free the id before replying, so the client may reuse it as
			// soon as it reads the reply.
			c.mu.Lock()
			delete(c.pending, key)
			c.mu.Unlock()
		}
		c.sendOutcome(actx, id, ans, err)
	})
}

// register notes the request in flight with the id key, and reports
// whether the id was free.
func (c *conn) register(key string, cancel context.CancelCauseFunc) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, busy := c.pending[key]; busy {
		return false
	}
	c.pending[key] = cancel
	return true
}

// sendOutcome sends the outcome of the ask with the given id, whose context was
// actx.
func (c *conn) sendOutcome(actx context.Context, id json.RawMessage, ans interaction.Answer, err error) {
	if err == nil {
		c.send(reply{ID: id, Answer: &ans})
		return
	}
	if interaction.CodeOf(err) == "" && actx.Err() != nil {
		err = interaction.ContextError(actx)
	}
	c.send(reply{ID: id, Error: interaction.NewErrorEnvelope(err).Error})
}

// withdraw cancels the waiting request with the given id key, if any, with
// reason as the cause, or ASK_ABORTED when reason is nil.
func (c *conn) withdraw(key string, reason *interaction.Error) {
	c.mu.Lock()
	cancel := c.pending[key]
	c.mu.Unlock()
	if cancel == nil {
		return
	}
	if reason == nil {
		reason = interaction.Errorf(interaction.CodeAborted, "the client withdrew request %s", key)
	}
	cancel(reason)
}

// cancelReason reads the "reason" of a cancel line: an ASK_TIMEOUT,
// ASK_ABORTED or SETTLED_ELSEWHERE error saying why the client withdrew,
// so the outcome is recorded as what it was (a client's own timeout is a
// timeout; a prompt answered in the agent's own dialog was settled
// there). Anything else is no reason: a client cannot claim the human
// declined.
func cancelReason(raw json.RawMessage) *interaction.Error {
	if raw == nil {
		return nil
	}
	var e *interaction.Error
	if json.Unmarshal(raw, &e) != nil || e == nil {
		return nil
	}
	if e.Code != interaction.CodeTimeout && e.Code != interaction.CodeAborted && e.Code != interaction.CodeSettledElsewhere {
		return nil
	}
	return interaction.Errorf(e.Code, "%s", e.Message)
}

// send writes r as one line. After a write fails the stream may hold half a
// line, so later replies are dropped.
func (c *conn) send(r reply) {
	b, err := jsonl.MarshalLine(r)
	if err != nil {
		b, _ = jsonl.MarshalLine(reply{ID: r.ID, Error: interaction.WrapError(interaction.CodeInternal, err,
			"the asktui inbox could not encode its reply: %v", err)})
	}
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if c.werr != nil {
		return
	}
	if _, err := c.nc.Write(b); err != nil {
		c.werr = err
	}
}

// idKey is the compact JSON text of a request id, which identifies it
// among a connection's waiting requests.
func idKey(id json.RawMessage) string {
	var b bytes.Buffer
	if err := json.Compact(&b, id); err != nil {
		return string(id)
	}
	return b.String()
}

// readLine returns the next line of r without its "\n". A line of more
// than limit bytes is consumed to its end and reported as tooLong, without
// its content, so memory stays bounded. A final line without "\n" is
// dropped: the other side has closed.
func readLine(r *bufio.Reader, limit int) (line []byte, tooLong bool, err error) {
	for {
		chunk, err := r.ReadSlice('\n')
		n := len(chunk)
		if err == nil {
			n-- // the newline
		}
		if !tooLong {
			if len(line)+n > limit {
				tooLong, line = true, nil
			} else {
				line = append(line, chunk[:n]...)
			}
		}
		switch {
		case err == nil:
			return line, tooLong, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		default:
			return nil, false, err
		}
	}
}
