package inbox

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"testing"

	"go.uber.org/goleak"

	"github.com/asktui/asktui/interaction"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// recorder is a view that keeps every event, and signals each arrival.
type recorder struct {
	mu      sync.Mutex
	events  []Event
	arrived chan *Request
}

func newRecorder() *recorder { return &recorder{arrived: make(chan *Request, 100)} }

func (r *recorder) Notify(e Event) {
	r.mu.Lock()
	r.events = append(r.events, e)
	r.mu.Unlock()
	if e.Kind == Arrived {
		r.arrived <- e.Request
	}
}

func (r *recorder) settled() []Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []Event
	for _, e := range r.events {
		if e.Kind == Settled {
			out = append(out, e)
		}
	}
	return out
}

func question(id string) interaction.Request {
	return interaction.Request{Questions: []interaction.Question{{ID: id, Question: "Deploy?", Options: []interaction.Option{{Label: "Yes"}, {Label: "No"}}}}}
}

func yes(id string) interaction.Answer {
	return interaction.Answer{Answers: []interaction.AnswerItem{{ID: id, Selected: []string{"Yes"}}}}
}

type result struct {
	ans interaction.Answer
	err error
}

func askAsync(ctx context.Context, in *Inbox, req interaction.Request) <-chan result {
	ch := make(chan result, 1)
	go func() {
		a, err := in.Ask(ctx, req)
		ch <- result{a, err}
	}()
	return ch
}

func TestFirstViewToAnswerWins(t *testing.T) {
	in := New(nil)
	a, b := newRecorder(), newRecorder()
	ha, hb := in.Attach("terminal", a), in.Attach("ssh bob", b)
	got := askAsync(context.Background(), in, question("q"))
	req := <-a.arrived
	<-b.arrived

	if s, ok := hb.Answer(req.ID, yes("q")); !ok || s.By != "ssh bob" {
		t.Fatalf("first answer: ok=%v settlement=%+v", ok, s)
	}
	s, ok := ha.Answer(req.ID, interaction.Answer{Answers: []interaction.AnswerItem{{ID: "q", Selected: []string{"No"}}}})
	if ok || s.By != "ssh bob" || s.Err != nil || s.Answer.Answers[0].Selected[0] != "Yes" {
		t.Fatalf("second answer won or was not told who answered: ok=%v %+v", ok, s)
	}
	r := <-got
	if r.err != nil || r.ans.Answers[0].Selected[0] != "Yes" {
		t.Fatalf("caller got %+v %v, want Yes", r.ans, r.err)
	}
	for _, v := range []*recorder{a, b} {
		if st := v.settled(); len(st) != 1 || st[0].Settlement.By != "ssh bob" {
			t.Fatalf("view was not told once who answered: %+v", st)
		}
	}
}

func TestDeclineReturnsDeclined(t *testing.T) {
	in := New(nil)
	v := newRecorder()
	h := in.Attach("terminal", v)
	got := askAsync(context.Background(), in, question("q"))
	req := <-v.arrived
	if _, ok := h.Decline(req.ID); !ok {
		t.Fatal("decline lost")
	}
	if r := <-got; interaction.CodeOf(r.err) != interaction.CodeDeclined {
		t.Fatalf("err = %v, want ASK_DECLINED", r.err)
	}
}

func TestWithdrawalCarriesTheLatestDraftAndReachesEveryView(t *testing.T) {
	in := New(nil)
	a, b := newRecorder(), newRecorder()
	ha, hb := in.Attach("a", a), in.Attach("b", b)
	ctx, cancel := context.WithCancel(context.Background())
	got := askAsync(ctx, in, question("q"))
	req := <-a.arrived
	<-b.arrived
	first := yes("q")
	ha.SaveDraft(req.ID, &first)
	second := interaction.Answer{Answers: []interaction.AnswerItem{{ID: "q", Selected: []string{}, Custom: "later"}}}
	hb.SaveDraft(req.ID, &second)
	cancel()
	r := <-got
	if interaction.CodeOf(r.err) != interaction.CodeAborted {
		t.Fatalf("err = %v, want ASK_ABORTED", r.err)
	}
	if d := DraftOf(r.err); d == nil || d.Answers[0].Custom != "later" {
		t.Fatalf("draft = %+v, want the latest one", d)
	}
	var de interface{ Draft() *interaction.Answer }
	if !errors.As(r.err, &de) {
		t.Fatal("the withdrawal error does not offer its draft to a history")
	}
	for _, v := range []*recorder{a, b} {
		st := v.settled()
		if len(st) != 1 || st[0].Settlement.By != "" || interaction.CodeOf(st[0].Settlement.Err) != interaction.CodeAborted {
			t.Fatalf("view not told of the withdrawal: %+v", st)
		}
	}
	if _, ok := ha.Answer(req.ID, first); ok {
		t.Fatal("an answer after the withdrawal was taken")
	}
}

