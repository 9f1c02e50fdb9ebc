package chat

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
)

// Spill keeps on disk what a transcript no longer holds in memory: the
// whole of a message longer than it shows, and the entries past its
// memory budget. The files live in a directory of this run's, created on
// the first write and removed when the program ends. Writes and reads go
// through one goroutine, in order, started while there is work and
// ending when there is none, so the event loop never waits on the disk:
// a read's result comes back as a message.
type Spill struct {
	dir string

	mu      sync.Mutex
	jobs    []spillJob
	running bool
	closed  bool
	idle    chan struct{} // closed when the goroutine ends; nil while none runs
	size    map[string]int64
	files   map[string]*os.File // the goroutine's; close takes them once it has ended
	made    bool                // the directory exists
	err     error               // the first failure, for the lines that name a file

	pending atomic.Int64 // bytes queued and not written yet

	// deliver takes the result of a read, on the spill's goroutine: the
	// program hands it to the model as a message.
	deliver func(Load)
}

// spillJob is one write, or one read when load is set.
type spillJob struct {
	file string
	text string
	load *Load
}

// Load is a read of n bytes at off of a spill file, and what came of
// it. item is the transcript entry that asked, handed back as it was:
// the program hands it to the chats (Chat.ApplyLoad) on its own
// goroutine.
type Load struct {
	conv   string
	item   *convItem
	file   string
	off, n int64
	text   string
	err    error
}

// NewSpill returns a spill whose directory will be in base (the system's
// temporary directory when empty), named for this process; deliver
// takes the result of each read, on the spill's goroutine.
func NewSpill(base string, deliver func(Load)) *Spill {
	if base == "" {
		base = os.TempDir()
	}
	var b [6]byte
	_, _ = rand.Read(b[:])
	name := "asktui-run-" + strconv.Itoa(os.Getpid()) + "-" + hex.EncodeToString(b[:])
	return &Spill{dir: filepath.Join(base, name), size: map[string]int64{}, files: map[string]*os.File{}, deliver: deliver}
}

// path is where file is (or will be).
func (s *Spill) path(file string) string { return filepath.Join(s.dir, file) }

// failure is the first error writing, if any.
func (s *Spill) failure() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

// Wait returns once what was queued so far is done: written, or read
// and delivered. (The program never waits on the disk; its benchmarks
// do, to time a frame without the writes before it.)
func (s *Spill) Wait() {
	s.mu.Lock()
	idle := s.idle
	s.mu.Unlock()
	if idle != nil {
		<-idle
	}
}

// write appends text to file and returns the offset it starts at. It
// never blocks on the disk.
func (s *Spill) write(file, text string) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	off := s.size[file]
	if s.closed || text == "" {
		return off
	}
	s.size[file] = off + int64(len(text))
	s.pending.Add(int64(len(text)))
	s.queue(spillJob{file: file, text: text})
	return off
}

// read reads n bytes at off of file, after every write queued before it,
// and hands the result to deliver.
func (s *Spill) read(l Load) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return
	}
	s.queue(spillJob{load: &l})
}

// queue adds a job and starts the goroutine if none runs; s.mu is held.
func (s *Spill) queue(j spillJob) {
	s.jobs = append(s.jobs, j)
	if !s.running {
		s.running = true
		s.idle = make(chan struct{})
		go s.work(s.idle)
	}
}

// work does the queued jobs until there are none.
func (s *Spill) work(idle chan struct{}) {
	defer close(idle)
	for {
		s.mu.Lock()
		if len(s.jobs) == 0 || s.closed {
			s.running = false
			s.mu.Unlock()
			return
		}
		j := s.jobs[0]
		s.jobs[0] = spillJob{}
		s.jobs = s.jobs[1:]
		s.mu.Unlock()
		if j.load != nil {
			s.doRead(j.load)
			continue
		}
		err := s.doWrite(j.file, j.text)
		s.pending.Add(-int64(len(j.text)))
		if err != nil {
			s.mu.Lock()
			if s.err == nil {
				s.err = err
			}
			s.mu.Unlock()
		}
	}
}

// open returns file, creating the directory and the file when new.
func (s *Spill) open(file string) (*os.File, error) {
	if f := s.files[file]; f != nil {
		return f, nil
	}
	if !s.made {
		if err := os.Mkdir(s.dir, 0o700); err != nil {
			return nil, err
		}
		s.made = true
	}
	f, err := os.OpenFile(s.path(file), os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, err
	}
	s.files[file] = f
	return f, nil
}

func (s *Spill) doWrite(file, text string) error {
	f, err := s.open(file)
	if err != nil {
		return err
	}
	_, err = f.WriteString(text)
	return err
}

func (s *Spill) doRead(l *Load) {
	f, err := s.open(l.file)
	if err == nil {
		buf := make([]byte, l.n)
		var n int
		n, err = f.ReadAt(buf, l.off)
		l.text = string(buf[:n])
		if int64(n) == l.n {
			err = nil
		}
	}
	if err == nil {
		err = s.failure()
	}
	l.err = err
	if s.deliver != nil {
		s.deliver(*l)
	}
}

// Close drops what is still queued, waits for the goroutine, and removes
// the files and their directory.
func (s *Spill) Close() error {
	s.mu.Lock()
	s.closed = true
	s.jobs = nil
	idle := s.idle
	s.mu.Unlock()
	if idle != nil {
		<-idle
	}
	var errs []error
	for _, f := range s.files {
		errs = append(errs, f.Close())
	}
	s.files = map[string]*os.File{}
	if s.made {
		errs = append(errs, os.RemoveAll(s.dir))
	}
	return errors.Join(errs...)
}
