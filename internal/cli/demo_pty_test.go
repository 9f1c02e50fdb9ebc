package cli

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/asktui/asktui/internal/ptytest"
	"github.com/asktui/asktui/tui/cast"
)

// TestPTYDemoRecordReplays plays a scenario on a real pseudo-terminal with
// --autoplay --record, then replays the .cast through a terminal emulator:
// its last full screen must equal the one the terminal itself showed, and
// show how the scenario ended.
func TestPTYDemoRecordReplays(t *testing.T) {
	skipUnderRace(t)
	term := ptytest.New(t, ptytest.Options{})
	path := filepath.Join(t.TempDir(), "deploy.cast")
	out := askOnPTY(t, context.Background(), term, "", nil,
		"demo", "deploy", "--autoplay", "--speed", "8", "--theme", "dark", "--record", path)
	if out.code != 0 {
		t.Fatalf("exit %d\nstderr: %s\nscreen:\n%s", out.code, out.stderr, term.Text(0))
	}

	f, err := os.Open(path) //nolint:gosec // a path the test made, or its testdata
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	hdr, events, err := cast.Read(f)
	if err != nil {
		t.Fatal(err)
	}
	if hdr.Width != 100 || hdr.Height != 30 || len(events) < 10 {
		t.Fatalf("header %+v with %d events", hdr, len(events))
	}
	replayed, err := cast.ReplayAltScreen(hdr, events)
	if err != nil {
		t.Fatal(err)
	}

	seen := string(term.Output())
	shown, err := cast.ReplayAltScreen(hdr, []cast.Event{{Time: 0, Type: cast.Output, Data: seen}})
	if err != nil {
		t.Fatal(err)
	}
	if replayed != shown {
		t.Fatalf("the recording replays to\n%s\nbut the terminal showed\n%s", replayed, shown)
	}
	for _, want := range []string{"answered: Yes (Recommended)", "release"} {
		if !strings.Contains(replayed, want) {
			t.Fatalf("the last screen lacks %q:\n%s", want, replayed)
		}
	}
}

// TestPTYDemoSaysWhenFinished: once every scripted agent is done, the
// demo says so and how to leave.
func TestPTYDemoSaysWhenFinished(t *testing.T) {
	skipUnderRace(t)
	term := ptytest.New(t, ptytest.Options{})
	out := askOnPTY(t, context.Background(), term, "", func() {
		term.WaitFor(0, "production?")
		term.WaitSeen(0)
		term.Type("1")
		term.WaitFor(0, "finished:")
		term.Type("\x03")
	}, "demo", "deploy", "--speed", "20", "--theme", "dark")
	if out.code != 0 {
		t.Fatalf("exit %d: %s", out.code, out.stderr)
	}
}

// TestPTYDemoCtrlCWhileWaiting: ctrl+c with a question waiting exits 130,
// the rule of every command, and says the questions were closed.
func TestPTYDemoCtrlCWhileWaiting(t *testing.T) {
	skipUnderRace(t)
	term := ptytest.New(t, ptytest.Options{})
	out := askOnPTY(t, context.Background(), term, "", func() {
		term.WaitFor(0, "production?")
		term.Type("\x03")
	}, "demo", "deploy", "--speed", "20", "--theme", "dark")
	if out.code != exitInterrupted || !strings.Contains(out.stderr, `"PROVIDER_CLOSED","message":"interrupted`) {
		t.Fatalf("exit %d, stderr %q; want 130 and PROVIDER_CLOSED", out.code, out.stderr)
	}
}
