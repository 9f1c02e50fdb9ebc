// Package sshserve serves the asktui inbox over SSH: each session is
// another view of the same interaction/inbox Inbox, a tui.Program drawing
// on the client's terminal. The first view to answer a request wins; the
// others show where it was answered.
//
// Only public-key authentication is offered, against an authorized_keys
// file whose permissions are checked; the host key is generated once and
// kept with mode 0600 in a directory only its owner can write. Nothing but
// the view runs: no exec, no subsystem, no port forwarding (agent
// forwarding is accepted by the protocol library but never used). Limits:
// a cap on sessions, a cap and a per-address rate on connections before
// they authenticate, a login grace time, and a bound on each view's size
// (whatever size the client claims, and however often it changes it).
package sshserve

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"charm.land/ssh"
	"charm.land/wish/v2"
	"github.com/charmbracelet/colorprofile"
	gossh "golang.org/x/crypto/ssh"
	"golang.org/x/time/rate"

	"github.com/asktui/asktui/interaction/inbox"
	"github.com/asktui/asktui/styles"
	"github.com/asktui/asktui/tui"
)

// DefaultAddr is where serve --ssh listens unless told otherwise.
const DefaultAddr = "127.0.0.1:2222"

// A view's size is the client's terminal's, within these bounds. The
// renderer keeps two buffers of 112 bytes a cell, each as large as the
// widest and the tallest the view has ever been (a client alternating a
// wide and a tall size costs the area of both): a client claiming a
// 10000x10000 terminal would cost 22 GB. 400 columns and 150 rows are a
// 4K screen filled with a terminal in a 10-pixel font; a bigger terminal
// shows the view in its top-left corner.
const (
	MaxWidth  = 400
	MaxHeight = 150
)

// ResizeEvery is how often a view follows its client's window changes at
// most: a flood of them (a window dragged, or a client sending them in a
// loop) is applied once per ResizeEvery, the last size winning.
const ResizeEvery = time.Second / 30

// ViewSize is the size a view draws at for a client whose terminal is
// width x height: within MaxWidth and MaxHeight, and 80x24 for a terminal
// that reports no size.
func ViewSize(width, height int) (int, int) {
	if width <= 0 || height <= 0 {
		return 80, 24
	}
	return min(width, MaxWidth), min(height, MaxHeight)
}

// Config configures a Server.
type Config struct {
	// Addr is host:port to listen on.
	Addr string
	// HostKeyPath is the host key, generated on first use.
	HostKeyPath string
	// AuthorizedKeys is the file of the public keys allowed in.
	AuthorizedKeys string
	// Inbox is the inbox every session is a view of.
	Inbox *inbox.Inbox
	// Theme and Alerts are each view's (each view detects its own
	// terminal's background with ThemeAuto).
	Theme  styles.Theme
	Alerts tui.Alerts
	// Rules are the human's standing answers, for each view's remember
	// dialog and rules pane (nil: neither). Whoever holds an authorized
	// key is the human who runs serve.
	Rules tui.Rules
	// MaxSessions caps the views open at once (default 8).
	MaxSessions int
	// MaxUnauthenticated caps connections still authenticating (default
	// 16); LoginGrace is how long one may take (default 30 s).
	MaxUnauthenticated int
	LoginGrace         time.Duration
	// ConnRate and ConnBurst limit new connections per remote address
	// (default 1 a second, bursts of 10).
	ConnRate  rate.Limit
	ConnBurst int
	// Log receives one line per refused or failed connection, without
	// key material (the serving process's standard error).
	Log io.Writer
}

// Server is a running SSH server of views.
type Server struct {
	srv         *ssh.Server
	ln          net.Listener
	fingerprint string
	cfg         Config

	mu    sync.Mutex
	views map[*tui.Program]struct{}
	done  bool

	// resized, when set (by tests), learns every size a view follows.
	resized func(w, h int)

	sessions atomic.Int64
	pending  atomic.Int64 // connections not yet authenticated
	waiting  sync.Map     // their remote addresses
	limiters sync.Map     // remote IP → *rate.Limiter
}

