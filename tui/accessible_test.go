package tui

import (
	"bytes"
	"context"
	"strings"
	"testing"
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
	for _, want := range []string{"codex asks 4 question(s)", "Question 1 of 4", "Where should it run?", "Which database?"} {
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
