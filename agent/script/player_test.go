package script

import (
	"context"
	"errors"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/asktui/asktui/interaction"
)

// fakeKeyboard records presses with the fake time they happened at and
// signals when it has seen n of them.
type fakeKeyboard struct {
	clock *virtualClock
	n     int
	fail  error

	mu      sync.Mutex
	presses []string
	at      []time.Duration
	done    chan struct{}
}

func newKeyboard(clock *virtualClock, n int) *fakeKeyboard {
	return &fakeKeyboard{clock: clock, n: n, done: make(chan struct{})}
}

func (k *fakeKeyboard) Press(keys ...string) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.fail != nil {
		return k.fail
	}
	k.presses = append(k.presses, keys...)
	k.at = append(k.at, k.clock.now())
	if len(k.presses) == k.n {
		close(k.done)
	}
	return nil
}

// virtualClock is an instant Sleep that advances a virtual time and
// records each wait.
type virtualClock struct {
	mu     sync.Mutex
	t      time.Duration
	sleeps []time.Duration
}

func (c *virtualClock) Sleep(ctx context.Context, d time.Duration) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t += d
	c.sleeps = append(c.sleeps, d)
	return ctx.Err()
}

func (c *virtualClock) now() time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *virtualClock) waits() []time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.sleeps)
}

// runPlayer runs p until the keyboard has seen its presses, then stops it.
func runPlayer(t *testing.T, p *Player, kb *fakeKeyboard) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- p.Run(ctx) }()
	waitFor(t, kb.done, "the key presses")
	cancel()
	if err := waitFor(t, done, "Run to return"); err != nil {
		t.Fatalf("Run: %v", err)
	}
}

func TestPlayerFIFOAndPace(t *testing.T) {
	clock := &virtualClock{}
	kb := newKeyboard(clock, 8)
	p := &Player{Keyboard: kb, Speed: 2, Sleep: clock.Sleep}
	p.Enqueue(interaction.Agent{ID: "a"}, []string{"down", "pause:500ms", "enter"})
	p.Enqueue(interaction.Agent{ID: "a"}, nil) // ignored
	p.Enqueue(interaction.Agent{ID: "a"}, []string{"a b", "xy", "enter"})
	runPlayer(t, p, kb)

	if want := []string{"down", "enter", "a", "space", "b", "x", "y", "enter"}; !slices.Equal(kb.presses, want) {
		t.Errorf("presses = %q, want %q", kb.presses, want)
	}
	ms := time.Millisecond
	// At speed 2: reading 600ms, between keys 90ms, between typed
	// characters 20ms; a pause adds its own length halved.
	want := []time.Duration{
		600 * ms,             // read, then down
		(180 + 500) / 2 * ms, // gap + pause, then enter
		600 * ms,             // read, then a
		20 * ms,              // space
		20 * ms,              // b
		90 * ms,              // a new text entry: x
		20 * ms,              // y
		90 * ms,              // enter
	}
	if got := clock.waits(); !slices.Equal(got, want) {
		t.Errorf("waits = %v, want %v", got, want)
	}
	if kb.at[1] != 940*ms {
		t.Errorf("enter pressed at %v, want 940ms", kb.at[1])
	}
}

func TestPlayerEnqueueWhileRunning(t *testing.T) {
	clock := &virtualClock{}
	kb := newKeyboard(clock, 3)
	p := &Player{Keyboard: kb, Sleep: clock.Sleep, ReadDelay: time.Second, KeyDelay: 100 * time.Millisecond}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- p.Run(ctx) }()
	p.Enqueue(interaction.Agent{ID: "a"}, []string{"up"})
	p.Enqueue(interaction.Agent{ID: "a"}, []string{"down", "enter"})
	waitFor(t, kb.done, "the key presses")
	cancel()
	if err := waitFor(t, done, "Run to return"); err != nil {
		t.Fatal(err)
	}
	if want := []string{"up", "down", "enter"}; !slices.Equal(kb.presses, want) {
		t.Errorf("presses = %q, want %q", kb.presses, want)
	}
	if want := []time.Duration{time.Second, time.Second, 100 * time.Millisecond}; !slices.Equal(clock.waits(), want) {
		t.Errorf("waits = %v, want %v (custom delays)", clock.waits(), want)
	}
}

func TestPlayerStopsWhenIdle(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	p := &Player{Keyboard: newKeyboard(&virtualClock{}, 1)} // real clock
	if err := p.Run(ctx); err != nil {
		t.Errorf("Run = %v, want nil when the context ends", err)
	}
}