// Listen checks the host key and authorized keys, binds addr and returns
// the server, ready to Serve.
func Listen(cfg Config) (*Server, error) {
	if cfg.Inbox == nil {
		return nil, errors.New("sshserve: no inbox")
	}
	if cfg.MaxSessions <= 0 {
		cfg.MaxSessions = 8
	}
	if cfg.MaxUnauthenticated <= 0 {
		cfg.MaxUnauthenticated = 16
	}
	if cfg.LoginGrace <= 0 {
		cfg.LoginGrace = 30 * time.Second
	}
	if cfg.ConnRate <= 0 {
		cfg.ConnRate = 1
	}
	if cfg.ConnBurst <= 0 {
		cfg.ConnBurst = 10
	}
	if cfg.Log == nil {
		cfg.Log = io.Discard
	}
	keyPEM, fp, err := LoadOrCreateHostKey(cfg.HostKeyPath)
	if err != nil {
		return nil, err
	}
	keys := &authorizedKeys{path: cfg.AuthorizedKeys, log: cfg.Log}
	if _, err := keys.load(); err != nil {
		return nil, err
	}
	s := &Server{fingerprint: fp, cfg: cfg, views: map[*tui.Program]struct{}{}}
	srv, err := wish.NewServer(
		wish.WithAddress(cfg.Addr),
		wish.WithVersion("asktui"),
		wish.WithHostKeyPEM(keyPEM),
		wish.WithPublicKeyAuth(keys.allowed),
		func(srv *ssh.Server) error {
			srv.HandshakeTimeout = cfg.LoginGrace
			// A view, and nothing else: no exec, no subsystem.
			srv.SessionRequestCallback = func(_ ssh.Session, t string) bool { return t == "shell" }
			srv.ConnCallback = s.accept
			srv.ConnectionFailedCallback = func(c net.Conn, err error) {
				s.admitted(c.RemoteAddr())
				s.logf("ssh: connection from %s failed: %v", c.RemoteAddr(), authReason(err))
			}
			srv.ConnectionCloseCallback = func(c net.Conn) { s.admitted(c.RemoteAddr()) }
			srv.ServerConfigCallback = func(ssh.Context) *gossh.ServerConfig {
				return &gossh.ServerConfig{MaxAuthTries: 3}
			}
			return nil
		},
		wish.WithMiddleware(s.view, s.limitSessions, s.authenticated),
	)
	if err != nil {
		return nil, err
	}
	ln, err := (&net.ListenConfig{}).Listen(context.Background(), "tcp", cfg.Addr)
	if err != nil {
		return nil, fmt.Errorf("ssh: listening on %s: %w", cfg.Addr, err)
	}
	s.srv, s.ln = srv, ln
	return s, nil
}

// Addr is the address the server listens on.
func (s *Server) Addr() net.Addr { return s.ln.Addr() }

// Fingerprint is the host key's SHA256 fingerprint, for the human to
// check the first time a client connects.
func (s *Server) Fingerprint() string { return s.fingerprint }

// Serve serves until Shutdown; it returns nil then.
func (s *Server) Serve() error {
	err := s.srv.Serve(s.ln)
	if errors.Is(err, ssh.ErrServerClosed) {
		return nil
	}
	return err
}

// Shutdown quits every view, waits for the sessions to end (at most until
// ctx ends), then closes what is left.
func (s *Server) Shutdown(ctx context.Context) error {
	s.mu.Lock()
	s.done = true
	for v := range s.views {
		v.Quit()
	}
	s.mu.Unlock()
	if err := s.srv.Shutdown(ctx); err != nil {
		return s.srv.Close()
	}
	return nil
}

func (s *Server) logf(format string, args ...any) {
	_, _ = fmt.Fprintf(s.cfg.Log, "asktui: "+format+"\n", args...)
}

// authReason says why a connection failed, without key material.
func authReason(err error) string {
	var auth *gossh.ServerAuthError
	if errors.As(err, &auth) {
		return "authentication failed (only the keys in the authorized keys file are accepted)"
	}
	return err.Error()
}

// accept admits a connection before its handshake: within the rate of its
// address and the cap on unauthenticated connections.
func (s *Server) accept(_ ssh.Context, c net.Conn) net.Conn {
	host, _, _ := net.SplitHostPort(c.RemoteAddr().String())
	lim, _ := s.limiters.LoadOrStore(host, rate.NewLimiter(s.cfg.ConnRate, s.cfg.ConnBurst))
	if !lim.(*rate.Limiter).Allow() {
		s.logf("ssh: refused %s: too many connections from it", c.RemoteAddr())
		return nil
	}
	if s.pending.Add(1) > int64(s.cfg.MaxUnauthenticated) {
		s.pending.Add(-1)
		s.logf("ssh: refused %s: too many connections authenticating", c.RemoteAddr())
		return nil
	}
	s.waiting.Store(c.RemoteAddr().String(), struct{}{})
	return c
}

// admitted stops counting the connection from addr as authenticating: it
// authenticated, failed, or closed. Each connection counts once.
func (s *Server) admitted(addr net.Addr) {
	if addr == nil {
		return
	}
	if _, ok := s.waiting.LoadAndDelete(addr.String()); ok {
		s.pending.Add(-1)
	}
}

// authenticated counts a session's connection as past authentication.
func (s *Server) authenticated(next ssh.Handler) ssh.Handler {
	return func(sess ssh.Session) {
		s.admitted(sess.RemoteAddr())
		next(sess)
	}
}

