// Package interactiontest provides a fake [interaction.Provider] for the
// tests of code that asks through an interaction.Service, or through
// anything with its Ask method: the MCP server, the socket server, the
// command line. Every Ask waits as a [Call] until the test answers it,
// fails it, or the caller withdraws it, so a test sees exactly what
// arrived and decides what happens, without sleeping.
//
// Like net/http/httptest it imports only the standard library.
package interactiontest

import (
	"context"
	"testing"
	"time"

	"github.com/asktui/asktui/interaction"
)

// Within bounds how long [Provider.Next] and [Provider.NextActivity] wait
// before they fail the test: a failure deadline, never a way to
// synchronise.
const Within = 30 * time.Second

// activityBuffer is how many reported activities a Provider keeps until
// the test reads them; Report drops the rest rather than block.
const activityBuffer = 100

// Provider is a fake interaction.Provider and interaction.ActivitySink.
// Its zero value is not ready: use [NewProvider].
type Provider struct {
	calls chan *Call
	acts  chan interaction.Activity
}

// NewProvider returns a Provider with nothing waiting.
func NewProvider() *Provider {
	return &Provider{calls: make(chan *Call), acts: make(chan interaction.Activity, activityBuffer)}
}

// Ask hands the request to the test as a [Call] (see [Provider.Next]),
// then calls [interaction.Queued], and returns what the test replies. When ctx ends first, it returns
// [interaction.ContextError], as a real provider does.
func (p *Provider) Ask(ctx context.Context, req interaction.Request) (interaction.Answer, error) {
	c := &Call{Ctx: ctx, Req: req, reply: make(chan reply, 1)}
	select {
	case p.calls <- c:
		interaction.Queued(ctx) // the test has it: the next Ask comes after
	case <-ctx.Done():
		return interaction.Answer{}, interaction.ContextError(ctx)
	}
	select {
	case r := <-c.reply:
		return r.ans, r.err
	case <-ctx.Done():
		return interaction.Answer{}, interaction.ContextError(ctx)
	}
}

// Report keeps a for [Provider.NextActivity]. It never blocks: past
// 100 unread activities it drops a.
func (p *Provider) Report(a interaction.Activity) {
	select {
	case p.acts <- a:
	default:
	}
}

// Next returns the next Ask to arrive, failing t when none arrives within
// [Within].
func (p *Provider) Next(t testing.TB) *Call {
	t.Helper()
	select {
	case c := <-p.calls:
		return c
	case <-time.After(Within):
		t.Fatalf("no request reached the provider within %v", Within)
		return nil
	}
}

// Calls is where the Asks arrive that Next returns, for a goroutine other
// than the test's own, which may not fail the test with t.Fatal.
func (p *Provider) Calls() <-chan *Call { return p.calls }

// NextActivity returns the next activity reported, failing t when none is
// within [Within].
func (p *Provider) NextActivity(t testing.TB) interaction.Activity {
	t.Helper()
	select {
	case a := <-p.acts:
		return a
	case <-time.After(Within):
		t.Fatalf("no activity was reported within %v", Within)
		return interaction.Activity{}
	}
}

// Call is one Ask waiting on the test.
type Call struct {
	// Ctx is the context Ask was called with: it ends when the caller
	// withdraws the request.
	Ctx context.Context
	// Req is the request as the provider received it.
	Req interaction.Request

	reply chan reply
}

type reply struct {
	ans interaction.Answer
	err error
}

// Answer makes the call's Ask return ans. Call it at most once, and only
// one of Answer and Fail.
func (c *Call) Answer(ans interaction.Answer) { c.reply <- reply{ans: ans} }

// Fail makes the call's Ask return err. Call it at most once, and only one
// of Answer and Fail.
func (c *Call) Fail(err error) { c.reply <- reply{err: err} }

// Withdrawn waits for the caller to withdraw the call, that is for its
// context to end, and returns the error the call's Ask returns for it
// ([interaction.ContextError]). It fails t when that takes longer than
// within.
func (c *Call) Withdrawn(t testing.TB, within time.Duration) error {
	t.Helper()
	select {
	case <-c.Ctx.Done():
		return interaction.ContextError(c.Ctx)
	case <-time.After(within):
		t.Fatalf("the request was not withdrawn within %v", within)
		return nil
	}
}
