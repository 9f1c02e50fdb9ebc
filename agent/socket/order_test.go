package socket

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/interaction/inbox"
	"github.com/asktui/asktui/interaction/interactiontest"
)

// arrivals is an inbox view that passes on the requests that arrive.
type arrivals chan *inbox.Request

func (a arrivals) Notify(e inbox.Event) {
	if e.Kind == inbox.Arrived {
		a <- e.Request
	}
}

// TestArrivalOrderPerConnection is issue 10's shuffle: fifteen requests
// sent in order on one connection reached the inbox as 14, 6, 0, 1, …
// They must arrive in the order they were sent.
func TestArrivalOrderPerConnection(t *testing.T) {
	in := inbox.New(nil)
	defer in.Close()
	const n = 15
	seen := make(arrivals, n)
	h := in.Attach("test", seen)
	defer h.Detach()
	srv := startServer(t, in, Options{})
	c := dialRaw(t, srv.path)
	for i := range n {
		c.send(fmt.Sprintf(`{"id": %d, "request": {"questions": [{"id": "q", "question": "number %d"}]}}`, i, i))
	}
	for i := range n {
		select {
		case r := <-seen:
			if got, want := r.Request.Questions[0].Question, fmt.Sprintf("number %d", i); got != want {
				t.Fatalf("arrival %d is %q, want %q", i, got, want)
			}
		case <-time.After(within):
			t.Fatalf("only %d of %d requests arrived", i, n)
		}
	}
}

// TestTimeoutReachesTheInbox: a client's deadline travels with its request
// (timeout_ms), so the inbox shows the countdown, and the request ends as
// a timeout, not a withdrawal, whichever side notices first.
func TestTimeoutReachesTheInbox(t *testing.T) {
	f := interactiontest.NewProvider()
	srv := startServer(t, f, Options{})
	c := dial(t, srv.path)

	ctx, cancel := context.WithTimeout(context.Background(), time.Hour)
	defer cancel()
	done := ask(ctx, c, question("long"))
	call := f.Next(t)
	deadline, ok := call.Ctx.Deadline()
	if left := time.Until(deadline); !ok || left <= 0 || left > time.Hour {
		t.Errorf("the inbox sees the deadline %v (%v), want one within the hour", deadline, ok)
	}
	cancel()
	call.Withdrawn(t, withdrawWithin) //nolint:gosec // a test's set-up or clean-up; a failure shows in the assertion after it
	await(t, done)

	// The client's own timeout ends the wait before the server's: its
	// cancel line says why, and the inbox records a timeout.
	tctx, timeUp := context.WithCancelCause(context.Background())
	done = ask(tctx, c, question("short"))
	call = f.Next(t)
	timeUp(interaction.TimeoutAfter(6 * time.Second))
	if err := call.Withdrawn(t, withdrawWithin); interaction.CodeOf(err) != interaction.CodeTimeout {
		t.Errorf("the inbox saw %v, want ASK_TIMEOUT", err)
	}
	if r := await(t, done); interaction.CodeOf(r.err) != interaction.CodeTimeout {
		t.Errorf("Ask = %v, want ASK_TIMEOUT", r.err)
	}
}

// TestTimeoutLine: the server keeps the time a request line gives, and a
// cancel line's reason is taken only when it is a timeout or a withdrawal.
func TestTimeoutLine(t *testing.T) {
	f := interactiontest.NewProvider()
	srv := startServer(t, f, Options{})
	c := dialRaw(t, srv.path)

	c.send(`{"id": 1, "timeout_ms": 1, "request": ` + simpleRequest + `}`)
	// A millisecond may run out before the request reaches the provider
	// on a loaded machine; either way the reply is ASK_TIMEOUT, and a
	// request that did reach it was withdrawn as timed out.
	r := c.recv()
	wantError(t, r, "1", interaction.CodeTimeout)
	// One wording for one timeout, whichever side ends it first: the
	// client's own deadline (ask --connect --timeout) or this timer
	// (issue 35: the history said it two ways).
	if want := interaction.TimeoutAfter(time.Millisecond).Message; r.Error != nil && r.Error.Message != want {
		t.Errorf("message %q, want %q", r.Error.Message, want)
	}
	select {
	case call := <-f.Calls():
		if err := call.Withdrawn(t, within); interaction.CodeOf(err) != interaction.CodeTimeout {
			t.Errorf("after its timeout_ms the request ended with %v, want ASK_TIMEOUT", err)
		}
	default:
	}

	c.send(`{"id": 2, "request": ` + simpleRequest + `}`)
	call := f.Next(t)
	c.send(`{"id": 2, "cancel": true, "reason": {"code": "ASK_DECLINED", "message": "the human said no"}}`)
	if err := call.Withdrawn(t, withdrawWithin); interaction.CodeOf(err) != interaction.CodeAborted {
		t.Errorf("a cancel claiming a decline ended the request with %v, want ASK_ABORTED", err)
	}
	wantError(t, c.recv(), "2", interaction.CodeAborted)

	for _, bad := range []string{`-5`, `1.5`, `"30s"`, `99999999999999999`} {
		c.send(`{"id": 3, "timeout_ms": ` + bad + `, "request": ` + simpleRequest + `}`)
		wantError(t, c.recv(), "3", interaction.CodeInvalidRequest, `"timeout_ms" must be a whole number of milliseconds`)
	}
}