// limitSessions caps the views open at once.
func (s *Server) limitSessions(next ssh.Handler) ssh.Handler {
	return func(sess ssh.Session) {
		if s.sessions.Add(1) > int64(s.cfg.MaxSessions) {
			s.sessions.Add(-1)
			wish.Fatalln(sess, fmt.Sprintf("asktui: too many views are open (at most %d); close one and try again", s.cfg.MaxSessions))
			return
		}
		defer s.sessions.Add(-1)
		next(sess)
	}
}

// view runs one session's view of the inbox on the client's terminal.
func (s *Server) view(next ssh.Handler) ssh.Handler {
	return func(sess ssh.Session) {
		pty, winch, ok := sess.Pty()
		if !ok {
			wish.Fatalln(sess, "asktui needs a terminal: connect with ssh -t")
			return
		}
		env := append(append([]string(nil), sess.Environ()...), "TERM="+pty.Term)
		w, h := ViewSize(pty.Window.Width, pty.Window.Height)
		name := "ssh " + sess.User() + "@" + hostOf(sess.RemoteAddr())
		p := tui.New(tui.Options{
			Input: sess, Output: sess, Environ: env,
			Width: w, Height: h,
			// The size reports a client may type into its session are
			// bounded too.
			ClampSize:    ViewSize,
			ColorProfile: colorprofile.Env(env),
			Remote:       true,
			FPS:          120,
			Theme:        s.cfg.Theme,
			Session:      true,
			Inbox:        s.cfg.Inbox,
			Rules:        s.cfg.Rules,
			Name:         name,
			Alerts:       s.cfg.Alerts,
			Status:       "the asktui inbox, over SSH · ctrl+c closes this view",
		})
		s.mu.Lock()
		if s.done {
			s.mu.Unlock()
			return
		}
		s.views[p] = struct{}{}
		s.mu.Unlock()
		ctx, cancel := context.WithCancel(sess.Context())
		go followWindow(ctx, winch, size{w, h}, ResizeEvery, func(sz size) {
			p.Resize(sz.w, sz.h)
			if s.resized != nil {
				s.resized(sz.w, sz.h)
			}
		})
		_ = p.Run(ctx)
		cancel()
		s.mu.Lock()
		delete(s.views, p)
		s.mu.Unlock()
		next(sess)
	}
}

// size is a view's size in cells.
type size struct{ w, h int }

// followWindow applies the client's window changes to its view until ctx
// ends or winch closes: each clamped by ViewSize, a size the view already
// has skipped, and at most one every interval. A change after a quiet
// interval is applied at once; those that follow within the interval
// wait for its end, and only the last of them is applied.
func followWindow(ctx context.Context, winch <-chan ssh.Window, cur size, interval time.Duration, apply func(size)) {
	var (
		pending  = cur
		last     time.Time // when the last change was applied
		timer    *time.Timer
		deadline <-chan time.Time
	)
	defer func() {
		if timer != nil {
			timer.Stop()
		}
	}()
	flush := func() {
		deadline = nil
		if pending != cur {
			cur, last = pending, time.Now()
			apply(cur)
		}
	}
	for {
		select {
		case <-ctx.Done():
			return
		case win, ok := <-winch:
			if !ok {
				return
			}
			w, h := ViewSize(win.Width, win.Height)
			pending = size{w, h}
			if deadline != nil {
				continue // the end of the interval applies it
			}
			wait := interval - time.Since(last)
			if wait <= 0 {
				flush()
				continue
			}
			if timer == nil {
				timer = time.NewTimer(wait)
			} else {
				timer.Reset(wait)
			}
			deadline = timer.C
		case <-deadline:
			flush()
		}
	}
}

func hostOf(a net.Addr) string {
	if a == nil {
		return "?"
	}
	host, _, err := net.SplitHostPort(a.String())
	if err != nil {
		return a.String()
	}
	return host
}

// LoadOrCreateHostKey returns the host key at path (its PEM and SHA256
// fingerprint), generating an ed25519 key there the first time. It
// refuses a key, or a directory holding one, that another user owns or
// that others can write (the key file others can read), saying how to
// fix it.
func LoadOrCreateHostKey(path string) ([]byte, string, error) {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, "", fmt.Errorf("ssh host key: %w", err)
	}
	if err := checkOwned(dir, 0o022, "directory"); err != nil {
		return nil, "", err
	}
	if b, err := readChecked(path); err == nil {
		signer, err := gossh.ParsePrivateKey(b)
		if err != nil {
			return nil, "", fmt.Errorf("ssh host key %s: %w (remove it to generate a new one)", path, err)
		}
		return b, gossh.FingerprintSHA256(signer.PublicKey()), nil
	} else if !errors.Is(err, os.ErrNotExist) {
		return nil, "", err
	}
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, "", err
	}
	block, err := gossh.MarshalPrivateKey(priv, "asktui host key")
	if err != nil {
		return nil, "", err
	}
	b := pem.EncodeToMemory(block)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL|noFollow, 0o600) //nolint:gosec // the host key the user named, created exclusively without following a link
	if err != nil {
		return nil, "", fmt.Errorf("ssh host key: %w", err)
	}
	if _, err := f.Write(b); err != nil {
		_ = f.Close()
		return nil, "", fmt.Errorf("ssh host key: %w", err)
	}
	if err := f.Close(); err != nil {
		return nil, "", fmt.Errorf("ssh host key: %w", err)
	}
	signer, err := gossh.ParsePrivateKey(b)
	if err != nil {
		return nil, "", err
	}
	return b, gossh.FingerprintSHA256(signer.PublicKey()), nil
}

