package tui

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/internal/syncbuf"
)

func TestAccessibleModeGivesTheSameAnswers(t *testing.T) {
	var out bytes.Buffer
	// Question by question: env 2 (Production); db 3 = Other, then its
	// text; extras 1 and 3, then 0 to confirm; notes as free text.
	in := strings.NewReader("2\n3\nMariaDB\n1\n3\n0\nship it\n")
	p := New(Options{Accessible: true, Input: in, Output: &out})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- p.Run(ctx) }()

	ans, err := p.Provider().Ask(context.Background(), setupRequest())
	cancel()
	<-done
	if err != nil {
		t.Fatalf("Ask: %v\noutput:\n%s", err, out.String())
	}
	if err := ans.Check(setupRequest()); err != nil {
		t.Fatal(err)
	}
	s := out.String()
	for _, want := range []string{"codex asks 4 questions. Press ctrl+d at any prompt to decline.", "Question 1 of 4", "Where should it run?", "Which database?"} {
		if !strings.Contains(s, want) {
			t.Fatalf("output lacks %q:\n%s", want, s)
		}
	}
	got := map[string]string{}
	for _, a := range ans.Answers {
		got[a.ID] = strings.Join(a.Selected, ",") + "|" + a.Custom
	}
	want := map[string]string{"env": "Production|", "db": "|MariaDB", "extras": "Metrics,Logs|", "notes": "|ship it"}
	for id, w := range want {
		if got[id] != w {
			t.Errorf("%s = %q, want %q\noutput:\n%s", id, got[id], w, s)
		}
	}
	if strings.Contains(s, "\x1b") {
		t.Fatalf("accessible output contains escape sequences:\n%q", s)
	}
}

// Ctrl+D (the end of the input) at any prompt declines the request: it is
// never a silent skip of every question.
func TestAccessibleCtrlDDeclines(t *testing.T) {
	var out bytes.Buffer
	in := strings.NewReader("2\n") // env answered, then the input ends
	p := New(Options{Accessible: true, Input: in, Output: &out})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- p.Run(ctx) }()
	_, err := p.Provider().Ask(context.Background(), setupRequest())
	cancel()
	<-done
	if interaction.CodeOf(err) != interaction.CodeDeclined {
		t.Fatalf("err = %v, want ASK_DECLINED\noutput:\n%s", err, out.String())
	}
	if !strings.Contains(out.String(), "Declined: no answer was sent.") {
		t.Fatalf("output does not say it declined:\n%s", out.String())
	}
}

// Ctrl+C in accessible mode ends the context (the terminal sends SIGINT):
// the screen says the human quit, not that the agent withdrew.
func TestAccessibleCtrlCSaysTheHumanQuit(t *testing.T) {
	var out syncbuf.Buffer
	pr, pw := io.Pipe()
	defer pw.Close()
	p := New(Options{Accessible: true, Input: pr, Output: &out})
	runCtx, stopRun := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- p.Run(runCtx) }()
	ctx, interrupt := context.WithCancelCause(context.Background())
	asked := make(chan error, 1)
	go func() {
		_, err := p.Provider().Ask(ctx, setupRequest())
		asked <- err
	}()
	interrupt(errors.New("interrupt signal received"))
	err := <-asked
	stopRun()
	<-done
	if interaction.CodeOf(err) != interaction.CodeAborted {
		t.Fatalf("err = %v", err)
	}
	s := out.String()
	if !strings.Contains(s, "Quit: no answer was sent.") || strings.Contains(s, "withdrawn") {
		t.Fatalf("output:\n%s", s)
	}
}

// With a deadline (--timeout), accessible mode says how long there is to
// answer, a minute and ten seconds before the end, and that it timed
// out, with no prompt to press a key that would come too late.
func TestAccessibleCountdown(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var out syncbuf.Buffer
		pr, pw := io.Pipe()
		defer pw.Close()
		p := New(Options{Accessible: true, Input: pr, Output: &out})
		runCtx, stopRun := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- p.Run(runCtx) }()
		ctx, cancel := context.WithTimeoutCause(context.Background(), 5*time.Minute, interaction.Errorf(interaction.CodeTimeout, "timed out"))
		defer cancel()
		_, err := p.Provider().Ask(ctx, setupRequest())
		stopRun()
		<-done
		if interaction.CodeOf(err) != interaction.CodeTimeout {
			t.Fatalf("err = %v", err)
		}
		s := out.String()
		for _, want := range []string{"You have 5:00 to answer", "(1 minute left to answer)", "(10 seconds left to answer)", "The question timed out; no answer was sent."} {
			if !strings.Contains(s, want) {
				t.Errorf("output lacks %q:\n%s", want, s)
			}
		}
		if strings.Contains(s, "Press enter") {
			t.Errorf("output asks for a key after the end:\n%s", s)
		}
		_ = pw.Close()
	})
}
