package tui

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/asktui/asktui/tui/internal/app"
	"github.com/asktui/asktui/tui/internal/tuitest"
)

// The fixtures and checks of package tui's tests, shared with
// tui/internal/app's (tui/internal/tuitest): the same questions, the same
// clock, the same key names.
var (
	fixedNow       = tuitest.FixedNow
	keyMsgs        = tuitest.KeyMsgs
	runCmd         = tuitest.RunCmd
	flatten        = tuitest.Flatten
	mustContain    = tuitest.MustContain
	mustNotContain = tuitest.MustNotContain
	mustFit        = tuitest.MustFit
	opts           = tuitest.Opts
	single         = tuitest.Single
	deployQuestion = tuitest.DeployQuestion
	setupRequest   = tuitest.SetupRequest
)

// run runs a test in a synctest bubble. The timers its commands left
// waiting fire when it ends: time in a bubble is fake, so letting an hour
// pass takes no time, and every command goroutine then returns.
func run(t *testing.T, f func(t *testing.T)) {
	t.Helper()
	synctest.Test(t, func(t *testing.T) {
		defer func() {
			time.Sleep(time.Hour) // fake time: fires the pending timers at once
			synctest.Wait()
		}()
		f(t)
	})
}

// screen is the model's screen as last drawn, unstyled.
func screen(m *app.Model) string { return m.Screen() }
