package sshserve

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"
	gossh "golang.org/x/crypto/ssh"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/interaction/inbox"
	"github.com/asktui/asktui/internal/sanitize"
	"github.com/asktui/asktui/internal/syncbuf"
	"github.com/asktui/asktui/styles"
)

// A view leaves behind only timers that end by themselves: a pending
// tea.Tick within its duration, a text cursor's blink.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m,
		goleak.IgnoreAnyFunction("charm.land/bubbletea/v2.Tick.func1"),
		goleak.IgnoreAnyFunction("charm.land/bubbletea/v2.(*Program).execBatchMsg"),
		goleak.IgnoreAnyFunction("charm.land/bubbles/v2/cursor.(*Model).Blink.func1"),
	)
}

// within bounds every wait: far longer than anything takes, so a failure
// means a hang, not a slow machine.
const within = 30 * time.Second

// fixture is a server on a loopback port with one authorized key.
type fixture struct {
	srv    *Server
	inbox  *inbox.Inbox
	signer gossh.Signer
	log    *syncbuf.Buffer
	dir    string
}

func newSigner(t testing.TB) gossh.Signer {
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	s, err := gossh.NewSignerFromKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func start(t testing.TB, tweak func(*Config)) *fixture {
	t.Helper()
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o700); err != nil { //nolint:gosec // a test's own file; its mode is part of the set-up
		t.Fatal(err)
	}
	signer := newSigner(t)
	keys := filepath.Join(dir, "authorized_keys")
	if err := os.WriteFile(keys, gossh.MarshalAuthorizedKey(signer.PublicKey()), 0o600); err != nil {
		t.Fatal(err)
	}
	f := &fixture{inbox: inbox.New(nil), signer: signer, log: &syncbuf.Buffer{}, dir: dir}
	cfg := Config{
		Addr:           "127.0.0.1:0",
		HostKeyPath:    filepath.Join(dir, "host", "ssh_host_ed25519_key"),
		AuthorizedKeys: keys,
		Inbox:          f.inbox,
		Theme:          styles.ThemeDark,
		Log:            f.log,
	}
	if tweak != nil {
		tweak(&cfg)
	}
	srv, err := Listen(cfg)
	if err != nil {
		t.Fatal(err)
	}
	f.srv = srv
	served := make(chan error, 1)
	go func() { served <- srv.Serve() }()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), within)
		defer cancel()
		if err := srv.Shutdown(ctx); err != nil {
			t.Errorf("shutdown: %v", err)
		}
		if err := <-served; err != nil {
			t.Errorf("serve: %v", err)
		}
		f.inbox.Close()
	})
	return f
}

func (f *fixture) dial(auth ...gossh.AuthMethod) (*gossh.Client, error) {
	if auth == nil {
		auth = []gossh.AuthMethod{gossh.PublicKeys(f.signer)}
	}
	return gossh.Dial("tcp", f.srv.Addr().String(), &gossh.ClientConfig{
		User:            "alice",
		Auth:            auth,
		HostKeyCallback: gossh.InsecureIgnoreHostKey(), //nolint:gosec // the test's own in-process server, with a fresh host key
		Timeout:         within,
	})
}

// screen is a view's terminal as the SSH client sees it.
type screen struct {
	t      testing.TB
	client *gossh.Client
	sess   *gossh.Session
	stdin  io.WriteCloser
	out    syncbuf.Buffer
	closed chan struct{}
}

// open logs in with the authorized key and opens a view at 100x30.
func (f *fixture) open(t testing.TB) *screen {
	t.Helper()
	return f.openSized(t, 100, 30)
}

// openSized opens a view on a terminal of w x h.
func (f *fixture) openSized(t testing.TB, w, h int) *screen {
	t.Helper()
	c, err := f.dial()
	if err != nil {
		t.Fatal(err)
	}
	sess, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	s := &screen{t: t, client: c, sess: sess, closed: make(chan struct{})}
	// What the view writes to standard error (a refusal) shows on the
	// client's terminal too.
	sess.Stdout, sess.Stderr = s, s
	if s.stdin, err = sess.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	if err := sess.RequestPty("xterm-256color", h, w, gossh.TerminalModes{}); err != nil {
		t.Fatal(err)
	}
	if err := sess.Shell(); err != nil {
		t.Fatal(err)
	}
	go func() {
		defer close(s.closed)
		_ = sess.Wait()
	}()
	t.Cleanup(s.close)
	return s
}

