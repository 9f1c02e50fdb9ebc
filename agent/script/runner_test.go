package script

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/asktui/asktui/interaction"
)

func TestRunnerTranscript(t *testing.T) {
	sc := mustParse(t, `
agents:
  - id: scaffold
    name: "Project scaffolder"
    steps:
      - say: "hello"
      - think: {for: 2s, text: "reading"}
      - tool: {name: grep, args: {pattern: "TODO"}, for: 1s, result: "3 matches"}
      - tool: {name: make, for: 3s, result: "boom", failed: true}
      - wait: 500ms
      - ask: {questions: [{id: q, question: "Go on?"}]}
`)
	rec := &recorder{}
	clock := &fakeClock{}
	asker := &fakeAsker{fn: answers(map[string]interaction.AnswerItem{"q": custom("yes")})}
	res, err := (&Runner{Asker: asker, Reporter: rec, Speed: 2, Sleep: clock.Sleep}).Run(context.Background(), sc)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	who := interaction.Agent{ID: "scaffold", Name: "Project scaffolder"}
	got := res.Agents["scaffold"].Transcript
	want := []interaction.Activity{
		{Kind: interaction.ActivityConnected},
		{Kind: interaction.ActivityMessage, Text: "hello"},
		{Kind: interaction.ActivityThinking, Text: "reading"},
		{Kind: interaction.ActivityIdle},
		{Kind: interaction.ActivityToolCall, Tool: "grep", Args: `{"pattern":"TODO"}`, CallID: "scaffold-1"},
		{Kind: interaction.ActivityToolResult, Tool: "grep", Text: "3 matches", CallID: "scaffold-1"},
		{Kind: interaction.ActivityToolCall, Tool: "make", CallID: "scaffold-2"},
		{Kind: interaction.ActivityToolResult, Tool: "make", Text: "boom", CallID: "scaffold-2", Failed: true},
		{Kind: interaction.ActivityDisconnected},
	}
	for i := range want {
		want[i].Agent = who
	}
	if !slices.Equal(got, want) {
		t.Errorf("transcript:\n got %+v\nwant %+v", got, want)
	}
	if reported := rec.of("scaffold"); !slices.Equal(reported, want) {
		t.Errorf("reported:\n got %+v\nwant %+v", reported, want)
	}
	// Durations are divided by the speed.
	if got, want := clock.durations(), []time.Duration{time.Second, 500 * time.Millisecond, 1500 * time.Millisecond, 250 * time.Millisecond}; !slices.Equal(got, want) {
		t.Errorf("sleeps = %v, want %v", got, want)
	}
	reqs := asker.requests()
	if len(reqs) != 1 || reqs[0].Agent == nil || *reqs[0].Agent != who {
		t.Errorf("requests = %+v, want one with Agent %+v", reqs, who)
	}
	ar := res.Agents["scaffold"]
	if item := ar.Answers["q"]; item.Custom != "yes" {
		t.Errorf("answers = %+v", ar.Answers)
	}
	if len(ar.Outcomes) != 1 || ar.Outcomes[0].Kind != interaction.OutcomeAnswered || ar.Outcomes[0].Line != 11 || ar.Err != nil {
		t.Errorf("outcomes = %+v, err %v", ar.Outcomes, ar.Err)
	}
}

func TestRunnerNilReporter(t *testing.T) {
	sc := mustParse(t, "agents: [{id: a, steps: [{say: hi}]}]")
	res, err := (&Runner{Asker: &fakeAsker{}}).Run(context.Background(), sc)
	if err != nil || len(res.Agents["a"].Transcript) != 3 {
		t.Errorf("Run = %+v, %v; want a transcript of 3 without a reporter", res, err)
	}
}

func TestRunnerNeedsAsker(t *testing.T) {
	sc := mustParse(t, "agents: [{id: a, steps: [{say: hi}]}]")
	if _, err := (&Runner{}).Run(context.Background(), sc); err == nil {
		t.Error("Run without an Asker succeeded")
	}
}

