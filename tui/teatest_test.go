package tui

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/asktui/asktui/interaction/inbox"
	"github.com/asktui/asktui/styles"
	"github.com/asktui/asktui/tui/internal/app"
)

// TestTeatestRoundTrip drives the root model in teatest's program: the
// inbox hands the request in through the link, the test reads the
// rendered terminal output and presses a key, and the answer comes back.
func TestTeatestRoundTrip(t *testing.T) {
	m := app.New(app.Config{Theme: styles.ThemeDark, Now: func() time.Time { return fixedNow }})
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(100, 30))
	done := make(chan struct{})
	go func() { tm.WaitFinished(t); close(done) }()
	in := inbox.New(nil)
	defer in.Close()
	l := app.NewLink(tm.GetProgram(), done)
	m.Attach(in.Attach("teatest", l), l, nil, nil)

	ch := make(chan outcome, 1)
	go func() {
		a, err := in.Ask(context.Background(), single(deployQuestion()))
		ch <- outcome{a, err}
	}()
	// The arrival hold keeps keys off the question until it has been on
	// screen a moment: the hint replaces the hold's cue then.
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		return bytes.Contains(b, []byte("Deploy the release to production now?")) && bytes.Contains(b, []byte("Pick one"))
	}, teatest.WithDuration(10*time.Second), teatest.WithCheckInterval(5*time.Millisecond))
	tm.Type("3")
	o := wait(t, ch)
	if o.err != nil || o.answer.Answers[0].Selected[0] != "Only canary" {
		t.Fatalf("got %+v, %v", o.answer, o.err)
	}
	if err := tm.Quit(); err != nil {
		t.Fatal(err)
	}
	<-done
}