// Write receives the view's output.
func (s *screen) Write(p []byte) (int, error) { return s.out.Write(p) }

func (s *screen) close() {
	_ = s.sess.Close()
	_ = s.client.Close()
	<-s.closed
}

func (s *screen) text() string {
	return sanitize.StripEscapes(s.out.String())
}

// waitFor waits until the screen shows want (no spaces: the renderer
// may draw runs of blanks as cursor movements).
func (s *screen) waitFor(want string) {
	s.t.Helper()
	deadline := time.After(within)
	for !strings.Contains(s.text(), want) {
		select {
		case <-s.out.Changed():
		case <-s.closed:
			if strings.Contains(s.text(), want) {
				return
			}
			s.t.Fatalf("the view closed before showing %q:\n%s", want, s.text())
		case <-deadline:
			s.t.Fatalf("the view never showed %q:\n%s", want, s.text())
		}
	}
}

// waitSeen waits until the question shown takes keys: the view holds
// them for a moment after it appears (its "keys held" cue gives way to
// the question's hint).
func (s *screen) waitSeen() {
	s.t.Helper()
	deadline := time.After(within)
	seen := func() bool {
		text := s.text()
		i := strings.LastIndex(text, "held")
		return i >= 0 && strings.Contains(text[i:], "Pick")
	}
	for !seen() {
		select {
		case <-s.out.Changed():
		case <-deadline:
			s.t.Fatalf("the view never took keys:\n%s", s.text())
		}
	}
}

func (s *screen) typ(keys string) {
	s.t.Helper()
	if _, err := io.WriteString(s.stdin, keys); err != nil {
		s.t.Fatal(err)
	}
}

type result struct {
	ans interaction.Answer
	err error
}

func ask(ctx context.Context, in *inbox.Inbox, id, question string) <-chan result {
	ch := make(chan result, 1)
	go func() {
		a, err := in.Ask(ctx, interaction.Request{Questions: []interaction.Question{{
			ID: id, Question: question,
			Options: []interaction.Option{{Label: "Yes"}, {Label: "No"}},
		}}})
		ch <- result{a, err}
	}()
	return ch
}

func TestViewAnswersOverSSH(t *testing.T) {
	f := start(t, nil)
	s := f.open(t)
	s.waitFor("inbox")
	got := ask(context.Background(), f.inbox, "deploy", "Deploy_to_production?")
	s.waitFor("Deploy_to_production?")
	s.waitSeen()
	s.typ("2")
	select {
	case r := <-got:
		if r.err != nil {
			t.Fatal(r.err)
		}
		if sel := r.ans.Answers[0].Selected; len(sel) != 1 || sel[0] != "No" {
			t.Fatalf("answer %+v, want No", r.ans)
		}
	case <-time.After(within):
		t.Fatalf("no answer; the view shows:\n%s", s.text())
	}
}

// waitLog waits until the server's log holds want, and returns the log:
// the server logs a refusal after the client has seen it, so the log is
// read only once the line is there.
func (f *fixture) waitLog(t *testing.T, want string) string {
	t.Helper()
	deadline := time.After(within)
	for {
		changed := f.log.Changed()
		if log := f.log.String(); strings.Contains(log, want) {
			return log
		}
		select {
		case <-changed:
		case <-deadline:
			t.Fatalf("the log never said %q:\n%s", want, f.log.String())
		}
	}
}

func TestRefusesUnknownKeyAndPassword(t *testing.T) {
	f := start(t, nil)
	if c, err := f.dial(gossh.PublicKeys(newSigner(t))); err == nil {
		_ = c.Close()
		t.Fatal("a key not in authorized_keys logged in")
	}
	if c, err := f.dial(gossh.Password("hunter2"), gossh.KeyboardInteractive(
		func(string, string, []string, []bool) ([]string, error) { return nil, nil })); err == nil {
		_ = c.Close()
		t.Fatal("a password logged in")
	}
	log := f.waitLog(t, "authentication failed")
	if strings.Contains(log, "AAAA") || strings.Contains(log, "hunter2") {
		t.Errorf("the log holds key material or the password:\n%s", log)
	}
}

