package socket

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/interaction/interactiontest"
)

func question(text string) interaction.Request {
	return interaction.Request{Questions: []interaction.Question{{ID: "q", Question: text}}}
}

func dial(t *testing.T, path string) *Client {
	t.Helper()
	c, err := Dial(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() }) //nolint:gosec // a test's set-up or clean-up; a failure shows in the assertion after it
	return c
}

// result is what one Client.Ask returned.
type result struct {
	ans interaction.Answer
	err error
}

// ask runs c.Ask in a goroutine and returns a channel with its result.
func ask(ctx context.Context, c *Client, req interaction.Request) <-chan result {
	ch := make(chan result, 1)
	go func() {
		ans, err := c.Ask(ctx, req)
		ch <- result{ans, err}
	}()
	return ch
}

func await(t *testing.T, ch <-chan result) result {
	t.Helper()
	select {
	case r := <-ch:
		return r
	case <-time.After(within):
		t.Fatal("Ask did not return")
		return result{}
	}
}

func TestClientRoundTrip(t *testing.T) {
	f := interactiontest.NewProvider()
	srv := startServer(t, f, Options{})
	c := dial(t, srv.path)

	req := interaction.Request{
		Agent: &interaction.Agent{ID: "bridge", Name: "claude"},
		Questions: []interaction.Question{{ID: "db", Question: "Which?", MultiSelect: true,
			Options: []interaction.Option{{Label: "a"}, {Label: "b"}}}},
	}
	done := ask(context.Background(), c, req)
	got := f.Next(t)
	if got.Req.Agent == nil || got.Req.Agent.Name != "claude" || !got.Req.Questions[0].MultiSelect {
		t.Errorf("server saw %+v", got.Req)
	}
	got.Answer(interaction.Answer{Answers: []interaction.AnswerItem{{ID: "db", Selected: []string{"a", "b"}}}})
	r := await(t, done)
	if r.err != nil || len(r.ans.Answers) != 1 || strings.Join(r.ans.Answers[0].Selected, ",") != "a,b" {
		t.Errorf("Ask = %+v, %v", r.ans, r.err)
	}
}

func TestClientServerErrors(t *testing.T) {
	f := interactiontest.NewProvider()
	srv := startServer(t, f, Options{})
	c := dial(t, srv.path)

	// Validation happens on the server and keeps its message.
	_, err := c.Ask(context.Background(), interaction.Request{Questions: []interaction.Question{{ID: "db"}}})
	var e *interaction.Error
	if !errors.As(err, &e) || e.Code != interaction.CodeInvalidRequest || !strings.Contains(e.Message, `question 1 (id "db")`) {
		t.Errorf("invalid request: %v", err)
	}
	_, err = c.Ask(context.Background(), interaction.Request{})
	if want := (interaction.Request{}).Validate(); !errors.As(err, &e) || e.Error() != want.Error() {
		t.Errorf("empty request: %v, want %v", err, want)
	}

	done := ask(context.Background(), c, question("?"))
	f.Next(t).Fail(interaction.Errorf(interaction.CodeDeclined, "the human declined"))
	r := await(t, done)
	if !errors.As(r.err, &e) || e.Code != interaction.CodeDeclined || e.Message != "the human declined" {
		t.Errorf("declined: %v", r.err)
	}
}

func TestClientContextWithdraws(t *testing.T) {
	f := interactiontest.NewProvider()
	srv := startServer(t, f, Options{})
	c := dial(t, srv.path)

	ctx, cancel := context.WithCancel(context.Background())
	done := ask(ctx, c, question("?"))
	got := f.Next(t)
	cancel()
	r := await(t, done)
	if interaction.CodeOf(r.err) != interaction.CodeAborted {
		t.Errorf("Ask = %v, want ASK_ABORTED", r.err)
	}
	waitDone(t, got.Ctx, "the client's context")

	// The connection goes on serving.
	done = ask(context.Background(), c, question("again"))
	f.Next(t).Answer(interaction.Answer{})
	if r := await(t, done); r.err != nil {
		t.Errorf("Ask after a withdrawn one: %v", r.err)
	}

	// An ended context fails before anything is sent.
	if _, err := c.Ask(ctx, question("?")); interaction.CodeOf(err) != interaction.CodeAborted {
		t.Errorf("Ask with an ended context: %v", err)
	}
}

