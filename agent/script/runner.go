package script

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/internal/jsonl"
)

// Asker puts a request to the human, as [interaction.Service.Ask] does.
type Asker interface {
	Ask(ctx context.Context, req interaction.Request) (interaction.Answer, error)
}

// Reporter shows an agent's activity, as [interaction.Service.Report]
// does. Report must not block.
type Reporter interface {
	Report(a interaction.Activity)
}

// SleepFunc waits for d or until ctx ends, whichever comes first, and
// returns a non-nil error only when ctx ended. Tests inject a fake clock.
type SleepFunc func(ctx context.Context, d time.Duration) error

// Runner plays a [Scenario]'s agents against an [Asker], the way real
// agents would use asktui: it asks through Asker and reports activity
// through Reporter, nothing else.
type Runner struct {
	// Asker receives every ask; usually an *interaction.Service.
	Asker Asker
	// Reporter receives every activity; nil reports nothing (the
	// transcript in the result is kept anyway).
	Reporter Reporter
	// Speed scales every duration: 2 runs twice as fast. Zero, negative
	// and NaN mean real time.
	Speed float64
	// Sleep waits; nil uses a real timer.
	Sleep SleepFunc
	// OnAsk, when set, is called right before each ask (or the ask of a
	// withdraw step) is sent, with the asking agent and the step's
	// autoplay keys (possibly none). It runs on the agent's goroutine and
	// must not block; a function that calls [Player.Enqueue] fits.
	OnAsk func(agent interaction.Agent, keys []string)
}

// AskOutcome is how one ask (or withdraw) step ended.
type AskOutcome struct {
	// Line is the step's line in the scenario file, 0 when unknown.
	Line int
	// Kind says how the ask ended, as [interaction.Classify] says it:
	// answered or skipped (every question skipped), declined, withdrawn (by
	// a withdraw step, or because the runner's context ended), timeout,
	// closed (the user interface went away) or failed.
	Kind interaction.Outcome
	// Answer is the answer, when Kind is answered or skipped.
	Answer interaction.Answer
	// Code is the error code when the ask did not end in an answer; Err is
	// the error itself.
	Code interaction.Code
	Err  error
}

// AgentResult is what one scripted agent did.
type AgentResult struct {
	// Answers holds the latest answer to each question the agent asked,
	// by question id. Questions of declined, withdrawn or failed asks have
	// no entry unless answered earlier.
	Answers map[string]interaction.AnswerItem
	// Outcomes holds one entry per ask or withdraw step run, in order.
	Outcomes []AskOutcome
	// Transcript is every activity the agent reported, in order.
	Transcript []interaction.Activity
	// Err is why the agent stopped early (the context ended, or the user
	// interface went away), nil when it ran to the end.
	Err error
}

// Result is what every agent of a scenario did.
type Result struct {
	// Agents holds each agent's result by agent id.
	Agents map[string]*AgentResult
}

// Run runs every agent of sc concurrently and returns when all have
// finished. Each agent reports ActivityConnected first and
// ActivityDisconnected last, whatever happens in between.
//
// Every ask ends in an [interaction.Outcome], remembered for when steps
// and answer references. After a declined ask the agent goes on (a when
// step may react to it), and after a timeout or other failure too. The agent stops when its context ends or the
// user interface is gone (PROVIDER_CLOSED or NO_PROVIDER); the others go
// on until they finish or stop in turn.
//
// The error is the context's error (ASK_ABORTED, see
// [interaction.ContextError]) when ctx ended, else the first agent's
// error in scenario order, else nil. The result is returned either way.
// No goroutine started by Run outlives it.
func (r *Runner) Run(ctx context.Context, sc *Scenario) (*Result, error) {
	if r.Asker == nil {
		return nil, errors.New("script: Runner.Asker is nil")
	}
	results := make([]*AgentResult, len(sc.Agents))
	var wg sync.WaitGroup
	for i, s := range sc.Agents {
		wg.Go(func() {
			run := &agentRun{r: r, who: s.Agent, res: &AgentResult{Answers: map[string]interaction.AnswerItem{}},
				memory: map[string]remembered{}}
			run.res.Err = run.script(ctx, s.Steps)
			results[i] = run.res
		})
	}
	wg.Wait()

	res := &Result{Agents: make(map[string]*AgentResult, len(sc.Agents))}
	var first error
	for i, s := range sc.Agents {
		res.Agents[s.Agent.ID] = results[i]
		if first == nil && results[i].Err != nil {
			first = results[i].Err
		}
	}
	if err := interaction.ContextError(ctx); err != nil {
		return res, err
	}
	return res, first
}

