package script

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/asktui/asktui/interaction"
)

// Keyboard presses keys in the user interface, as the human would. Each
// key is a name from [KeyNames] or a single typed character ("a", "é",
// "?"); a typed space arrives as "space". The [Player] presses one key per
// call, so it controls the pace.
type Keyboard interface {
	Press(keys ...string) error
}

// Focuser is a [Keyboard] that can bring an agent's oldest waiting
// request to the front, holding later key presses until that request is
// on screen. The [Player] uses it when the Keyboard has it, so each key
// sequence reaches the request it was written for even when several
// agents ask at once or a request arrives late.
type Focuser interface {
	Focus(agent interaction.Agent) error
}

// The default pace of a [Player] at speed 1.
const (
	// DefaultReadDelay is the pause before a sequence, while the human
	// reads the question.
	DefaultReadDelay = 1200 * time.Millisecond
	// DefaultKeyDelay is the pause between two keys.
	DefaultKeyDelay = 180 * time.Millisecond
	// DefaultTypeDelay is the pause between two typed characters.
	DefaultTypeDelay = 40 * time.Millisecond
)

// Player plays the human's side of a scenario: it presses queued key
// sequences, one sequence per ask in the order the asks were sent, at a
// human pace. The user interface shows waiting requests in arrival order,
// so the sequences answer them in order. The pace is fixed: the same
// sequences always make the same pauses.
//
// Wire it to a [Runner] with
//
//	runner.OnAsk = player.Enqueue
//
// The zero value, given a Keyboard, is ready to use. Enqueue may be called
// from any goroutine; Run must run only once at a time.
type Player struct {
	// Keyboard receives the key presses.
	Keyboard Keyboard
	// Speed scales every pause: 2 plays twice as fast. Zero, negative and
	// NaN mean real time.
	Speed float64
	// Sleep waits; nil uses a real timer.
	Sleep SleepFunc
	// ReadDelay, KeyDelay and TypeDelay override the default pace
	// ([DefaultReadDelay], [DefaultKeyDelay], [DefaultTypeDelay]) when
	// positive.
	ReadDelay, KeyDelay, TypeDelay time.Duration

	mu    sync.Mutex
	queue []sequence
	wake  chan struct{}
}

// sequence is the keys for one ask, and whose ask it is.
type sequence struct {
	agent interaction.Agent
	keys  []string
}

// Enqueue adds the key sequence (see [CheckKey] for its entries) that
// answers an ask of agent a to the end of the queue. An empty sequence is
// ignored: that ask is left to the agent or to the human at the keyboard.
// Enqueue never blocks.
func (p *Player) Enqueue(a interaction.Agent, keys []string) {
	if len(keys) == 0 {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.queue = append(p.queue, sequence{agent: a, keys: append([]string(nil), keys...)})
	select {
	case p.wakeup() <- struct{}{}:
	default:
	}
}

// wakeup returns the channel that signals a new sequence; p.mu is held.
func (p *Player) wakeup() chan struct{} {
	if p.wake == nil {
		p.wake = make(chan struct{}, 1)
	}
	return p.wake
}

// next takes the first queued sequence, waiting for one until ctx ends.
func (p *Player) next(ctx context.Context) (sequence, bool) {
	for {
		p.mu.Lock()
		if len(p.queue) > 0 {
			seq := p.queue[0]
			p.queue[0] = sequence{}
			p.queue = p.queue[1:]
			p.mu.Unlock()
			return seq, true
		}
		wake := p.wakeup()
		p.mu.Unlock()
		select {
		case <-ctx.Done():
			return sequence{}, false
		case <-wake:
		}
	}
}

// Run presses the queued sequences in order until ctx ends, then returns
// nil. Before each sequence it waits ReadDelay; between keys KeyDelay;
// between the typed characters of a text entry TypeDelay; and a
// "pause:D" entry adds D to the wait before the next key. Every wait is
// divided by Speed. Run returns early with an error when an entry is
// invalid or the Keyboard fails.
func (p *Player) Run(ctx context.Context) error {
	for {
		seq, ok := p.next(ctx)
		if !ok {
			return nil
		}
		if err := p.play(ctx, seq); err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return err
		}
	}
}

func (p *Player) play(ctx context.Context, s sequence) error {
	seq := s.keys
	for i, k := range seq {
		if err := CheckKey(k); err != nil {
			return fmt.Errorf("script: autoplay key %d: %w", i+1, err)
		}
	}
	if f, ok := p.Keyboard.(Focuser); ok {
		if err := f.Focus(s.agent); err != nil {
			return fmt.Errorf("script: autoplay: focusing %s's request: %w", s.agent.DisplayName(), err)
		}
	}
	wait := orDefault(p.ReadDelay, DefaultReadDelay)
	prev := -1 // entry of the previous typed character
	first := true
	for _, pr := range expand(seq) {
		if pr.key == "" {
			wait += pr.pause
			continue
		}
		if !first {
			if pr.typed && pr.entry == prev {
				wait += orDefault(p.TypeDelay, DefaultTypeDelay)
			} else {
				wait += orDefault(p.KeyDelay, DefaultKeyDelay)
			}
		}
		if err := sleepScaled(ctx, p.Sleep, wait, p.Speed); err != nil {
			return err
		}
		if err := p.Keyboard.Press(pr.key); err != nil {
			return fmt.Errorf("script: autoplay: pressing %q: %w", pr.key, err)
		}
		wait, first, prev = 0, false, -1
		if pr.typed {
			prev = pr.entry
		}
	}
	return nil
}

func orDefault(d, def time.Duration) time.Duration {
	if d > 0 {
		return d
	}
	return def
}
