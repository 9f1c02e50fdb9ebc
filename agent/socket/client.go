package socket

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"net"
	"os"
	"sync"
	"syscall"
	"time"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/internal/jsonl"
)

// maxReplyBytes bounds a reply line the client reads. An answer can repeat
// every label of its request, so it gets more room than a request.
const maxReplyBytes = 4 * MaxLineBytes

// Client asks the asktui inbox listening on a socket. It is safe for
// concurrent use and satisfies [interaction.Provider], so front ends that
// draw no UI of their own (`asktui ask --connect`, the stdio MCP bridge) can
// hand it their requests.
type Client struct {
	// Conversation, when set before the first Ask, goes with every
	// request: the token that ties the asker to a conversation of
	// asktui run (see [Options.Identify]).
	Conversation string

	nc   net.Conn
	path string

	wmu sync.Mutex // serializes whole lines

	mu      sync.Mutex
	nextID  uint64
	pending map[uint64]chan clientReply
	closing bool

	done      chan struct{} // closed when the read loop has ended
	err       error         // why the connection ended; set before done closes
	closeOnce sync.Once
	closeErr  error
}

var _ interaction.Provider = (*Client)(nil)

// clientLine is a line the client sends: a request or a cancel.
type clientLine struct {
	ID      uint64               `json:"id"`
	Request *interaction.Request `json:"request,omitempty"`
	// Permission is the request's permission, which its JSON leaves out.
	Permission *interaction.Permission `json:"permission,omitempty"`
	TimeoutMS  int64                   `json:"timeout_ms,omitempty"`
	// Conversation is Client.Conversation.
	Conversation string             `json:"conversation,omitempty"`
	Cancel       bool               `json:"cancel,omitempty"`
	Reason       *interaction.Error `json:"reason,omitempty"`
}

// clientReply is a reply line as the client reads it.
type clientReply struct {
	ID     json.RawMessage     `json:"id"`
	Answer *interaction.Answer `json:"answer"`
	Error  *interaction.Error  `json:"error"`
}

// Dial connects to the asktui inbox listening at path.
//
// When nothing listens there it fails at once with a NO_PROVIDER
// *interaction.Error that tells the caller to start `asktui serve`. When
// ctx ends first it returns the result of [interaction.ContextError].
//
// Before it sends anything Dial checks what [ListenPrivate] made sure of,
// since another local user could have created the socket's directory
// first (in a shared temporary directory, say) to read the questions and
// forge the answers: the directory must be the current user's and writable
// by nobody else, the socket must be the current user's, and the process
// serving it must run as the current user (SO_PEERCRED on Linux,
// LOCAL_PEERCRED on macOS and FreeBSD; elsewhere only the files are
// checked). Otherwise it fails with an UNTRUSTED *interaction.Error that
// says what is wrong.
func Dial(ctx context.Context, path string) (*Client, error) {
	uid := os.Getuid()
	if err := verifyPath(path, uid); err != nil {
		return nil, err
	}
	var d net.Dialer
	nc, err := d.DialContext(ctx, "unix", path)
	if err != nil {
		if cerr := interaction.ContextError(ctx); cerr != nil {
			return nil, cerr
		}
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ECONNREFUSED) {
			return nil, interaction.WrapError(interaction.CodeNoProvider, err,
				"no asktui inbox is running at %s; start one with `asktui serve`", path)
		}
		return nil, interaction.WrapError(interaction.CodeNoProvider, err,
			"could not connect to the asktui inbox at %s: %v", path, err)
	}
	if err := verifyPeer(nc, path, uid); err != nil {
		_ = nc.Close() // refused before a byte was sent
		return nil, err
	}
	c := &Client{
		nc:      nc,
		path:    path,
		pending: make(map[uint64]chan clientReply),
		done:    make(chan struct{}),
	}
	go c.readLoop()
	return c, nil
}

