package interaction

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// answerWith returns a provider that answers every request with a.
func answerWith(a Answer) Provider {
	return ProviderFunc(func(context.Context, Request) (Answer, error) { return a, nil })
}

// mustRegister registers p on s for the rest of the test.
func mustRegister(t *testing.T, s *Service, p Provider) {
	t.Helper()
	unregister, err := s.Register(p)
	if err != nil {
		t.Fatalf("Register: %v", err)
	}
	t.Cleanup(unregister)
}

func TestServiceFailFast(t *testing.T) {
	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	timedOut, cancelTimeout := context.WithTimeoutCause(context.Background(), 0, Errorf(CodeTimeout, "no answer within 0s"))
	defer cancelTimeout()
	live := context.Background()
	valid := req(q("a"))
	invalid := req(q(""))

	tests := []struct {
		name     string
		ctx      context.Context
		req      Request
		provider bool
		code     Code
	}{
		{"canceled beats everything", canceled, Request{}, false, CodeAborted},
		{"timeout cause is kept", timedOut, Request{}, false, CodeTimeout},
		{"canceled with provider", canceled, valid, true, CodeAborted},
		{"empty beats invalid and no provider", live, Request{}, false, CodeEmptyQuestions},
		{"invalid beats no provider", live, invalid, false, CodeInvalidRequest},
		{"invalid with provider", live, invalid, true, CodeInvalidRequest},
		{"no provider", live, valid, false, CodeNoProvider},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := NewService()
			if tt.provider {
				mustRegister(t, s, ProviderFunc(func(context.Context, Request) (Answer, error) {
					t.Error("the provider was called for a request that should fail fast")
					return Answer{}, nil
				}))
			}
			ans, err := s.Ask(tt.ctx, tt.req)
			if got := CodeOf(err); got != tt.code {
				t.Fatalf("Ask error = %v, want code %s", err, tt.code)
			}
			if !reflect.DeepEqual(ans, Answer{}) {
				t.Errorf("Ask returned %+v with an error", ans)
			}
		})
	}
}

func TestServiceProviderErrors(t *testing.T) {
	declined := Errorf(CodeDeclined, "the human declined")
	closed := fmt.Errorf("tui: %w", Errorf(CodeProviderClosed, "the terminal closed"))
	plain := errors.New("render failed")

	tests := []struct {
		name    string
		provide func(ctx context.Context, cancel context.CancelCauseFunc) error
		code    Code
		wrapped error
	}{
		{"declined is kept", func(context.Context, context.CancelCauseFunc) error { return declined }, CodeDeclined, declined},
		{"wrapped *Error is kept", func(context.Context, context.CancelCauseFunc) error { return closed }, CodeProviderClosed, closed},
		{"plain error becomes INTERNAL", func(context.Context, context.CancelCauseFunc) error { return plain }, CodeInternal, plain},
		{"plain error after the caller left", func(ctx context.Context, cancel context.CancelCauseFunc) error {
			cancel(context.Canceled)
			return ctx.Err()
		}, CodeAborted, context.Canceled},
		{"caller's timeout cause", func(ctx context.Context, cancel context.CancelCauseFunc) error {
			cancel(Errorf(CodeTimeout, "no answer within 1m"))
			return ctx.Err()
		}, CodeTimeout, nil},
		{"provider reports ContextError", func(ctx context.Context, cancel context.CancelCauseFunc) error {
			cancel(errors.New("agent stopped"))
			return ContextError(ctx)
		}, CodeAborted, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancelCause(context.Background())
			defer cancel(nil)
			s := NewService()
			mustRegister(t, s, ProviderFunc(func(ctx context.Context, _ Request) (Answer, error) {
				return Answer{Answers: []AnswerItem{Skip("a")}}, tt.provide(ctx, cancel)
			}))
			ans, err := s.Ask(ctx, req(q("a")))
			if got := CodeOf(err); got != tt.code {
				t.Fatalf("Ask error = %v, want code %s", err, tt.code)
			}
			if tt.wrapped != nil && !errors.Is(err, tt.wrapped) {
				t.Errorf("Ask error %v does not wrap %v", err, tt.wrapped)
			}
			if ans.Answers != nil {
				t.Errorf("Ask returned answers %+v with an error", ans.Answers)
			}
		})
	}
}

