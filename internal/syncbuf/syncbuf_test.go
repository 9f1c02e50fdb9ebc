package syncbuf

import (
	"strings"
	"sync"
	"testing"
)

func TestConcurrentWritesAndChanged(t *testing.T) {
	var b Buffer
	changed := b.Changed()
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 100 {
				_, _ = b.Write([]byte("x"))
			}
		})
	}
	wg.Wait()
	if got := b.String(); got != strings.Repeat("x", 800) {
		t.Fatalf("String() = %d bytes, want 800 x's", len(got))
	}
	select {
	case <-changed:
	default:
		t.Fatal("Changed did not fire after writes")
	}
	select {
	case <-changed:
		t.Fatal("Changed fired twice for writes received once")
	default:
	}
	b.Reset()
	if got := b.String(); got != "" {
		t.Fatalf("after Reset, String() = %q", got)
	}
	_, _ = b.Write([]byte("y"))
	select {
	case <-changed:
	default:
		t.Fatal("Changed did not fire after a write following Reset")
	}
}
