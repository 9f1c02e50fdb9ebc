package history

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/interaction/inbox"
)

// arrivals is a view that hands over each request as it arrives.
type arrivals chan *inbox.Request

func (a arrivals) Notify(e inbox.Event) {
	if e.Kind == inbox.Arrived {
		a <- e.Request
	}
}

// TestRecordsTheLosingViewsDrafts: a request shown on two views and
// answered on one is recorded with the view that answered and what the
// other had drafted.
func TestRecordsTheLosingViewsDrafts(t *testing.T) {
	path := filepath.Join(t.TempDir(), "history.jsonl")
	l, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	box := inbox.New(nil)
	defer box.Close()
	local, remote := make(arrivals, 1), make(arrivals, 1)
	hl, hr := box.Attach("this terminal", local), box.Attach("ssh bob@10.0.0.2", remote)
	p := Wrap(box, l, nil, nil)

	req := interaction.Request{Questions: []interaction.Question{{ID: "q", Question: "Deploy?", Options: []interaction.Option{{Label: "Yes"}, {Label: "No"}}}}}
	done := make(chan error, 1)
	go func() {
		_, err := p.Ask(context.Background(), req)
		done <- err
	}()
	r := <-local
	<-remote
	hl.SaveDraft(r.ID, &interaction.Answer{Answers: []interaction.AnswerItem{{ID: "q", Custom: "only after the freeze"}}})
	if _, ok := hr.Answer(r.ID, interaction.Answer{Answers: []interaction.AnswerItem{{ID: "q", Selected: []string{"Yes"}}}}); !ok {
		t.Fatal("the answer was refused")
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	recs, _, err := ReadFile(path, 0)
	if err != nil || len(recs) != 1 {
		t.Fatalf("%d records, %v", len(recs), err)
	}
	rec := recs[0]
	if rec.By != "ssh bob@10.0.0.2" {
		t.Errorf("by %q", rec.By)
	}
	if d, ok := rec.Drafts["this terminal"]; !ok || d.Answers[0].Custom != "only after the freeze" {
		t.Errorf("the losing view's draft was not recorded: %+v", rec.Drafts)
	}
}