// The service hands a provider's answer back as it came, normalised, and
// never replaces it with an error: the upstream harness's own service test
// (a provider answers a question without options with a selection).
func TestServiceDelegatesWithoutJudging(t *testing.T) {
	confirm := Request{Questions: []Question{{ID: "confirm", Question: "Proceed?"}}}
	s := NewService()
	mustRegister(t, s, answerWith(Answer{Answers: []AnswerItem{{ID: "confirm", Selected: []string{"yes"}}}}))
	ans, err := s.Ask(context.Background(), confirm)
	if err != nil || len(ans.Answers) != 1 || ans.Answers[0].ID != "confirm" || ans.Answers[0].Selected[0] != "yes" {
		t.Fatalf("got %+v, %v; want the provider's answer unchanged", ans, err)
	}
	// Check still says what is off, for providers' own tests.
	if err := ans.Check(confirm); CodeOf(err) != CodeInvalidAnswer {
		t.Fatalf("Check = %v", err)
	}
}

func TestServiceNormalizesWhatItDoesNotJudge(t *testing.T) {
	s := NewService()
	mustRegister(t, s, answerWith(Answer{Answers: []AnswerItem{
		{ID: "zz", Selected: []string{"stray"}},
		{ID: "db", Selected: []string{"SQLite", "Postgres"}, Custom: "own"},
		{ID: "db", Selected: []string{"second item"}},
	}}))
	ans, err := s.Ask(context.Background(), checkReq)
	if err != nil {
		t.Fatal(err)
	}
	if len(ans.Answers) != len(checkReq.Questions) {
		t.Fatalf("%d items for %d questions: %+v", len(ans.Answers), len(checkReq.Questions), ans)
	}
	db, _ := ans.Get("db")
	if db.Custom != "own" || len(db.Selected) != 0 {
		t.Fatalf("db = %+v: the first item, custom overriding the choices", db)
	}
	for _, item := range ans.Answers {
		if item.ID == "zz" {
			t.Fatal("an item for no question was kept")
		}
	}
}

func TestServiceNormalizes(t *testing.T) {
	s := NewService()
	mustRegister(t, s, answerWith(Answer{Answers: []AnswerItem{
		{ID: "notes", Custom: "small"},
		{ID: "db"}, // nil Selected
	}}))
	ans, err := s.Ask(context.Background(), checkReq)
	if err != nil {
		t.Fatal(err)
	}
	want := Answer{Answers: []AnswerItem{
		{ID: "db", Selected: []string{}},
		{ID: "langs", Selected: []string{}},
		{ID: "notes", Selected: []string{}, Custom: "small"},
	}}
	if !reflect.DeepEqual(ans, want) {
		t.Errorf("Ask = %#v, want %#v", ans, want)
	}
	for _, item := range ans.Answers {
		if item.Selected == nil {
			t.Errorf("item %q has nil Selected", item.ID)
		}
	}

	// An answer with no items at all skips every question.
	s2 := &Service{} // the zero value is usable
	mustRegister(t, s2, answerWith(Answer{}))
	ans, err = s2.Ask(context.Background(), checkReq)
	if err != nil {
		t.Fatal(err)
	}
	for i, item := range ans.Answers {
		if item.ID != checkReq.Questions[i].ID || !item.Skipped() || item.Selected == nil {
			t.Errorf("item %d = %#v, want Skip(%q)", i, item, checkReq.Questions[i].ID)
		}
	}
}