func TestRefusesExecAndSubsystems(t *testing.T) {
	f := start(t, nil)
	c, err := f.dial()
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	sess, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	// The request itself is refused: nothing runs, not even the view.
	var exit *gossh.ExitError
	if err := sess.Run("id"); err == nil || errors.As(err, &exit) {
		t.Errorf("exec was accepted: %v", err)
	}
	sess, err = c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	if err := sess.RequestSubsystem("sftp"); err == nil {
		t.Error("the sftp subsystem was granted")
	}
	if _, err := c.Dial("tcp", "127.0.0.1:22"); err == nil {
		t.Error("port forwarding was granted")
	}
}

func TestNeedsATerminal(t *testing.T) {
	f := start(t, nil)
	c, err := f.dial()
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	sess, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	var out syncbuf.Buffer
	sess.Stdout, sess.Stderr = &out, &out
	if err := sess.Shell(); err != nil {
		t.Fatal(err)
	}
	err = sess.Wait()
	if err == nil || !strings.Contains(out.String(), "needs a terminal") {
		t.Fatalf("a session without a terminal: err=%v output %q", err, out.String())
	}
}

// TestTwentyViewsOneAnswer: every view sees the request, exactly one
// answer goes back, and every other view says where it was answered.
func TestTwentyViewsOneAnswer(t *testing.T) {
	const n = 20
	f := start(t, func(c *Config) { c.MaxSessions = n; c.ConnBurst = n })
	views := make([]*screen, n)
	for i := range views {
		views[i] = f.open(t)
	}
	for _, v := range views {
		v.waitFor("inbox")
	}
	got := ask(context.Background(), f.inbox, "merge", "Merge_the_branch?")
	for _, v := range views {
		v.waitFor("Merge_the_branch?")
	}
	for _, v := range views[:3] {
		v.waitSeen()
	}
	for _, v := range views[:3] {
		v.typ("1")
	}
	r := <-got
	if r.err != nil {
		t.Fatal(r.err)
	}
	if len(r.ans.Answers) != 1 || r.ans.Answers[0].Selected[0] != "Yes" {
		t.Fatalf("answer %+v", r.ans)
	}
	for _, v := range views[3:] {
		v.waitFor("answered")
	}
}

func TestSessionCap(t *testing.T) {
	f := start(t, func(c *Config) { c.MaxSessions = 1 })
	first := f.open(t)
	first.waitFor("inbox")
	second := f.open(t)
	second.waitFor("too many views are open (at most 1)")
}

func TestUnauthenticatedCap(t *testing.T) {
	f := start(t, func(c *Config) { c.MaxUnauthenticated = 2; c.LoginGrace = within })
	// Two connections that never start their handshake hold both places.
	var idle []net.Conn
	for range 2 {
		c, err := (&net.Dialer{}).DialContext(context.Background(), "tcp", f.srv.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		idle = append(idle, c)
	}
	// The server reads each one's version line before it can refuse the
	// next: wait until it has sent its own on both.
	for _, c := range idle {
		if _, err := c.Read(make([]byte, 1)); err != nil {
			t.Fatal(err)
		}
	}
	if c, err := f.dial(); err == nil {
		_ = c.Close()
		t.Fatal("a third connection was let in while two were authenticating")
	}
	for _, c := range idle {
		_ = c.Close()
	}
	f.waitLog(t, "too many connections authenticating")
}

func TestLoginGrace(t *testing.T) {
	f := start(t, func(c *Config) { c.LoginGrace = 200 * time.Millisecond })
	c, err := (&net.Dialer{}).DialContext(context.Background(), "tcp", f.srv.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.SetReadDeadline(time.Now().Add(within)); err != nil {
		t.Fatal(err)
	}
	// A client that says nothing is cut off after the grace.
	_, err = io.Copy(io.Discard, c)
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		t.Fatal("the server kept a silent connection open")
	}
}

func TestConnectionRate(t *testing.T) {
	f := start(t, func(c *Config) { c.ConnRate, c.ConnBurst = 0.001, 2 })
	for i := range 2 {
		c, err := f.dial()
		if err != nil {
			t.Fatalf("connection %d: %v", i, err)
		}
		_ = c.Close()
	}
	if c, err := f.dial(); err == nil {
		_ = c.Close()
		t.Fatal("a connection beyond the rate was let in")
	}
	f.waitLog(t, "too many connections from it")
}

func TestHostKeyKeptAndChecked(t *testing.T) {
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o700); err != nil { //nolint:gosec // a test's own file; its mode is part of the set-up
		t.Fatal(err)
	}
	path := filepath.Join(dir, "keys", "host")
	_, fp1, err := LoadOrCreateHostKey(path)
	if err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o600 {
		t.Errorf("host key mode %#o, want 0600", st.Mode().Perm())
	}
	_, fp2, err := LoadOrCreateHostKey(path)
	if err != nil {
		t.Fatal(err)
	}
	if fp1 != fp2 || !strings.HasPrefix(fp1, "SHA256:") {
		t.Fatalf("fingerprints %q then %q: the key was not kept", fp1, fp2)
	}

	cases := []struct {
		name  string
		setup func(t *testing.T) string
		want  string
	}{
		{"key readable by others", func(t *testing.T) string {
			p := filepath.Join(t.TempDir(), "k")
			mustCopy(t, path, p, 0o644)
			return p
		}, "chmod 0600"},
		{"directory writable by others", func(t *testing.T) string {
			d := t.TempDir()
			if err := os.Chmod(d, 0o777); err != nil { //nolint:gosec // a test's own file; its mode is part of the set-up
				t.Fatal(err)
			}
			return filepath.Join(d, "k")
		}, "chmod 0755"},
		{"key is a symbolic link", func(t *testing.T) string {
			d := t.TempDir()
			p := filepath.Join(d, "k")
			if err := os.Symlink(path, p); err != nil {
				t.Fatal(err)
			}
			return p
		}, "symbolic link"},
		{"not a key", func(t *testing.T) string {
			p := filepath.Join(t.TempDir(), "k")
			if err := os.WriteFile(p, []byte("hello"), 0o600); err != nil {
				t.Fatal(err)
			}
			return p
		}, "remove it to generate"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := LoadOrCreateHostKey(tc.setup(t))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want one saying %q", err, tc.want)
			}
		})
	}
}