// Ask sends req to the inbox and waits for the human's answer.
//
// The server validates req as interaction.Service does, and its failures
// come back as *interaction.Error values with the server's code and
// message. When ctx has a deadline the server is told the time left
// ("timeout_ms"), so the inbox shows the countdown. When ctx ends Ask
// withdraws the request (it sends a cancel line, with an ASK_TIMEOUT or
// SETTLED_ELSEWHERE cause as its reason so the inbox records what ended it) and returns the result of
// [interaction.ContextError] without waiting for the server. When the
// connection ends Ask fails with PROVIDER_CLOSED.
//
// Sending is not interruptible: a server that stops reading its socket
// would hold Ask in the write. asktui's own server always reads.
func (c *Client) Ask(ctx context.Context, req interaction.Request) (interaction.Answer, error) {
	if err := interaction.ContextError(ctx); err != nil {
		return interaction.Answer{}, err
	}
	ch := make(chan clientReply, 1)
	c.mu.Lock()
	if c.closing {
		c.mu.Unlock()
		<-c.done
		return interaction.Answer{}, c.err
	}
	c.nextID++
	id := c.nextID
	c.pending[id] = ch
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		delete(c.pending, id)
		c.mu.Unlock()
	}()

	line := clientLine{ID: id, Request: &req, Permission: req.Permission, Conversation: c.Conversation}
	if deadline, ok := ctx.Deadline(); ok {
		// Round up: a timeout of 0 would mean none.
		line.TimeoutMS = max(int64((time.Until(deadline)+time.Millisecond-1)/time.Millisecond), 1)
	}
	if err := c.write(line); err != nil {
		return interaction.Answer{}, err
	}

	select {
	case r := <-ch:
		return r.result()
	case <-ctx.Done():
		// Best effort: if the line cannot be written the connection is
		// gone, and that withdraws the request too.
		err := interaction.ContextError(ctx)
		cancel := clientLine{ID: id, Cancel: true}
		var reason *interaction.Error
		if errors.As(err, &reason) && (reason.Code == interaction.CodeTimeout || reason.Code == interaction.CodeSettledElsewhere) {
			cancel.Reason = reason
		}
		_ = c.write(cancel)
		return interaction.Answer{}, err
	case <-c.done:
		select {
		case r := <-ch: // answered just before the connection ended
			return r.result()
		default:
			return interaction.Answer{}, c.err
		}
	}
}

// Close closes the connection, which withdraws every request still
// waiting, and waits for the client's reader to stop. Waiting Ask calls
// fail with PROVIDER_CLOSED. Close may be called more than once.
func (c *Client) Close() error {
	c.closeOnce.Do(func() {
		c.mu.Lock()
		c.closing = true
		c.mu.Unlock()
		if err := c.nc.Close(); !errors.Is(err, net.ErrClosed) {
			c.closeErr = err // else the server closed first: nothing to report
		}
		<-c.done
	})
	return c.closeErr
}

// write sends one line.
func (c *Client) write(line clientLine) error {
	b, err := jsonl.MarshalLine(line)
	if err != nil {
		return interaction.WrapError(interaction.CodeInvalidRequest, err, "the request cannot be encoded as JSON: %v", err)
	}
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if _, err := c.nc.Write(b); err != nil {
		select {
		case <-c.done:
			return c.err
		default:
		}
		return interaction.WrapError(interaction.CodeProviderClosed, err,
			"could not send the request to the asktui inbox at %s: %v", c.path, err)
	}
	return nil
}

// readLoop delivers replies to waiting Ask calls until the connection ends.
func (c *Client) readLoop() {
	br := bufio.NewReaderSize(c.nc, 64<<10)
	var err error
	for {
		var line []byte
		var tooLong bool
		line, tooLong, err = readLine(br, maxReplyBytes)
		if err != nil {
			break
		}
		if tooLong {
			err = errors.New("a reply line is longer than the limit")
			break
		}
		var r clientReply
		if json.Unmarshal(line, &r) != nil {
			continue // not ours to act on; the waiting Ask keeps waiting
		}
		var id uint64
		if json.Unmarshal(r.ID, &id) != nil {
			continue // an error about a line this client did not send
		}
		c.mu.Lock()
		ch := c.pending[id]
		c.mu.Unlock()
		if ch != nil {
			select {
			case ch <- r:
			default: // a duplicate reply; the first one stands
			}
		}
	}

	c.mu.Lock()
	closing := c.closing
	c.closing = true
	c.mu.Unlock()
	if closing {
		c.err = interaction.WrapError(interaction.CodeProviderClosed, err,
			"the connection to the asktui inbox at %s was closed", c.path)
	} else {
		c.err = interaction.WrapError(interaction.CodeProviderClosed, err,
			"the asktui inbox at %s closed the connection; it may have stopped", c.path)
	}
	close(c.done)
	// A server that closed on us may leave the socket half open; make sure
	// writers fail too. The connection is done with either way.
	_ = c.nc.Close()
}

// result turns a reply into Ask's return values.
func (r clientReply) result() (interaction.Answer, error) {
	switch {
	case r.Error != nil:
		return interaction.Answer{}, r.Error
	case r.Answer != nil:
		return *r.Answer, nil
	default:
		return interaction.Answer{}, interaction.Errorf(interaction.CodeInternal,
			"the asktui inbox sent a reply with neither an answer nor an error")
	}
}