func TestServiceRegister(t *testing.T) {
	s := NewService()
	first := answerWith(Answer{Answers: []AnswerItem{{ID: "a", Custom: "first"}}})
	second := answerWith(Answer{Answers: []AnswerItem{{ID: "a", Custom: "second"}}})
	ask := func() (string, Code) {
		ans, err := s.Ask(context.Background(), req(q("a")))
		if err != nil {
			return "", CodeOf(err)
		}
		return ans.Answers[0].Custom, ""
	}

	if _, err := s.Register(nil); CodeOf(err) != CodeNoProvider {
		t.Errorf("Register(nil) = %v, want NO_PROVIDER", err)
	}

	unregisterFirst, err := s.Register(first)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := ask(); got != "first" {
		t.Errorf("answer from %q, want first", got)
	}
	if un, err := s.Register(second); CodeOf(err) != CodeDuplicateProvider || un != nil {
		t.Fatalf("second Register = %v, %v; want nil, DUPLICATE_PROVIDER", un != nil, err)
	}

	unregisterFirst()
	unregisterFirst() // idempotent
	if _, code := ask(); code != CodeNoProvider {
		t.Errorf("after unregister: code %s, want NO_PROVIDER", code)
	}

	unregisterSecond, err := s.Register(second)
	if err != nil {
		t.Fatalf("Register after unregister: %v", err)
	}
	unregisterFirst() // a stale unregister must not remove the new provider
	if got, _ := ask(); got != "second" {
		t.Errorf("answer from %q, want second", got)
	}
	unregisterSecond()
	if _, code := ask(); code != CodeNoProvider {
		t.Errorf("after second unregister: code %s, want NO_PROVIDER", code)
	}
}

// TestServiceConcurrent runs many requests at once. The provider holds each
// request until all of them have arrived, so the test also proves that Ask
// holds no lock while the provider runs.
func TestServiceConcurrent(t *testing.T) {
	const n = 64
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()

	var arrived atomic.Int32
	all := make(chan struct{})
	s := NewService()
	mustRegister(t, s, ProviderFunc(func(ctx context.Context, r Request) (Answer, error) {
		if arrived.Add(1) == n {
			close(all)
		}
		select {
		case <-all:
		case <-ctx.Done():
			return Answer{}, ContextError(ctx)
		}
		q := r.Questions[0]
		return Answer{Answers: []AnswerItem{{ID: q.ID, Selected: []string{q.Options[0].Label}}}}, nil
	}))

	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Go(func() {
			id := fmt.Sprintf("q%d", i)
			label := fmt.Sprintf("option %d", i)
			ans, err := s.Ask(ctx, req(q(id, label)))
			switch {
			case err != nil:
				errs <- err
			case len(ans.Answers) != 1 || ans.Answers[0].ID != id || ans.Answers[0].Selected[0] != label:
				errs <- fmt.Errorf("request %d got %+v", i, ans)
			}
		})
	}
	// Registration races with the requests too.
	wg.Go(func() {
		for range n {
			if _, err := s.Register(answerWith(Answer{})); CodeOf(err) != CodeDuplicateProvider {
				errs <- fmt.Errorf("concurrent Register = %w, want DUPLICATE_PROVIDER", err)
			}
		}
	})
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// TestServiceAbortWhileWaiting cancels a request that the provider is
// holding and checks the provider sees the cancellation.
func TestServiceAbortWhileWaiting(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	waiting := make(chan struct{})
	s := NewService()
	mustRegister(t, s, ProviderFunc(func(ctx context.Context, _ Request) (Answer, error) {
		close(waiting)
		<-ctx.Done()
		return Answer{}, ContextError(ctx)
	}))
	done := make(chan error, 1)
	go func() {
		_, err := s.Ask(ctx, req(q("a")))
		done <- err
	}()
	<-waiting
	cancel()
	if err := <-done; CodeOf(err) != CodeAborted || !errors.Is(err, context.Canceled) {
		t.Errorf("Ask = %v, want ASK_ABORTED wrapping context.Canceled", err)
	}
}

func TestServiceProviderPanicIsAnError(t *testing.T) {
	s := NewService()
	mustRegister(t, s, ProviderFunc(func(context.Context, Request) (Answer, error) {
		panic("index out of range")
	}))
	_, err := s.Ask(context.Background(), req(Question{ID: "q", Question: "Go?"}))
	var e *Error
	if !errors.As(err, &e) || e.Code != CodeInternal || !strings.Contains(e.Message, "index out of range") {
		t.Fatalf("err = %v, want INTERNAL naming the panic", err)
	}
}
