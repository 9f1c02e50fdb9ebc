package script

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/asktui/asktui/interaction"
)

// mustParse parses a scenario or fails the test.
func mustParse(t *testing.T, src string) *Scenario {
	t.Helper()
	sc, err := Parse("test", []byte(src))
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	return sc
}

// fakeAsker answers with fn and records every request.
type fakeAsker struct {
	fn func(ctx context.Context, req interaction.Request) (interaction.Answer, error)

	mu    sync.Mutex
	calls []interaction.Request
}

func (f *fakeAsker) Ask(ctx context.Context, req interaction.Request) (interaction.Answer, error) {
	f.mu.Lock()
	f.calls = append(f.calls, req)
	f.mu.Unlock()
	return f.fn(ctx, req)
}

func (f *fakeAsker) requests() []interaction.Request {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.calls)
}

// answers returns an Ask function that answers every question found in
// table and blocks until the request's context ends when a question is
// not in it.
func answers(table map[string]interaction.AnswerItem) func(context.Context, interaction.Request) (interaction.Answer, error) {
	return func(ctx context.Context, req interaction.Request) (interaction.Answer, error) {
		var ans interaction.Answer
		for _, q := range req.Questions {
			item, ok := table[q.ID]
			if !ok {
				<-ctx.Done()
				return interaction.Answer{}, interaction.ContextError(ctx)
			}
			item.ID = q.ID
			ans.Answers = append(ans.Answers, item)
		}
		return ans, nil
	}
}

func selected(labels ...string) interaction.AnswerItem {
	return interaction.AnswerItem{Selected: labels}
}

func custom(text string) interaction.AnswerItem {
	return interaction.AnswerItem{Selected: []string{}, Custom: text}
}

// failWith returns an Ask function that fails with code.
func failWith(code interaction.Code) func(context.Context, interaction.Request) (interaction.Answer, error) {
	return func(context.Context, interaction.Request) (interaction.Answer, error) {
		return interaction.Answer{}, interaction.Errorf(code, "fake %s", code)
	}
}

// recorder is a Reporter that keeps every activity.
type recorder struct {
	mu   sync.Mutex
	acts []interaction.Activity
}

func (r *recorder) Report(a interaction.Activity) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.acts = append(r.acts, a)
}

func (r *recorder) of(agentID string) []interaction.Activity {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []interaction.Activity
	for _, a := range r.acts {
		if a.Agent.ID == agentID {
			out = append(out, a)
		}
	}
	return out
}

// fakeClock is an instant Sleep that records the durations asked for.
type fakeClock struct {
	mu     sync.Mutex
	sleeps []time.Duration
}

func (c *fakeClock) Sleep(ctx context.Context, d time.Duration) error {
	c.mu.Lock()
	c.sleeps = append(c.sleeps, d)
	c.mu.Unlock()
	return ctx.Err()
}

func (c *fakeClock) durations() []time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.sleeps)
}

// blockingSleep never returns before ctx ends: a timer that never fires.
func blockingSleep(ctx context.Context, _ time.Duration) error {
	<-ctx.Done()
	return ctx.Err()
}

// kinds lists the kinds of activities.
func kinds(acts []interaction.Activity) []interaction.ActivityKind {
	out := make([]interaction.ActivityKind, len(acts))
	for i, a := range acts {
		out[i] = a.Kind
	}
	return out
}

// messages lists the texts of the message activities.
func messages(acts []interaction.Activity) []string {
	var out []string
	for _, a := range acts {
		if a.Kind == interaction.ActivityMessage {
			out = append(out, a.Text)
		}
	}
	return out
}

// waitFor receives from ch or fails the test after a generous guard
// timeout; the timeout only turns a deadlock into a failure.
func waitFor[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(10 * time.Second):
		t.Fatalf("timed out waiting for %s", what)
		var zero T
		return zero
	}
}