func TestPlayerStopsMidSequence(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	kb := newKeyboard(&virtualClock{}, 1)
	p := &Player{Keyboard: kb, Sleep: func(ctx context.Context, d time.Duration) error {
		cancel() // the demo ends while the human reads
		return ctx.Err()
	}}
	p.Enqueue(interaction.Agent{ID: "a"}, []string{"enter"})
	if err := p.Run(ctx); err != nil {
		t.Errorf("Run = %v, want nil", err)
	}
	if len(kb.presses) != 0 {
		t.Errorf("pressed %q after the end", kb.presses)
	}
}

func TestPlayerErrors(t *testing.T) {
	clock := &virtualClock{}
	kb := newKeyboard(clock, 1)
	kb.fail = errors.New("no screen")
	p := &Player{Keyboard: kb, Sleep: clock.Sleep}
	p.Enqueue(interaction.Agent{ID: "a"}, []string{"enter"})
	if err := p.Run(context.Background()); err == nil || !strings.Contains(err.Error(), "no screen") {
		t.Errorf("Run = %v, want the keyboard's error", err)
	}

	p = &Player{Keyboard: newKeyboard(clock, 1), Sleep: clock.Sleep}
	p.Enqueue(interaction.Agent{ID: "a"}, []string{"ctrl+q"})
	if err := p.Run(context.Background()); err == nil || !strings.Contains(err.Error(), `"ctrl+q"`) {
		t.Errorf("Run = %v, want an invalid key error", err)
	}
}

func TestPlayerEnqueueCopies(t *testing.T) {
	clock := &virtualClock{}
	kb := newKeyboard(clock, 1)
	p := &Player{Keyboard: kb, Sleep: clock.Sleep}
	keys := []string{"enter"}
	p.Enqueue(interaction.Agent{ID: "a"}, keys)
	keys[0] = "esc"
	runPlayer(t, p, kb)
	if kb.presses[0] != "enter" {
		t.Errorf("pressed %q; Enqueue should copy its argument", kb.presses[0])
	}
}

func TestCheckKey(t *testing.T) {
	for _, k := range []string{"up", "shift+tab", "alt+enter", "ctrl+n", "pause:1.5s", "pause:0s", "hello world",
		"Jenkins (on-prem)", "c++", "1+1", "j", "?", "text:up", "text:ctrl+x", "é"} {
		if err := CheckKey(k); err != nil {
			t.Errorf("CheckKey(%q) = %v, want ok", k, err)
		}
	}
	for k, want := range map[string]string{
		"":            "is empty",
		"ctrl+x":      "not a known key name",
		"Shift+Up":    "not a known key name",
		"f5":          "not a known key name",
		"escape":      `write "esc"`,
		"Return":      `write "enter"`,
		"pause:":      "not a valid pause",
		"pause:-1s":   "not a valid pause",
		"text:":       "no text",
		"line\nbreak": "control character",
		"tab\there":   "control character",
		"\xff":        "UTF-8",
	} {
		if err := CheckKey(k); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("CheckKey(%q) = %v, want an error containing %q", k, err, want)
		}
	}
	names := KeyNames()
	names[0] = "changed"
	if KeyNames()[0] != "up" {
		t.Error("KeyNames returns the package's own slice")
	}
}

// focusKeyboard records focus requests beside the keys.
type focusKeyboard struct {
	mu  sync.Mutex
	log []string
}

func (k *focusKeyboard) Press(keys ...string) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.log = append(k.log, keys...)
	return nil
}

func (k *focusKeyboard) Focus(a interaction.Agent) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.log = append(k.log, "focus:"+a.ID)
	return nil
}

func TestPlayerFocusesEachSequencesAgent(t *testing.T) {
	kb := &focusKeyboard{}
	p := &Player{Keyboard: kb, Sleep: func(ctx context.Context, d time.Duration) error { return ctx.Err() }}
	p.Enqueue(interaction.Agent{ID: "codex"}, []string{"enter"})
	p.Enqueue(interaction.Agent{ID: "gemini"}, []string{"down", "enter"})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- p.Run(ctx) }()
	for {
		kb.mu.Lock()
		n := len(kb.log)
		kb.mu.Unlock()
		if n == 5 {
			break
		}
		runtime.Gosched()
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(kb.log, " "); got != "focus:codex enter focus:gemini down enter" {
		t.Fatalf("presses = %q", got)
	}
}
