package interaction

import (
	"context"
	"errors"
	"sync"
)

// Service routes requests to the single active [Provider]. It is safe for
// concurrent use, and its zero value is ready to use.
type Service struct {
	mu     sync.Mutex
	active *registration
}

// registration is one successful Register call; its identity lets an
// unregister function remove only its own provider.
type registration struct {
	provider Provider
}

// NewService returns a Service with no provider registered.
func NewService() *Service {
	return &Service{}
}

// Register makes p the active provider. Only one provider may be active at
// a time: while one is, Register fails with [CodeDuplicateProvider]. A nil
// p is refused with [CodeNoProvider].
//
// The returned unregister function removes this registration. It is
// idempotent, and it never removes a provider registered later.
// Requests already handed to p are not affected; they end through their own
// contexts or p's answers.
func (s *Service) Register(p Provider) (unregister func(), err error) {
	if p == nil {
		return nil, Errorf(CodeNoProvider, "cannot register a nil provider")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.active != nil {
		return nil, Errorf(CodeDuplicateProvider,
			"another user interface is already registered to answer questions; only one may be active at a time")
	}
	reg := &registration{provider: p}
	s.active = reg
	var once sync.Once
	return func() {
		once.Do(func() {
			s.mu.Lock()
			defer s.mu.Unlock()
			if s.active == reg {
				s.active = nil
			}
		})
	}, nil
}

// Ask puts req to the human through the active provider and returns the
// answer. ctx is the request's lifetime: when it ends, the provider
// withdraws the questions.
//
// Ask fails fast, in this order: when ctx has already ended (see
// [ContextError]: ASK_ABORTED, or the context's own *Error cause such as
// ASK_TIMEOUT); when req has no questions (EMPTY_QUESTIONS) or is otherwise
// invalid (INVALID_REQUEST, see [Request.Validate]); when no provider is
// registered (NO_PROVIDER). Otherwise it calls the provider without holding
// any lock, so many requests may wait at once.
//
// A provider error that carries an *Error is returned as is. Any other
// provider error becomes the context's error when ctx has ended, and
// INTERNAL otherwise.
//
// The service routes and normalises; it does not judge what a provider
// answered, so a human's answer is never thrown away (a provider checks
// its own answers, with [Answer.Check] in its tests). The answer comes
// back with exactly one item per question, in request order: the first
// item for each question id, questions the provider left out filled in as
// [Skip], items for ids the request does not have dropped, Selected never
// nil, and Selected emptied when Custom is set (custom text overrides the
// choices).
func (s *Service) Ask(ctx context.Context, req Request) (Answer, error) {
	if err := ContextError(ctx); err != nil {
		return Answer{}, err
	}
	if err := req.Validate(); err != nil {
		return Answer{}, err
	}
	s.mu.Lock()
	reg := s.active
	s.mu.Unlock()
	if reg == nil {
		return Answer{}, Errorf(CodeNoProvider,
			"no user interface is attached to answer questions; start one (for example the asktui terminal app) and ask again")
	}

	ans, err := safeAsk(ctx, reg.provider, req)
	if err != nil {
		var e *Error
		if errors.As(err, &e) {
			return Answer{}, err
		}
		if cerr := ContextError(ctx); cerr != nil {
			return Answer{}, cerr
		}
		return Answer{}, WrapError(CodeInternal, err, "the user interface failed: %v", err)
	}
	return normalize(req, ans), nil
}

// safeAsk asks p, turning a panic in it into an INTERNAL error: a bug in
// one provider fails the one request, instead of ending the process with
// the terminal still in the UI's hands and every other caller's request
// lost.
func safeAsk(ctx context.Context, p Provider, req Request) (ans Answer, err error) {
	defer func() {
		if r := recover(); r != nil {
			ans, err = Answer{}, Errorf(CodeInternal, "the user interface failed while asking: %v", r)
		}
	}()
	return p.Ask(ctx, req)
}

// normalize returns ans with exactly one item per question of req, in
// request order: the first item for each id, missing items filled in as
// skipped, Selected never nil and empty when Custom is set.
func normalize(req Request, ans Answer) Answer {
	byID := make(map[string]AnswerItem, len(ans.Answers))
	for _, item := range ans.Answers {
		if _, dup := byID[item.ID]; !dup {
			byID[item.ID] = item
		}
	}
	out := make([]AnswerItem, len(req.Questions))
	for i, q := range req.Questions {
		item, ok := byID[q.ID]
		if !ok {
			item = Skip(q.ID)
		}
		if item.Selected == nil || item.Custom != "" {
			item.Selected = []string{}
		}
		out[i] = item
	}
	return Answer{Answers: out}
}