func TestRunnerWhen(t *testing.T) {
	const ask = `
agents:
  - id: a
    steps:
      - ask:
          questions:
            - {id: q, question: "Pick", multiSelect: true, options: [Alpha, Beta, Gamma]}
      - when: {id: q, %s, then: [{say: then}], else: [{say: else}]}
`
	const withdraw = `
agents:
  - id: a
    steps:
      - withdraw: {after: 1s, ask: {questions: [{id: q, question: "Pick", options: [Alpha, Beta]}]}}
      - when: {id: q, %s, then: [{say: then}], else: [{say: else}]}
`
	answer := func(item interaction.AnswerItem) func(context.Context, interaction.Request) (interaction.Answer, error) {
		return answers(map[string]interaction.AnswerItem{"q": item})
	}
	tests := []struct {
		name string
		src  string
		cond string
		fn   func(context.Context, interaction.Request) (interaction.Answer, error)
		want string
	}{
		{"label selected", ask, "label: Beta", answer(selected("Beta")), "then"},
		{"label among several", ask, "label: Gamma", answer(selected("Alpha", "Gamma")), "then"},
		{"label not selected", ask, "label: Beta", answer(selected("Alpha")), "else"},
		{"label vs custom", ask, "label: Beta", answer(custom("Beta")), "else"},
		{"any custom", ask, "custom: true", answer(custom("my own")), "then"},
		{"any custom vs label", ask, "custom: true", answer(selected("Alpha")), "else"},
		{"exact custom", ask, `custom: "my own"`, answer(custom("my own")), "then"},
		{"exact custom differs", ask, `custom: "my own"`, answer(custom("other")), "else"},
		{"skipped", ask, "skipped: true", answer(interaction.Skip("q")), "then"},
		{"not skipped", ask, "skipped: true", answer(selected("Alpha")), "else"},
		{"declined", ask, "declined: true", failWith(interaction.CodeDeclined), "then"},
		{"not declined", ask, "declined: true", answer(selected("Alpha")), "else"},
		{"label after decline", ask, "label: Alpha", failWith(interaction.CodeDeclined), "else"},
		{"failed ask", ask, "skipped: true", failWith(interaction.CodeInvalidAnswer), "else"},
		{"withdrawn", withdraw, "withdrawn: true", answers(nil), "then"},
		{"withdraw answered", withdraw, "withdrawn: true", answer(selected("Beta")), "else"},
		{"withdraw answered label", withdraw, "label: Beta", answer(selected("Beta")), "then"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sc := mustParse(t, strings.Replace(tt.src, "%s", tt.cond, 1))
			sleep := (&fakeClock{}).Sleep
			if strings.Contains(tt.name, "answered") {
				sleep = blockingSleep // the withdrawal never fires
			}
			res, err := (&Runner{Asker: &fakeAsker{fn: tt.fn}, Sleep: sleep}).Run(context.Background(), sc)
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			if got := messages(res.Agents["a"].Transcript); !slices.Equal(got, []string{tt.want}) {
				t.Errorf("said %q, want %q", got, tt.want)
			}
		})
	}
}

func TestRunnerWithdraw(t *testing.T) {
	sc := mustParse(t, `
agents:
  - id: docs
    steps:
      - withdraw: {after: 4s, ask: {questions: [{id: q, question: "Still needed?"}], keys: [enter]}}
      - say: "after"
`)
	saw := make(chan error, 1)
	asker := &fakeAsker{fn: func(ctx context.Context, req interaction.Request) (interaction.Answer, error) {
		<-ctx.Done() // the human never answers
		saw <- interaction.ContextError(ctx)
		return interaction.Answer{}, interaction.ContextError(ctx)
	}}
	clock := &fakeClock{}
	var onAsk []string
	r := &Runner{Asker: asker, Sleep: clock.Sleep, Speed: 4,
		OnAsk: func(_ interaction.Agent, keys []string) { onAsk = append(onAsk, keys...) }}
	res, err := r.Run(context.Background(), sc)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	cause := <-saw
	if interaction.CodeOf(cause) != interaction.CodeAborted || !strings.Contains(cause.Error(), "docs withdrew the question") {
		t.Errorf("the asker saw %v, want ASK_ABORTED saying the agent withdrew", cause)
	}
	ar := res.Agents["docs"]
	if len(ar.Outcomes) != 1 || ar.Outcomes[0].Kind != interaction.OutcomeWithdrawn || ar.Outcomes[0].Code != interaction.CodeAborted {
		t.Errorf("outcomes = %+v", ar.Outcomes)
	}
	if _, ok := ar.Answers["q"]; ok {
		t.Errorf("a withdrawn question has an answer: %+v", ar.Answers)
	}
	if got := messages(ar.Transcript); !slices.Equal(got, []string{"after"}) {
		t.Errorf("said %q; the agent should go on after withdrawing", got)
	}
	if got := clock.durations(); !slices.Equal(got, []time.Duration{time.Second}) {
		t.Errorf("sleeps = %v, want the 4s delay at speed 4", got)
	}
	if !slices.Equal(onAsk, []string{"enter"}) {
		t.Errorf("OnAsk keys = %q", onAsk)
	}
}

