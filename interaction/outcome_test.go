package interaction

import (
	"context"
	"errors"
	"fmt"
	"testing"
)

func TestClassify(t *testing.T) {
	answered := Answer{Answers: []AnswerItem{{ID: "db", Selected: []string{"SQLite"}}, Skip("notes")}}
	custom := Answer{Answers: []AnswerItem{{ID: "notes", Selected: []string{}, Custom: "soon"}}}
	skipped := Answer{Answers: []AnswerItem{Skip("db"), Skip("notes")}}
	for _, tt := range []struct {
		name string
		ans  Answer
		err  error
		want Outcome
	}{
		{"answered", answered, nil, OutcomeAnswered},
		{"custom text", custom, nil, OutcomeAnswered},
		{"every question skipped", skipped, nil, OutcomeSkipped},
		{"no items", Answer{}, nil, OutcomeSkipped},
		{"declined", Answer{}, Errorf(CodeDeclined, "no"), OutcomeDeclined},
		{"withdrawn", Answer{}, Errorf(CodeAborted, "gone"), OutcomeWithdrawn},
		{"wrapped code", Answer{}, fmt.Errorf("ui: %w", Errorf(CodeAborted, "gone")), OutcomeWithdrawn},
		{"timeout", Answer{}, Errorf(CodeTimeout, "5m"), OutcomeTimeout},
		{"closed", Answer{}, Errorf(CodeProviderClosed, "bye"), OutcomeClosed},
		{"bare cancel", Answer{}, context.Canceled, OutcomeWithdrawn},
		{"bare deadline", Answer{}, fmt.Errorf("wait: %w", context.DeadlineExceeded), OutcomeWithdrawn},
		{"no provider", Answer{}, Errorf(CodeNoProvider, "none"), OutcomeFailed},
		{"internal", Answer{}, Errorf(CodeInternal, "bug"), OutcomeFailed},
		{"plain error", Answer{}, errors.New("boom"), OutcomeFailed},
		// An error wins over an answer returned with it.
		{"error with an answer", answered, Errorf(CodeDeclined, "no"), OutcomeDeclined},
	} {
		if got := Classify(tt.ans, tt.err); got != tt.want {
			t.Errorf("%s: Classify = %q, want %q", tt.name, got, tt.want)
		}
	}
}
