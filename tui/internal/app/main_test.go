package app

import (
	"testing"
	"time"

	"github.com/dlclark/regexp2"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	keepRegexpClock()
	goleak.VerifyTestMain(m,
		// bubbletea does not cancel a pending tea.Tick when its program
		// ends; the timer goroutine (and a batch waiting on it) ends by
		// itself within the tick's duration (at most 4 s here).
		goleak.IgnoreAnyFunction("charm.land/bubbletea/v2.Tick.func1"),
		goleak.IgnoreAnyFunction("charm.land/bubbletea/v2.(*Program).execBatchMsg"),
		// A text input's cursor blinks on a timer that ends on its own
		// within half a second of its program.
		goleak.IgnoreAnyFunction("charm.land/bubbles/v2/cursor.(*Model).Blink.func1"),
		// chroma's regexp engine keeps a clock goroutine (keepRegexpClock).
		goleak.IgnoreAnyFunction("github.com/dlclark/regexp2.runClock"),
	)
}

// keepRegexpClock starts the timeout clock of regexp2 (chroma's regexp
// engine: code highlighting matches with a 250 ms timeout) outside every
// synctest bubble, and keeps it running for the life of the test binary.
// regexp2 stops its clock a second after the last match and starts it
// again on the next; started inside a bubble, the clock reads the
// bubble's fake time against a real start, never reaches its end, and
// the bubble panics on exit with its goroutine still asleep.
func keepRegexpClock() {
	re := regexp2.MustCompile("x", regexp2.None)
	re.MatchTimeout = 365 * 24 * time.Hour
	_, _ = re.MatchString("x")
}