func mustCopy(t *testing.T, from, to string, mode os.FileMode) {
	t.Helper()
	b, err := os.ReadFile(from) //nolint:gosec // a path the test made, or its testdata
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, mode); err != nil { //nolint:gosec // a path the test made
		t.Fatal(err)
	}
	if err := os.Chmod(to, mode); err != nil {
		t.Fatal(err)
	}
}

func TestAuthorizedKeysChecked(t *testing.T) {
	signer := newSigner(t)
	line := string(gossh.MarshalAuthorizedKey(signer.PublicKey()))
	dir := t.TempDir()
	write := func(content string, mode os.FileMode) *authorizedKeys {
		p := filepath.Join(dir, fmt.Sprintf("keys%d", mode))
		if err := os.WriteFile(p, []byte(content), mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, mode); err != nil {
			t.Fatal(err)
		}
		return &authorizedKeys{path: p, log: io.Discard}
	}

	if _, err := write(line, 0o666).load(); err == nil || !strings.Contains(err.Error(), "lets others write") {
		t.Errorf("a world-writable authorized_keys: err = %v", err)
	}
	if _, err := (&authorizedKeys{path: filepath.Join(dir, "missing")}).load(); err == nil || !strings.Contains(err.Error(), "create it") {
		t.Errorf("a missing authorized_keys: err = %v", err)
	}
	var log bytes.Buffer
	a := write("# mine\n"+`command="rm -rf /" `+line+"not a key\n", 0o600)
	a.log = &log
	keys, err := a.load()
	if err != nil {
		t.Fatal(err)
	}
	if len(keys) != 0 {
		t.Errorf("a key restricted by options was accepted: %d keys", len(keys))
	}
	if !strings.Contains(log.String(), "not honoured") || !strings.Contains(log.String(), "line 3: not a public key") {
		t.Errorf("the skipped lines were not reported:\n%s", log.String())
	}

	// A key added later is read without a restart.
	a2 := write("", 0o644)
	if a2.allowed(nil, signer.PublicKey()) {
		t.Fatal("an empty file let a key in")
	}
	if err := os.WriteFile(a2.path, []byte(line), 0o644); err != nil { //nolint:gosec // a test's own file; its mode is part of the set-up
		t.Fatal(err)
	}
	future := time.Now().Add(time.Minute)
	if err := os.Chtimes(a2.path, future, future); err != nil {
		t.Fatal(err)
	}
	if !a2.allowed(nil, signer.PublicKey()) {
		t.Fatal("a key added to the file was not let in")
	}
}
