package acp

import (
	"context"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// stderrRing is how much of an agent's standard error is kept.
const stderrRing = 64 << 10

// closeWait is how long Close lets an agent exit on its own after its
// standard input closed, before killing its process group.
const closeWait = 2 * time.Second

// agentProc is the agent at the other end of a conversation: a process,
// or (in tests) a pair of pipes.
type agentProc interface {
	// kill ends the agent now (its whole process group).
	kill()
	// exited is closed when the agent has exited.
	exited() <-chan struct{}
	// exitErr is how it exited, once it has.
	exitErr() error
	// stderrTail is the end of what it wrote on standard error.
	stderrTail() string
}

// process is an agent running as a subprocess, in a process group of its
// own so that killing it takes its children along.
type process struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout io.ReadCloser
	errs   *ring
	done   chan struct{}
	err    error
}

func startProcess(path string, args []string, dir string, env []string, log *slog.Logger) (*process, error) {
	cmd := exec.CommandContext(context.Background(), path, args...) //nolint:gosec // the agent the user chose to run
	cmd.Dir = dir
	cmd.Env = env
	setProcessGroup(cmd)
	r, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		_ = r.Close()
		_ = w.Close()
		return nil, err
	}
	p := &process{cmd: cmd, stdin: stdin, stdout: r, errs: &ring{log: log}, done: make(chan struct{})}
	cmd.Stdout = w
	cmd.Stderr = p.errs
	cmd.WaitDelay = closeWait
	if err := cmd.Start(); err != nil {
		_ = r.Close()
		_ = w.Close()
		return nil, err
	}
	_ = w.Close() // the child has its copy: EOF comes when it (and its children) close theirs
	go func() {
		p.err = cmd.Wait()
		close(p.done)
	}()
	return p, nil
}

func (p *process) kill()                   { killGroup(p.cmd) }
func (p *process) exited() <-chan struct{} { return p.done }
func (p *process) exitErr() error {
	<-p.done
	return p.err
}
func (p *process) stderrTail() string { return p.errs.tail() }

// ring keeps the last stderrRing bytes written to it, and logs each
// write at debug level.
type ring struct {
	mu   sync.Mutex
	buf  []byte
	full bool
	log  *slog.Logger
}

func (r *ring) Write(b []byte) (int, error) {
	if r.log != nil {
		r.log.Debug("agent stderr", "text", strings.TrimRight(string(b), "\n"))
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.buf = append(r.buf, b...)
	if len(r.buf) > stderrRing {
		r.buf = append(r.buf[:0], r.buf[len(r.buf)-stderrRing:]...)
		r.full = true
	}
	return len(b), nil
}

// tailLines is how many lines of standard error an error quotes.
const tailLines = 8

// tail is the last few lines written, without a partial first rune.
func (r *ring) tail() string {
	r.mu.Lock()
	s := string(r.buf)
	r.mu.Unlock()
	s = strings.TrimSpace(strings.ToValidUTF8(s, ""))
	lines := strings.Split(s, "\n")
	if len(lines) > tailLines {
		lines = lines[len(lines)-tailLines:]
	}
	s = strings.Join(lines, "\n")
	for len(s) > 2048 {
		_, n := utf8.DecodeRuneInString(s)
		s = s[n:]
	}
	return s
}
