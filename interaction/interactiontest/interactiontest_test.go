package interactiontest

import (
	"context"
	"testing"
	"time"

	"github.com/asktui/asktui/interaction"
)

var req = interaction.Request{Questions: []interaction.Question{{ID: "q", Question: "Go on?"}}}

func TestProviderThroughTheService(t *testing.T) {
	p := NewProvider()
	svc := interaction.NewService()
	unregister, err := svc.Register(p)
	if err != nil {
		t.Fatal(err)
	}
	defer unregister()

	type result struct {
		ans interaction.Answer
		err error
	}
	done := make(chan result, 1)
	ask := func(ctx context.Context) {
		go func() {
			ans, err := svc.Ask(ctx, req)
			done <- result{ans, err}
		}()
	}

	ask(context.Background())
	c := p.Next(t)
	if c.Req.Questions[0].ID != "q" {
		t.Errorf("the call holds %+v", c.Req)
	}
	c.Answer(interaction.Answer{Answers: []interaction.AnswerItem{{ID: "q", Custom: "yes"}}})
	if r := <-done; r.err != nil || r.ans.Answers[0].Custom != "yes" {
		t.Errorf("Ask = %+v, %v", r.ans, r.err)
	}

	ask(context.Background())
	p.Next(t).Fail(interaction.Errorf(interaction.CodeDeclined, "no"))
	if r := <-done; interaction.CodeOf(r.err) != interaction.CodeDeclined {
		t.Errorf("Ask error %v, want ASK_DECLINED", r.err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	ask(ctx)
	c = p.Next(t)
	cancel()
	if err := c.Withdrawn(t, time.Second); interaction.CodeOf(err) != interaction.CodeAborted {
		t.Errorf("Withdrawn = %v, want ASK_ABORTED", err)
	}
	if r := <-done; interaction.CodeOf(r.err) != interaction.CodeAborted {
		t.Errorf("Ask error %v, want ASK_ABORTED", r.err)
	}

	svc.Report(interaction.Activity{Kind: interaction.ActivityMessage, Text: "hi"})
	if a := p.NextActivity(t); a.Text != "hi" {
		t.Errorf("activity %+v", a)
	}
	for range activityBuffer + 1 {
		p.Report(interaction.Activity{}) // never blocks
	}
}
