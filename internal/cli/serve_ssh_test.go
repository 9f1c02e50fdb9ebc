package cli

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/internal/sanitize"
	"github.com/asktui/asktui/internal/syncbuf"
)

// watched is an output the test waits on.
type watched struct{ out syncbuf.Buffer }

func newWatched() *watched { return &watched{} }

func (w *watched) Write(p []byte) (int, error) { return w.out.Write(p) }

// String is the output without its escape sequences.
func (w *watched) String() string { return sanitize.StripEscapes(w.out.String()) }

// waitMatch waits until the text matches re and returns the submatches.
func (w *watched) waitMatch(t testing.TB, re *regexp.Regexp) []string {
	t.Helper()
	deadline := time.After(time.Minute)
	for {
		if m := re.FindStringSubmatch(w.String()); m != nil {
			return m
		}
		select {
		case <-w.out.Changed():
		case <-deadline:
			t.Fatalf("never matched %s:\n%s", re, w.String())
		}
	}
}

// TestServeHeadlessOverSSH: serve --headless prints how to connect; an SSH
// view answers a script's question; stopping the server fails the call
// still waiting with PROVIDER_CLOSED and records it.
func TestServeHeadlessOverSSH(t *testing.T) {
	dir := t.TempDir()
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	signer, err := gossh.NewSignerFromKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	keys := filepath.Join(dir, "authorized_keys")
	if err := os.WriteFile(keys, gossh.MarshalAuthorizedKey(signer.PublicKey()), 0o600); err != nil {
		t.Fatal(err)
	}
	sock := shortSocketPath(t)

	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	stdout, stderr := newWatched(), newWatched()
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"serve", "--headless", "--listen", "127.0.0.1:0", "--socket", sock,
			"--ssh", "127.0.0.1:0", "--authorized-keys", keys}, env{
			stdin: strings.NewReader(""), stdout: stdout, stderr: stderr,
			environ: []string{"XDG_CONFIG_HOME=" + dir, "XDG_STATE_HOME=" + dir, "XDG_DATA_HOME=" + dir},
			openTTY: mustNotOpenTTY(t),
		})
	}()
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("serve stdout:\n%s\nstderr:\n%s", stdout.String(), stderr.String())
		}
	})
	port := stdout.waitMatch(t, regexp.MustCompile(`ssh -p (\d+) localhost`))[1]
	if st, err := os.Stat(filepath.Join(dir, "asktui", "ssh_host_ed25519_key")); err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("host key: %v %v", st, err)
	}

	client, err := gossh.Dial("tcp", "127.0.0.1:"+port, &gossh.ClientConfig{
		User: "me", Auth: []gossh.AuthMethod{gossh.PublicKeys(signer)},
		HostKeyCallback: gossh.InsecureIgnoreHostKey(), Timeout: time.Minute, //nolint:gosec // the test's own in-process server, with a fresh host key
	})
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	sess, err := client.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	screen := newWatched()
	sess.Stdout, sess.Stderr = screen, screen
	keysIn, err := sess.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := sess.RequestPty("xterm-256color", 30, 100, gossh.TerminalModes{}); err != nil {
		t.Fatal(err)
	}
	if err := sess.Shell(); err != nil {
		t.Fatal(err)
	}

	ask := func(question string, out io.Writer) <-chan int {
		code := make(chan int, 1)
		go func() {
			code <- run(context.Background(), []string{"ask", "--connect=" + sock, question, "--id", "q",
				"--option", "Yes", "--option", "Later", "--format", "text"}, env{
				stdin: strings.NewReader(""), stdout: out, stderr: io.Discard, openTTY: mustNotOpenTTY(t),
			})
		}()
		return code
	}
	var first bytes.Buffer
	asked := ask("Ship_the_notes?", &first)
	screen.waitMatch(t, regexp.MustCompile(`Ship_the_notes\?`))
	screen.waitMatch(t, regexp.MustCompile(`Pick one`)) // past the arrival grace
	if _, err := io.WriteString(keysIn, "2"); err != nil {
		t.Fatal(err)
	}
	if code := <-asked; code != 0 || first.String() != "q: Later\n" {
		t.Fatalf("ask: exit %d, %q", code, first.String())
	}

	// A question still waiting when the server stops fails as closed.
	waiting := ask("Still_there?", io.Discard)
	screen.waitMatch(t, regexp.MustCompile(`Still_there\?`))
	stop()
	if code := <-waiting; code != exitCode(interaction.Errorf(interaction.CodeProviderClosed, "closed")) {
		t.Fatalf("the waiting ask exited %d, want %d (PROVIDER_CLOSED)", code, exitCode(interaction.Errorf(interaction.CodeProviderClosed, "closed")))
	}
	select {
	case code := <-done:
		if code != 0 {
			t.Fatalf("serve exited %d; stderr:\n%s", code, stderr.String())
		}
	case <-time.After(time.Minute):
		t.Fatal("serve did not stop")
	}
	_ = sess.Wait()

	var hist bytes.Buffer
	if code := run(context.Background(), []string{"history", "--json"}, env{
		stdin: strings.NewReader(""), stdout: &hist, stderr: os.Stderr,
		environ: []string{"XDG_STATE_HOME=" + dir},
	}); code != 0 || !strings.Contains(hist.String(), `"outcome":"closed"`) || !strings.Contains(hist.String(), `"outcome":"answered"`) {
		t.Fatalf("history (exit %d):\n%s", code, hist.String())
	}
}

// TestServeSSHFlagForms: --ssh takes its value after "=" or as the next
// word, as the README writes it (issue 18: --ssh off was refused), and
// alone means the default address.
func TestServeSSHFlagForms(t *testing.T) {
	for _, c := range []struct {
		args     []string
		addr     string
		explicit bool
		err      string
	}{
		{args: nil},
		{args: []string{"--ssh"}, addr: "127.0.0.1:2222", explicit: true},
		{args: []string{"--ssh", "off"}, addr: "off", explicit: true},
		{args: []string{"--ssh=off"}, addr: "off", explicit: true},
		{args: []string{"--ssh", "0.0.0.0:2222"}, addr: "0.0.0.0:2222", explicit: true},
		{args: []string{"--ssh=0.0.0.0:2222", "--headless"}, addr: "0.0.0.0:2222", explicit: true},
		{args: []string{"--ssh", "now"}, err: `given "now"`},
		{args: []string{"off"}, err: `given "off"`},
		{args: []string{"--ssh=off", "off"}, err: `given "off"`},
	} {
		var got *sshFlags
		cmd := serveCommand(env{stdout: io.Discard, stderr: io.Discard}, new(serveOptions),
			func(_ context.Context, o serveOptions, _ env) error {
				got = &o.ssh
				return nil
			})
		cmd.SetArgs(c.args)
		cmd.SetOut(io.Discard)
		cmd.SetErr(io.Discard)
		cmd.SilenceUsage = true
		err := cmd.Execute()
		switch {
		case c.err != "":
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("serve %q: error %v, want one saying %s", c.args, err, c.err)
			}
		case err != nil:
			t.Errorf("serve %q: %v", c.args, err)
		case got.addr != c.addr || got.explicit != c.explicit:
			t.Errorf("serve %q: --ssh %q (given: %v), want %q (%v)", c.args, got.addr, got.explicit, c.addr, c.explicit)
		}
	}
}
