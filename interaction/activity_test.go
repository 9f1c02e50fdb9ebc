package interaction

import (
	"context"
	"testing"
)

type sinkProvider struct {
	ProviderFunc
	got []Activity
}

func (s *sinkProvider) Report(a Activity) { s.got = append(s.got, a) }

func TestReportReachesAProviderThatShowsActivity(t *testing.T) {
	svc := NewService()
	svc.Report(Activity{Kind: ActivityMessage, Text: "nobody listens"}) // no provider: no panic

	plain := ProviderFunc(func(context.Context, Request) (Answer, error) { return Answer{}, nil })
	unregister, err := svc.Register(plain)
	if err != nil {
		t.Fatal(err)
	}
	svc.Report(Activity{Kind: ActivityMessage, Text: "dropped"}) // provider without a sink
	unregister()

	sink := &sinkProvider{ProviderFunc: plain}
	if _, err := svc.Register(sink); err != nil {
		t.Fatal(err)
	}
	svc.Report(Activity{Agent: Agent{ID: "a"}, Kind: ActivityToolCall, Tool: "grep", Args: `{"q":"x"}`, CallID: "1"})
	if len(sink.got) != 1 || sink.got[0].Tool != "grep" || sink.got[0].Agent.ID != "a" {
		t.Fatalf("sink got %+v", sink.got)
	}
}