// scale divides d by the speed.
func scale(d time.Duration, speed float64) time.Duration {
	if !(speed > 0) || speed == 1 {
		return d
	}
	return time.Duration(float64(d) / speed)
}

// sleepReal waits on a real timer.
func sleepReal(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// remembered is the latest outcome for one question id: answered or
// skipped (this question), or how the whole ask ended.
type remembered struct {
	kind interaction.Outcome
	item interaction.AnswerItem
}

// agentRun is the state of one running agent. Only its own goroutine
// touches it.
type agentRun struct {
	r      *Runner
	who    interaction.Agent
	res    *AgentResult
	memory map[string]remembered
	calls  int
}

func (a *agentRun) script(ctx context.Context, steps []Step) error {
	a.report(interaction.Activity{Kind: interaction.ActivityConnected})
	defer a.report(interaction.Activity{Kind: interaction.ActivityDisconnected})
	return a.steps(ctx, steps)
}

func (a *agentRun) report(act interaction.Activity) {
	act.Agent = a.who
	a.res.Transcript = append(a.res.Transcript, act)
	if a.r.Reporter != nil {
		a.r.Reporter.Report(act)
	}
}

// sleep waits d scaled by the speed; the error is the context's.
func (a *agentRun) sleep(ctx context.Context, d time.Duration) error {
	return sleepScaled(ctx, a.r.Sleep, d, a.r.Speed)
}

// sleepScaled waits d scaled by speed with sleep (nil: a real timer) and
// returns the context's error when ctx ended.
func sleepScaled(ctx context.Context, sleep SleepFunc, d time.Duration, speed float64) error {
	if err := interaction.ContextError(ctx); err != nil {
		return err
	}
	d = scale(d, speed)
	if d <= 0 {
		return nil
	}
	if sleep == nil {
		sleep = sleepReal
	}
	if err := sleep(ctx, d); err != nil {
		if cerr := interaction.ContextError(ctx); cerr != nil {
			return cerr
		}
		return err
	}
	return nil
}

func (a *agentRun) steps(ctx context.Context, steps []Step) error {
	for i := range steps {
		if err := a.step(ctx, &steps[i]); err != nil {
			return err
		}
	}
	return nil
}

func (a *agentRun) step(ctx context.Context, st *Step) error {
	if err := interaction.ContextError(ctx); err != nil {
		return err
	}
	switch st.Kind {
	case StepSay:
		a.report(interaction.Activity{Kind: interaction.ActivityMessage, Text: a.expand(st.Text, false)})
	case StepThink:
		a.report(interaction.Activity{Kind: interaction.ActivityThinking, Text: a.expand(st.Text, false)})
		if err := a.sleep(ctx, st.For); err != nil {
			return err
		}
		a.report(interaction.Activity{Kind: interaction.ActivityIdle})
	case StepTool:
		a.calls++
		id := fmt.Sprintf("%s-%d", a.who.ID, a.calls)
		a.report(interaction.Activity{Kind: interaction.ActivityToolCall, Tool: st.Tool,
			Args: a.expand(st.Args, true), CallID: id})
		if err := a.sleep(ctx, st.For); err != nil {
			return err
		}
		a.report(interaction.Activity{Kind: interaction.ActivityToolResult, Tool: st.Tool,
			Text: a.expand(st.Result, false), CallID: id, Failed: st.Failed})
	case StepWait:
		return a.sleep(ctx, st.For)
	case StepAsk:
		return a.ask(ctx, st, 0)
	case StepWithdraw:
		return a.ask(ctx, st, st.For)
	case StepWhen:
		if a.holds(st.When) {
			return a.steps(ctx, st.Then)
		}
		return a.steps(ctx, st.Else)
	default:
		return fmt.Errorf("agent %q: unknown step kind %q", a.who.ID, st.Kind)
	}
	return nil
}

// errWithdrawn is the cause of a withdraw step's cancellation, so that the
// interface can tell the human the agent withdrew its question.
func errWithdrawn(who interaction.Agent) error {
	return interaction.Errorf(interaction.CodeAborted, "%s withdrew the question", who.DisplayName())
}

// ask runs an ask step, or a withdraw step, whose request is withdrawn
// after the given delay unless answered by then.
func (a *agentRun) ask(ctx context.Context, st *Step, after time.Duration) error {
	who := a.who
	req := interaction.Request{Questions: slices.Clone(st.Request.Questions), Agent: &who}
	if a.r.OnAsk != nil {
		a.r.OnAsk(who, st.Keys)
	}

	askCtx := ctx
	var stopTimer func()
	if st.Kind == StepWithdraw {
		var cancel context.CancelCauseFunc
		askCtx, cancel = context.WithCancelCause(ctx)
		timerCtx, stop := context.WithCancel(ctx)
		done := make(chan struct{})
		go func() {
			defer close(done)
			if sleepScaled(timerCtx, a.r.Sleep, after, a.r.Speed) == nil {
				cancel(errWithdrawn(who))
			}
		}()
		stopTimer = func() {
			stop()
			<-done
			cancel(nil)
		}
	}

	ans, err := a.r.Asker.Ask(askCtx, req)
	if stopTimer != nil {
		stopTimer()
	}

	var stop error
	switch {
	case err == nil:
		for _, item := range ans.Answers {
			kind := interaction.OutcomeAnswered
			if item.Skipped() {
				kind = interaction.OutcomeSkipped
			}
			a.memory[item.ID] = remembered{kind: kind, item: item}
			a.res.Answers[item.ID] = item
		}
	case ctx.Err() != nil:
		// The runner is stopping: the ask is withdrawn with it.
		stop = interaction.ContextError(ctx)
		err = stop
	default:
		switch interaction.CodeOf(err) {
		case interaction.CodeProviderClosed, interaction.CodeNoProvider:
			stop = err
		default:
			// Any other failure ends this ask only.
		}
	}
	out := AskOutcome{Line: st.Line, Kind: interaction.Classify(ans, err)}
	if err == nil {
		out.Answer = ans
	} else {
		out.Code, out.Err = interaction.CodeOf(err), err
		for _, q := range req.Questions {
			a.memory[q.ID] = remembered{kind: out.Kind}
		}
	}
	a.res.Outcomes = append(a.res.Outcomes, out)
	return stop
}

// holds reports whether the condition holds for the agent's memory.
func (a *agentRun) holds(c Condition) bool {
	m, ok := a.memory[c.ID]
	if !ok {
		return false
	}
	switch c.Match {
	case MatchDeclined:
		return m.kind == interaction.OutcomeDeclined
	case MatchWithdrawn:
		return m.kind == interaction.OutcomeWithdrawn
	case MatchSkipped:
		return m.kind == interaction.OutcomeSkipped
	default:
		// The answer's content, below.
	}
	if m.kind != interaction.OutcomeAnswered {
		return false
	}
	switch c.Match {
	case MatchLabel:
		return m.item.Custom == "" && slices.Contains(m.item.Selected, c.Value)
	case MatchCustom:
		return m.item.Custom != "" && (c.Value == "" || m.item.Custom == c.Value)
	default:
		return false
	}
}

// expand replaces {{answer.ID}} with the remembered answer: the custom
// text, or the selected labels joined by ", ", or else the outcome in
// parentheses, "(skipped)" or "(declined)" say, or "(no answer)". In JSON
// the replacement is escaped as string content.
func (a *agentRun) expand(s string, inJSON bool) string {
	if !strings.Contains(s, "{{") {
		return s
	}
	return answerRef().ReplaceAllStringFunc(s, func(ref string) string {
		id := answerRef().FindStringSubmatch(ref)[1]
		text := "(no answer)"
		if m, ok := a.memory[id]; ok {
			switch {
			case m.kind != interaction.OutcomeAnswered:
				text = "(" + string(m.kind) + ")" // (skipped), (declined) …
			case m.item.Custom != "":
				text = m.item.Custom
			default:
				text = strings.Join(m.item.Selected, ", ")
			}
		}
		if inJSON {
			q := jsonl.AppendString(nil, text)
			return string(q[1 : len(q)-1])
		}
		return text
	})
}