func TestClearedDraftFallsBackToAnotherViews(t *testing.T) {
	in := New(nil)
	a, b := newRecorder(), newRecorder()
	ha, hb := in.Attach("a", a), in.Attach("b", b)
	ctx, cancel := context.WithCancel(context.Background())
	got := askAsync(ctx, in, question("q"))
	req := <-a.arrived
	d := yes("q")
	ha.SaveDraft(req.ID, &d)
	hb.SaveDraft(req.ID, &d)
	hb.SaveDraft(req.ID, nil)
	cancel()
	if r := <-got; DraftOf(r.err) == nil {
		t.Fatal("a cleared draft on one view dropped the other view's")
	}
}

func TestCloseFailsEveryWaitingAndLaterAsk(t *testing.T) {
	in := New(nil)
	v := newRecorder()
	in.Attach("t", v)
	var chans []<-chan result
	for i := range 5 {
		chans = append(chans, askAsync(context.Background(), in, question(fmt.Sprint(i))))
		<-v.arrived
	}
	in.Close()
	for _, ch := range chans {
		if r := <-ch; interaction.CodeOf(r.err) != interaction.CodeProviderClosed {
			t.Fatalf("err = %v, want PROVIDER_CLOSED", r.err)
		}
	}
	if _, err := in.Ask(context.Background(), question("late")); interaction.CodeOf(err) != interaction.CodeProviderClosed {
		t.Fatalf("ask after close: %v", err)
	}
	in.Close()
}

func TestLateViewSeesWaitingRequestsAgentsAndActivity(t *testing.T) {
	in := New(nil)
	first := newRecorder()
	in.Attach("first", first)
	agent := interaction.Agent{ID: "s1", Name: "claude"}
	in.Report(interaction.Activity{Agent: agent, Kind: interaction.ActivityConnected})
	in.Report(interaction.Activity{Agent: agent, Kind: interaction.ActivityMessage, Text: "hello"})
	in.Report(interaction.Activity{Agent: interaction.Agent{ID: "s2"}, Kind: interaction.ActivityConnected})
	in.Report(interaction.Activity{Agent: interaction.Agent{ID: "s2"}, Kind: interaction.ActivityDisconnected})
	ctx, cancel := context.WithCancel(context.Background())
	got := askAsync(ctx, in, question("q"))
	<-first.arrived

	late := newRecorder()
	in.Attach("late", late)
	if len(late.events) != 3 {
		t.Fatalf("late view got %d events, want connected, message, arrived: %+v", len(late.events), late.events)
	}
	if e := late.events[0]; e.Kind != Activity || e.Activity.Kind != interaction.ActivityConnected || e.Activity.Agent.ID != "s1" {
		t.Fatalf("first event %+v, want s1 connected", e)
	}
	if e := late.events[2]; e.Kind != Arrived || e.Request.Request.Questions[0].ID != "q" {
		t.Fatalf("last event %+v, want the waiting request", e)
	}
	cancel()
	<-got
}

func TestDetachedViewHearsNothing(t *testing.T) {
	in := New(nil)
	v := newRecorder()
	h := in.Attach("t", v)
	h.Detach()
	h.Detach()
	witness := newRecorder()
	in.Attach("witness", witness)
	ctx, cancel := context.WithCancel(context.Background())
	got := askAsync(ctx, in, question("q"))
	<-witness.arrived
	cancel()
	<-got
	if len(v.events) != 0 {
		t.Fatalf("detached view got %+v", v.events)
	}
}

func TestAskWithEndedContextNeverWaits(t *testing.T) {
	in := New(nil)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := in.Ask(ctx, question("q")); interaction.CodeOf(err) != interaction.CodeAborted {
		t.Fatalf("err = %v", err)
	}
	if len(in.Waiting()) != 0 {
		t.Fatal("request queued")
	}
}

// TestInvalidRequestsNeverReachAView asks the inbox directly, as a
// program's provider is asked without a Service in front: a request that
// Service would refuse is refused here with the same code and message,
// and no view is told of it.
func TestInvalidRequestsNeverReachAView(t *testing.T) {
	in := New(nil)
	defer in.Close()
	rec := newRecorder()
	in.Attach("screen", rec)
	long := make([]byte, interaction.MaxLabelLen+1)
	for i := range long {
		long[i] = 'x'
	}
	tests := map[string]interaction.Request{
		"no questions":  {},
		"duplicate ids": {Questions: append(question("q").Questions, question("q").Questions...)},
		"long label":    {Questions: []interaction.Question{{ID: "q", Question: "Pick", Options: []interaction.Option{{Label: string(long)}}}}},
		"invalid UTF-8": {Questions: []interaction.Question{{ID: "q", Question: "Pick \xff"}}},
		"too many":      {Questions: make([]interaction.Question, interaction.MaxQuestions+1)},
	}
	for name, req := range tests {
		// A request that reached the view is withdrawn at once, so the
		// test fails instead of waiting for an answer.
		ctx, cancel := context.WithCancel(context.Background())
		go func() {
			select {
			case <-rec.arrived:
				cancel()
			case <-ctx.Done():
			}
		}()
		_, err := in.Ask(ctx, req)
		cancel()
		want := req.Validate()
		if want == nil || err == nil || err.Error() != want.Error() {
			t.Errorf("%s: Ask returned %v, want Validate's %v", name, err, want)
		}
	}
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if len(rec.events) != 0 || len(in.Waiting()) != 0 {
		t.Errorf("invalid requests reached the view: %d events, %d waiting", len(rec.events), len(in.Waiting()))
	}
}

