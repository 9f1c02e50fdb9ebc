package interaction

import (
	"context"
	"errors"
)

// Outcome says in one word how a request ended. The history, the scripted
// agents and the screen all use these words, so a request reads the same
// everywhere.
type Outcome string

// The outcomes of a request.
const (
	// OutcomeAnswered: the human answered at least one question.
	OutcomeAnswered Outcome = "answered"
	// OutcomeSkipped: the human submitted, but skipped every question.
	OutcomeSkipped Outcome = "skipped"
	// OutcomeDeclined: the human declined to answer ([CodeDeclined]).
	OutcomeDeclined Outcome = "declined"
	// OutcomeWithdrawn: the caller withdrew the request ([CodeAborted]).
	OutcomeWithdrawn Outcome = "withdrawn"
	// OutcomeElsewhere: the human settled it somewhere else first, and
	// the caller withdrew it ([CodeSettledElsewhere]).
	OutcomeElsewhere Outcome = "elsewhere"
	// OutcomeTimeout: the request outlived its timeout ([CodeTimeout]).
	OutcomeTimeout Outcome = "timeout"
	// OutcomeClosed: the user interface went away ([CodeProviderClosed]).
	OutcomeClosed Outcome = "closed"
	// OutcomeFailed: any other failure.
	OutcomeFailed Outcome = "failed"
)

// Classify returns the outcome of a request that ended with ans and err:
// for a nil err, [OutcomeAnswered], or [OutcomeSkipped] when every item of
// ans is skipped (an answer with no items skips every question); otherwise
// the outcome of err's code, with a bare context cancellation or deadline
// counted as [OutcomeWithdrawn].
func Classify(ans Answer, err error) Outcome {
	if err == nil {
		if allSkipped(ans) {
			return OutcomeSkipped
		}
		return OutcomeAnswered
	}
	switch CodeOf(err) {
	case CodeDeclined:
		return OutcomeDeclined
	case CodeAborted:
		return OutcomeWithdrawn
	case CodeTimeout:
		return OutcomeTimeout
	case CodeSettledElsewhere:
		return OutcomeElsewhere
	case CodeProviderClosed:
		return OutcomeClosed
	case "":
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return OutcomeWithdrawn
		}
		return OutcomeFailed
	default:
		return OutcomeFailed
	}
}

// allSkipped reports whether every item of ans is skipped.
func allSkipped(ans Answer) bool {
	for _, item := range ans.Answers {
		if !item.Skipped() {
			return false
		}
	}
	return true
}