func TestRunnerParallel(t *testing.T) {
	sc := mustParse(t, `
agents:
  - id: a
    name: Alpha
    steps:
      - say: "a works"
      - ask: {questions: [{id: x, question: "For a?"}], keys: ["a-keys"]}
      - say: "a done"
  - id: b
    name: Beta
    steps:
      - ask: {questions: [{id: y, question: "For b?"}], keys: ["b-keys"]}
      - say: "b done"
`)
	arrived := make(chan string, 2)
	release := make(chan struct{})
	asker := &fakeAsker{fn: func(ctx context.Context, req interaction.Request) (interaction.Answer, error) {
		arrived <- req.Agent.ID
		<-release // answer only once both asks are in flight
		return interaction.Answer{Answers: []interaction.AnswerItem{custom("ok for " + req.Agent.ID)}}, nil
	}}
	var mu sync.Mutex
	keys := map[string][]string{}
	r := &Runner{Asker: asker, Sleep: (&fakeClock{}).Sleep, OnAsk: func(who interaction.Agent, k []string) {
		mu.Lock()
		defer mu.Unlock()
		keys[who.ID] = k
	}}
	type outcome struct {
		res *Result
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		res, err := r.Run(context.Background(), sc)
		done <- outcome{res, err}
	}()
	inFlight := []string{waitFor(t, arrived, "the first ask"), waitFor(t, arrived, "the second ask")}
	slices.Sort(inFlight)
	if !slices.Equal(inFlight, []string{"a", "b"}) {
		t.Fatalf("asks in flight = %v", inFlight)
	}
	close(release)
	out := waitFor(t, done, "Run to return")
	if out.err != nil {
		t.Fatalf("Run: %v", out.err)
	}
	for id, want := range map[string]string{"a": "ok for a", "b": "ok for b"} {
		ar := out.res.Agents[id]
		var q string
		for k := range ar.Answers {
			q = k
		}
		if ar.Answers[q].Custom != want {
			t.Errorf("agent %s answers = %+v", id, ar.Answers)
		}
		tr := ar.Transcript
		if tr[0].Kind != interaction.ActivityConnected || tr[len(tr)-1].Kind != interaction.ActivityDisconnected {
			t.Errorf("agent %s transcript = %v", id, kinds(tr))
		}
	}
	for _, req := range asker.requests() {
		want := map[string]string{"a": "Alpha", "b": "Beta"}[req.Agent.ID]
		if req.Agent.Name != want {
			t.Errorf("request agent = %+v", req.Agent)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if !slices.Equal(keys["a"], []string{"a-keys"}) || !slices.Equal(keys["b"], []string{"b-keys"}) {
		t.Errorf("OnAsk keys = %v", keys)
	}
}

func TestRunnerOnAskBeforeAsk(t *testing.T) {
	sc := mustParse(t, `
agents:
  - id: a
    steps:
      - ask: {questions: [{id: x, question: "One?"}], keys: [enter]}
      - ask: {questions: [{id: y, question: "Two?"}]}
`)
	var log []string
	asker := &fakeAsker{fn: func(_ context.Context, req interaction.Request) (interaction.Answer, error) {
		log = append(log, "ask "+req.Questions[0].ID)
		return interaction.Answer{}, nil
	}}
	r := &Runner{Asker: asker, OnAsk: func(who interaction.Agent, keys []string) {
		log = append(log, who.ID+" keys "+strings.Join(keys, ","))
	}}
	if _, err := r.Run(context.Background(), sc); err != nil {
		t.Fatal(err)
	}
	want := []string{"a keys enter", "ask x", "a keys ", "ask y"}
	if !slices.Equal(log, want) {
		t.Errorf("log = %q, want %q", log, want)
	}
}

func TestRunnerDeclined(t *testing.T) {
	sc := mustParse(t, `
agents:
  - id: a
    steps:
      - ask: {questions: [{id: x, question: "Deploy?", options: [Yes, No]}]}
      - when: {id: x, declined: true, then: [{say: "no decision"}]}
      - say: "still here"
`)
	res, err := (&Runner{Asker: &fakeAsker{fn: failWith(interaction.CodeDeclined)}}).Run(context.Background(), sc)
	if err != nil {
		t.Fatalf("Run: %v (a decline must not stop the agent)", err)
	}
	ar := res.Agents["a"]
	if got := messages(ar.Transcript); !slices.Equal(got, []string{"no decision", "still here"}) {
		t.Errorf("said %q", got)
	}
	if len(ar.Outcomes) != 1 || ar.Outcomes[0].Kind != interaction.OutcomeDeclined || ar.Outcomes[0].Code != interaction.CodeDeclined || ar.Err != nil {
		t.Errorf("outcomes = %+v, err = %v", ar.Outcomes, ar.Err)
	}
}

func TestRunnerProviderClosed(t *testing.T) {
	sc := mustParse(t, `
agents:
  - id: a
    steps:
      - ask: {questions: [{id: x, question: "One?"}]}
      - say: "never"
  - id: b
    steps:
      - wait: 1s
      - say: "b finishes"
`)
	asker := &fakeAsker{fn: failWith(interaction.CodeProviderClosed)}
	res, err := (&Runner{Asker: asker, Sleep: (&fakeClock{}).Sleep}).Run(context.Background(), sc)
	if interaction.CodeOf(err) != interaction.CodeProviderClosed {
		t.Fatalf("Run error = %v, want PROVIDER_CLOSED", err)
	}
	a, b := res.Agents["a"], res.Agents["b"]
	if got := kinds(a.Transcript); !slices.Equal(got, []interaction.ActivityKind{interaction.ActivityConnected, interaction.ActivityDisconnected}) {
		t.Errorf("agent a transcript = %v; it should stop at the failed ask", got)
	}
	if interaction.CodeOf(a.Err) != interaction.CodeProviderClosed || a.Outcomes[0].Kind != interaction.OutcomeClosed {
		t.Errorf("agent a: err %v, outcomes %+v", a.Err, a.Outcomes)
	}
	if b.Err != nil || !slices.Equal(messages(b.Transcript), []string{"b finishes"}) {
		t.Errorf("agent b: err %v, said %q; it should run to the end", b.Err, messages(b.Transcript))
	}
}

func TestRunnerOtherFailureGoesOn(t *testing.T) {
	sc := mustParse(t, `
agents:
  - id: a
    steps:
      - ask: {questions: [{id: x, question: "One?"}]}
      - say: "went on"
`)
	for code, want := range map[interaction.Code]interaction.Outcome{
		interaction.CodeTimeout:       interaction.OutcomeTimeout,
		interaction.CodeInternal:      interaction.OutcomeFailed,
		interaction.CodeInvalidAnswer: interaction.OutcomeFailed,
	} {
		res, err := (&Runner{Asker: &fakeAsker{fn: failWith(code)}}).Run(context.Background(), sc)
		if err != nil {
			t.Fatalf("%s: Run: %v", code, err)
		}
		a := res.Agents["a"]
		if a.Outcomes[0].Kind != want || a.Outcomes[0].Code != code || len(messages(a.Transcript)) != 1 {
			t.Errorf("%s: outcomes %+v, transcript %v; want %s and the agent going on", code, a.Outcomes, a.Transcript, want)
		}
	}
}

func TestRunnerContextEnds(t *testing.T) {
	sc := mustParse(t, `
agents:
  - id: a
    steps:
      - ask: {questions: [{id: x, question: "One?"}]}
      - say: "never"
  - id: b
    steps:
      - think: 1h
      - say: "never"
`)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	arrived := make(chan struct{})
	asker := &fakeAsker{fn: func(ctx context.Context, _ interaction.Request) (interaction.Answer, error) {
		close(arrived)
		<-ctx.Done()
		return interaction.Answer{}, interaction.ContextError(ctx)
	}}
	done := make(chan error, 1)
	var res *Result
	go func() {
		var err error
		res, err = (&Runner{Asker: asker, Sleep: blockingSleep}).Run(ctx, sc)
		done <- err
	}()
	waitFor(t, arrived, "the ask")
	cancel()
	err := waitFor(t, done, "Run to return")
	if interaction.CodeOf(err) != interaction.CodeAborted {
		t.Fatalf("Run error = %v, want ASK_ABORTED", err)
	}
	for _, id := range []string{"a", "b"} {
		ar := res.Agents[id]
		tr := ar.Transcript
		if tr[len(tr)-1].Kind != interaction.ActivityDisconnected || len(messages(tr)) != 0 || ar.Err == nil {
			t.Errorf("agent %s: transcript %v, err %v", id, kinds(tr), ar.Err)
		}
	}
	// The ask that was waiting is withdrawn with the runner.
	if outs := res.Agents["a"].Outcomes; len(outs) != 1 || outs[0].Kind != interaction.OutcomeWithdrawn || outs[0].Code != interaction.CodeAborted {
		t.Errorf("agent a outcomes %+v, want one withdrawn with ASK_ABORTED", outs)
	}
}

func TestRunnerAnswerReferences(t *testing.T) {
	sc := mustParse(t, `
agents:
  - id: a
    steps:
      - ask:
          questions:
            - {id: name, question: "Name?"}
            - {id: feats, question: "Features?", multiSelect: true, options: [HTTP, gRPC, Docker]}
            - {id: none, question: "Skip me?"}
      - say: "Creating {{answer.name}} with {{ answer.feats }}; {{answer.none}}."
      - tool: {name: mkdir, args: {path: "svc/{{answer.name}}"}, result: "made {{answer.name}}"}
      - withdraw: {after: 1s, ask: {questions: [{id: late, question: "Late?"}]}}
      - say: "{{answer.late}}"
`)
	asker := &fakeAsker{fn: answers(map[string]interaction.AnswerItem{
		"name":  custom(`my "svc"`),
		"feats": selected("HTTP", "Docker"),
		"none":  interaction.Skip("none"),
	})}
	res, err := (&Runner{Asker: asker, Sleep: (&fakeClock{}).Sleep}).Run(context.Background(), sc)
	if err != nil {
		t.Fatal(err)
	}
	tr := res.Agents["a"].Transcript
	if got := messages(tr); !slices.Equal(got, []string{`Creating my "svc" with HTTP, Docker; (skipped).`, "(withdrawn)"}) {
		t.Errorf("said %q", got)
	}
	for _, act := range tr {
		switch act.Kind {
		case interaction.ActivityToolCall:
			if act.Args != `{"path":"svc/my \"svc\""}` {
				t.Errorf("args = %s, want the answer escaped as JSON", act.Args)
			}
		case interaction.ActivityToolResult:
			if act.Text != `made my "svc"` {
				t.Errorf("result = %q", act.Text)
			}
		}
	}
}

func TestRunnerRealClock(t *testing.T) {
	sc := mustParse(t, "agents: [{id: a, steps: [{think: 1h}, {wait: 1h}, {say: done}]}]")
	// At this speed an hour is under four microseconds of a real timer.
	res, err := (&Runner{Asker: &fakeAsker{}, Speed: 1e12}).Run(context.Background(), sc)
	if err != nil || !slices.Equal(messages(res.Agents["a"].Transcript), []string{"done"}) {
		t.Errorf("Run = %v, %v", res, err)
	}
}

func TestRunnerRealClockCancel(t *testing.T) {
	sc := mustParse(t, "agents: [{id: a, steps: [{wait: 1h}, {say: never}]}]")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := (&Runner{Asker: &fakeAsker{}}).Run(ctx, sc)
	if !errors.Is(err, &interaction.Error{Code: interaction.CodeAborted}) || len(messages(res.Agents["a"].Transcript)) != 0 {
		t.Errorf("Run = %v, %v", res, err)
	}
}

func TestScale(t *testing.T) {
	for _, tt := range []struct {
		speed float64
		want  time.Duration
	}{{0, time.Second}, {1, time.Second}, {-2, time.Second}, {2, 500 * time.Millisecond}, {0.5, 2 * time.Second}} {
		if got := scale(time.Second, tt.speed); got != tt.want {
			t.Errorf("scale(1s, %v) = %v, want %v", tt.speed, got, tt.want)
		}
	}
}