// readChecked reads a private file: ours, not a symlink, mode 0600 at
// most.
func readChecked(path string) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|noFollow, 0) //nolint:gosec // the host key the user named, opened without following a link
	if err != nil {
		if errors.Is(err, syscall.ELOOP) {
			return nil, fmt.Errorf("ssh host key %s is a symbolic link; asktui keeps its key in a plain file: remove the link", path)
		}
		return nil, err
	}
	defer func() { _ = f.Close() }()
	if err := checkOwnedFile(f, path, 0o077, "file"); err != nil {
		return nil, err
	}
	return io.ReadAll(io.LimitReader(f, 1<<20))
}

// checkOwned refuses a path another user owns, or whose mode has any of
// the bits in bad.
func checkOwned(path string, bad os.FileMode, what string) error {
	st, err := os.Lstat(path)
	if err != nil {
		return err
	}
	return checkInfo(st, path, bad, what)
}

func checkOwnedFile(f *os.File, path string, bad os.FileMode, what string) error {
	st, err := f.Stat()
	if err != nil {
		return err
	}
	return checkInfo(st, path, bad, what)
}

func checkInfo(st os.FileInfo, path string, bad os.FileMode, what string) error {
	if uid, ok := ownerOf(st); ok && uid != os.Getuid() {
		return fmt.Errorf("%s %s is owned by another user (uid %d); asktui uses only its own: remove it, or choose another path", what, path, uid)
	}
	if modesMean && st.Mode().Perm()&bad != 0 {
		return fmt.Errorf("%s %s has mode %#o, which lets others %s it; run chmod %#o %s", what, path, st.Mode().Perm(),
			map[bool]string{true: "read", false: "write"}[bad == 0o077], st.Mode().Perm()&^bad, path)
	}
	return nil
}

// authorizedKeys is an authorized_keys file, read again when it changes.
// A line with options (from=, command=, no-pty…) is skipped with a
// warning: asktui does not honour them, so it does not accept the key
// they restrict.
type authorizedKeys struct {
	path string
	log  io.Writer

	mu   sync.Mutex
	mod  time.Time
	size int64
	keys []gossh.PublicKey
}

// load reads the file when it changed, after checking who may write it.
func (a *authorizedKeys) load() ([]gossh.PublicKey, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	st, err := os.Stat(a.path)
	if err != nil {
		return nil, fmt.Errorf("authorized keys %s: %w (create it with the public keys allowed in, one a line)", a.path, err)
	}
	if st.ModTime().Equal(a.mod) && st.Size() == a.size && a.keys != nil {
		return a.keys, nil
	}
	if err := checkInfo(st, a.path, 0o022, "authorized keys file"); err != nil {
		return nil, err
	}
	b, err := os.ReadFile(a.path)
	if err != nil {
		return nil, err
	}
	var keys []gossh.PublicKey
	for n, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		key, _, options, _, err := gossh.ParseAuthorizedKey([]byte(line))
		switch {
		case err != nil:
			_, _ = fmt.Fprintf(a.log, "asktui: %s line %d: not a public key, skipped\n", a.path, n+1)
			continue
		case len(options) > 0:
			_, _ = fmt.Fprintf(a.log, "asktui: %s line %d: key options (%s) are not honoured by asktui, so the key is skipped\n", a.path, n+1, strings.Join(options, ","))
			continue
		}
		keys = append(keys, key)
	}
	a.mod, a.size, a.keys = st.ModTime(), st.Size(), keys
	if a.keys == nil {
		a.keys = []gossh.PublicKey{}
	}
	return a.keys, nil
}

// allowed reports whether key is authorized.
func (a *authorizedKeys) allowed(_ ssh.Context, key ssh.PublicKey) bool {
	keys, err := a.load()
	if err != nil {
		_, _ = fmt.Fprintf(a.log, "asktui: %v\n", err)
		return false
	}
	for _, k := range keys {
		if ssh.KeysEqual(key, k) {
			return true
		}
	}
	return false
}
