package history

import (
	"context"
	"errors"
	"time"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/interaction/inbox"
)

// Wrap returns a provider that forwards every Ask to p and appends two
// [Record]s of it to l. The first, written before p is asked, has the
// outcome [Asked], so a process killed while requests wait still leaves a
// trace of each. The second, with the same ID, says how the request ended:
// when it arrived, its agent, the request, the [interaction.Outcome] (see
// [interaction.Classify]), the time waited, and the answer, or the error
// and any draft it carries (see [DraftError]).
//
// The returned provider's Ask returns exactly what p's Ask returned, even
// when a record cannot be written: then onError, if not nil, receives the
// error. The record is synced to disk before Ask returns. now is the clock
// (nil means time.Now).
//
// When p implements [interaction.ActivitySink] the returned provider does
// too and forwards Report to p; otherwise it does not. With a nil l, Wrap
// returns p itself.
func Wrap(p interaction.Provider, l *Log, now func() time.Time, onError func(error)) interaction.Provider {
	if l == nil {
		return p
	}
	if now == nil {
		now = time.Now
	}
	r := &recorder{p: p, log: l, now: now, onError: onError}
	if sink, ok := p.(interaction.ActivitySink); ok {
		return &sinkRecorder{recorder: r, sink: sink}
	}
	return r
}

// Settler is a provider with several views ([inbox.Inbox]): it says which
// view settled a request and what the others had drafted, and [Wrap]
// records both.
type Settler interface {
	AskSettlement(ctx context.Context, req interaction.Request) inbox.Settlement
}

// Ruler is a provider that may answer a request by one of the human's
// standing rules instead of asking (internal/rules' wrapper): it says how
// the request was settled, as a [Settler] does, and which rule answered,
// if one did; [Wrap] records both. It is asked in preference to Settler.
type Ruler interface {
	AskRuled(ctx context.Context, req interaction.Request) (inbox.Settlement, *Ruling)
}

// recorder is the provider Wrap returns.
type recorder struct {
	p       interaction.Provider
	log     *Log
	now     func() time.Time
	onError func(error)
}

// sinkRecorder is the provider Wrap returns for a provider that shows
// activity.
type sinkRecorder struct {
	*recorder
	sink interaction.ActivitySink
}

// Report forwards a to the wrapped provider.
func (s *sinkRecorder) Report(a interaction.Activity) { s.sink.Report(a) }

// Ask forwards to the wrapped provider and records the outcome.
func (r *recorder) Ask(ctx context.Context, req interaction.Request) (interaction.Answer, error) {
	start := r.now()
	id := r.log.newID()
	asked := Record{ID: id, Time: start, Agent: req.Agent, Outcome: Asked, Request: req, Permission: req.Permission}
	if aerr := r.log.Append(asked); aerr != nil && r.onError != nil {
		r.onError(aerr)
	}
	var (
		ans      interaction.Answer
		err      error
		settled  inbox.Settlement
		hasViews bool
		ruling   *Ruling
	)
	switch p := r.p.(type) {
	case Ruler:
		settled, ruling = p.AskRuled(ctx, req)
		ans, err, hasViews = settled.Answer, settled.Err, true
	case Settler:
		settled, hasViews = p.AskSettlement(ctx, req), true
		ans, err = settled.Answer, settled.Err
	default:
		ans, err = r.p.Ask(ctx, req)
	}
	rec := NewRecord(ctx, start, r.now().Sub(start), req, ans, err)
	rec.ID = id
	if hasViews {
		rec.By, rec.Drafts = settled.By, settled.Drafts
	}
	rec.Rule = ruling
	if aerr := r.log.Append(rec); aerr != nil && r.onError != nil {
		r.onError(aerr)
	}
	return ans, err
}

// NewRecord returns the record of request req that arrived at start,
// waited for waited and ended with ans and err, as [Wrap] writes it: the
// outcome from [interaction.Classify]; the answer when err is nil; otherwise the error
// as an *[interaction.Error] (a provider error without a code becomes the
// context's error when ctx has ended, as [interaction.Service.Ask] reports
// it, and INTERNAL otherwise) and the draft of a [DraftError]. waited is
// kept to the millisecond.
func NewRecord(ctx context.Context, start time.Time, waited time.Duration, req interaction.Request, ans interaction.Answer, err error) Record {
	rec := Record{
		Time:       start,
		Agent:      req.Agent,
		Request:    req,
		Permission: req.Permission,
		Waited:     Duration(waited.Round(time.Millisecond)),
	}
	if err == nil {
		rec.Outcome = interaction.Classify(ans, nil)
		rec.Answer = &ans
		return rec
	}
	e := codedError(ctx, err)
	rec.Error = e
	rec.Outcome = interaction.Classify(interaction.Answer{}, e)
	var de DraftError
	if errors.As(err, &de) {
		rec.Draft = de.Draft()
	}
	return rec
}

// codedError returns err as the *interaction.Error a caller of
// interaction.Service.Ask sees.
func codedError(ctx context.Context, err error) *interaction.Error {
	var e *interaction.Error
	if errors.As(err, &e) && e != nil {
		return e
	}
	if cerr := interaction.ContextError(ctx); cerr != nil && errors.As(cerr, &e) {
		return e
	}
	return interaction.NewErrorEnvelope(err).Error
}
