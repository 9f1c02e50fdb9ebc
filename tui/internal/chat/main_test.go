package chat

import (
	"testing"

	"go.uber.org/goleak"
)

// A spill writes and reads on a goroutine of its own: every test closes
// what it opened.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m,
		// chroma's regexp engine (code highlighting in diffs and
		// Markdown) keeps a clock goroutine a second past its last match.
		goleak.IgnoreAnyFunction("github.com/dlclark/regexp2.runClock"),
	)
}
