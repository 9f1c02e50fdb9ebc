package app

import (
	"testing"

	"go.uber.org/goleak"

	"github.com/asktui/asktui/tui/internal/tuitest"
)

func TestMain(m *testing.M) {
	tuitest.KeepRegexpClock()
	goleak.VerifyTestMain(m,
		// bubbletea does not cancel a pending tea.Tick when its program
		// ends; the timer goroutine (and a batch waiting on it) ends by
		// itself within the tick's duration (at most 4 s here).
		goleak.IgnoreAnyFunction("charm.land/bubbletea/v2.Tick.func1"),
		goleak.IgnoreAnyFunction("charm.land/bubbletea/v2.(*Program).execBatchMsg"),
		// A text input's cursor blinks on a timer that ends on its own
		// within half a second of its program.
		goleak.IgnoreAnyFunction("charm.land/bubbles/v2/cursor.(*Model).Blink.func1"),
		// chroma's regexp engine keeps a clock goroutine
		// (tuitest.KeepRegexpClock).
		goleak.IgnoreAnyFunction("github.com/dlclark/regexp2.runClock"),
	)
}