func TestClientCloseWithdraws(t *testing.T) {
	f := interactiontest.NewProvider()
	srv := startServer(t, f, Options{})
	c := dial(t, srv.path)

	done := ask(context.Background(), c, question("?"))
	got := f.Next(t)
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	c.Close() //nolint:gosec // a test's set-up or clean-up; a failure shows in the assertion after it (idempotent)
	waitDone(t, got.Ctx, "Client.Close")
	if r := await(t, done); interaction.CodeOf(r.err) != interaction.CodeProviderClosed {
		t.Errorf("waiting Ask = %v, want PROVIDER_CLOSED", r.err)
	}
	if _, err := c.Ask(context.Background(), question("?")); interaction.CodeOf(err) != interaction.CodeProviderClosed {
		t.Errorf("Ask after Close = %v, want PROVIDER_CLOSED", err)
	}
}

func TestClientServerStops(t *testing.T) {
	f := interactiontest.NewProvider()
	srv := startServer(t, f, Options{})
	c := dial(t, srv.path)

	done := ask(context.Background(), c, question("?"))
	f.Next(t)
	srv.stop()
	r := await(t, done)
	if interaction.CodeOf(r.err) != interaction.CodeProviderClosed {
		t.Errorf("Ask = %v, want PROVIDER_CLOSED", r.err)
	}
	if _, err := c.Ask(context.Background(), question("?")); interaction.CodeOf(err) != interaction.CodeProviderClosed ||
		!strings.Contains(err.Error(), srv.path) {
		t.Errorf("Ask after the server stopped = %v, want PROVIDER_CLOSED naming the socket", err)
	}
	if err := c.Close(); err != nil {
		t.Errorf("Close after the server stopped: %v", err)
	}
}

func TestClientConcurrency(t *testing.T) {
	f := interactiontest.NewProvider()
	srv := startServer(t, f, Options{})
	c := dial(t, srv.path)

	const n = 20
	// Answer all n only once every one is waiting, in reverse order of
	// arrival, each with its own question text.
	go func() {
		calls := make([]*interactiontest.Call, 0, n)
		for range n {
			calls = append(calls, <-f.Calls())
		}
		for i := n - 1; i >= 0; i-- {
			calls[i].Answer(interaction.Answer{Answers: []interaction.AnswerItem{
				{ID: "q", Custom: "re: " + calls[i].Req.Questions[0].Question}}})
		}
	}()

	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			text := fmt.Sprintf("question %d", i)
			ans, err := c.Ask(context.Background(), question(text))
			if err != nil {
				t.Errorf("%s: %v", text, err)
				return
			}
			if got := ans.Answers[0].Custom; got != "re: "+text {
				t.Errorf("%s answered with %q", text, got)
			}
		})
	}
	wg.Wait()
}

func TestClientAsProvider(t *testing.T) {
	f := interactiontest.NewProvider()
	srv := startServer(t, f, Options{})
	c := dial(t, srv.path)

	svc := interaction.NewService()
	unregister, err := svc.Register(c)
	if err != nil {
		t.Fatal(err)
	}
	defer unregister()
	go func() { f.Next(t).Answer(interaction.Answer{}) }()
	ans, err := svc.Ask(context.Background(), question("?"))
	if err != nil || len(ans.Answers) != 1 || !ans.Answers[0].Skipped() {
		t.Errorf("Service.Ask through the client = %+v, %v", ans, err)
	}
}
