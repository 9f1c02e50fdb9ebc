// Package syncbuf is a bytes.Buffer that one goroutine may write while
// others read it and wait for more, as tests do with a program's output.
package syncbuf

import (
	"bytes"
	"sync"
)

// Buffer is a bytes.Buffer safe for concurrent use, which says when it
// was written to. The zero value is ready to use.
type Buffer struct {
	mu      sync.Mutex
	b       bytes.Buffer
	changed chan struct{}
}

// Write appends p and wakes a waiter on [Buffer.Changed]. It never fails.
func (s *Buffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	s.b.Write(p)
	ch := s.changedLocked()
	s.mu.Unlock()
	select {
	case ch <- struct{}{}:
	default:
	}
	return len(p), nil
}

// String returns everything written since the last [Buffer.Reset].
func (s *Buffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// Reset empties the buffer.
func (s *Buffer) Reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.b.Reset()
}

// Changed receives after a Write: one signal stands for every write since
// the last receive, so a waiter checks the contents again after each.
func (s *Buffer) Changed() <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.changedLocked()
}

func (s *Buffer) changedLocked() chan struct{} {
	if s.changed == nil {
		s.changed = make(chan struct{}, 1)
	}
	return s.changed
}