// TestManyViewsRaceToAnswer: many views answer many requests at once; each
// caller gets exactly one answer, and every view hears of every outcome
// once, with the same winner.
func TestManyViewsRaceToAnswer(t *testing.T) {
	in := New(nil)
	const views, asks = 8, 50
	var recs []*recorder
	var hs []*Handle
	for i := range views {
		r := newRecorder()
		r.arrived = make(chan *Request, asks)
		recs = append(recs, r)
		hs = append(hs, in.Attach(fmt.Sprint("v", i), r))
	}
	var chans []<-chan result
	for i := range asks {
		chans = append(chans, askAsync(context.Background(), in, question(fmt.Sprint(i))))
	}
	var wg sync.WaitGroup
	for i, r := range recs {
		wg.Go(func() {
			for range asks {
				req := <-r.arrived
				hs[i].Answer(req.ID, yes(req.Request.Questions[0].ID))
			}
		})
	}
	wg.Wait()
	for _, ch := range chans {
		if r := <-ch; r.err != nil {
			t.Fatal(r.err)
		}
	}
	winners := map[uint64]string{}
	for _, r := range recs {
		st := r.settled()
		if len(st) != asks {
			t.Fatalf("a view heard %d settlements, want %d", len(st), asks)
		}
		for _, e := range st {
			if w, ok := winners[e.Request.ID]; ok && w != e.Settlement.By {
				t.Fatalf("views disagree on who answered %d: %s vs %s", e.Request.ID, w, e.Settlement.By)
			}
			winners[e.Request.ID] = e.Settlement.By
		}
	}
}

// The views that lost the race keep their drafts in the settlement, for
// the history.
func TestLosersDraftsAreKept(t *testing.T) {
	in := New(nil)
	a, b := newRecorder(), newRecorder()
	ha, hb := in.Attach("terminal", a), in.Attach("ssh bob", b)
	got := askAsync(context.Background(), in, question("q"))
	req := <-a.arrived
	<-b.arrived
	draft := interaction.Answer{Answers: []interaction.AnswerItem{{ID: "q", Selected: []string{}, Custom: "half typed"}}}
	ha.SaveDraft(req.ID, &draft)
	s, _ := hb.Answer(req.ID, yes("q"))
	<-got
	if d, ok := s.Drafts["terminal"]; !ok || d.Answers[0].Custom != "half typed" || len(s.Drafts) != 1 {
		t.Fatalf("drafts %+v, want the terminal's", s.Drafts)
	}
}

// gatedView holds the news of a request's end until the test lets it go.
type gatedView struct {
	arrived chan *Request
	entered chan struct{} // a Settled event is being told
	gate    chan struct{} // closed to let it finish
}

func (g *gatedView) Notify(e Event) {
	switch e.Kind {
	case Arrived:
		g.arrived <- e.Request
	case Settled:
		close(g.entered)
		<-g.gate
	}
}

// TestViewsHearTheEndBeforeTheCaller: by the time Ask returns, every view
// has been told the request ended, so nothing acting on a view (a scripted
// key, the human's next press) can still take it for a waiting request.
func TestViewsHearTheEndBeforeTheCaller(t *testing.T) {
	ends := map[string]func(h *Handle, id uint64, cancel context.CancelFunc){
		"answered":  func(h *Handle, id uint64, _ context.CancelFunc) { h.Answer(id, yes("q")) },
		"declined":  func(h *Handle, id uint64, _ context.CancelFunc) { h.Decline(id) },
		"withdrawn": func(_ *Handle, _ uint64, cancel context.CancelFunc) { cancel() },
	}
	for name, end := range ends {
		t.Run(name, func(t *testing.T) {
			in := New(nil)
			v := &gatedView{arrived: make(chan *Request, 1), entered: make(chan struct{}), gate: make(chan struct{})}
			h := in.Attach("terminal", v)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			got := askAsync(ctx, in, question("q"))
			req := <-v.arrived
			ended := make(chan struct{})
			go func() { end(h, req.ID, cancel); close(ended) }()
			select {
			case <-got:
				t.Fatal("Ask returned before the view heard the request end")
			case <-v.entered:
			}
			runtime.Gosched()
			select {
			case <-got:
				t.Fatal("Ask returned while the view was still being told")
			default:
			}
			close(v.gate)
			<-got
			<-ended
		})
	}
}
