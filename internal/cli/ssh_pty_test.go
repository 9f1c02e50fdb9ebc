package cli

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	gossh "golang.org/x/crypto/ssh"

	"github.com/asktui/asktui/internal/ptytest"
)

// openSSH finds the OpenSSH client. .ci/run installs it
// (scripts/deps.sh) and sets ASKTUI_CI, where a missing client fails the
// test instead of skipping it.
func openSSH(t *testing.T) string {
	t.Helper()
	path, err := exec.LookPath("ssh")
	if err != nil {
		if os.Getenv("ASKTUI_CI") != "" {
			t.Fatal("the OpenSSH client is not installed: run scripts/deps.sh")
		}
		t.Skip("the OpenSSH client is not installed (scripts/deps.sh installs it)")
	}
	return path
}

// writeKey writes a new ed25519 key pair for ssh -i and returns the
// private key's path and the public key's authorized_keys line.
func writeKey(t *testing.T, dir, name string) (string, []byte) {
	t.Helper()
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	block, err := gossh.MarshalPrivateKey(priv, "")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, pem.EncodeToMemory(block), 0o600); err != nil {
		t.Fatal(err)
	}
	sshPub, err := gossh.NewPublicKey(pub)
	if err != nil {
		t.Fatal(err)
	}
	return path, gossh.MarshalAuthorizedKey(sshPub)
}

// TestPTYServeOverOpenSSH: the OpenSSH client, in a pseudo-terminal,
// logs in to serve --headless with a throwaway key; an MCP client's
// question arrives on it and a key answers it. A key not in
// authorized_keys and a password are both refused.
func TestPTYServeOverOpenSSH(t *testing.T) {
	sshBin := openSSH(t)
	dir := t.TempDir()
	key, line := writeKey(t, dir, "id_ed25519")
	stranger, _ := writeKey(t, dir, "stranger")
	keys := filepath.Join(dir, "authorized_keys")
	if err := os.WriteFile(keys, line, 0o600); err != nil {
		t.Fatal(err)
	}
	addr := freeAddr(t)
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	stdout, stderr := newWatched(), newWatched()
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"serve", "--headless", "--listen", addr, "--socket", "off",
			"--ssh", "127.0.0.1:0", "--authorized-keys", keys, "--history", "off"}, env{
			stdin: strings.NewReader(""), stdout: stdout, stderr: stderr,
			environ: []string{"XDG_CONFIG_HOME=" + dir, "XDG_DATA_HOME=" + dir},
			openTTY: mustNotOpenTTY(t),
		})
	}()
	t.Cleanup(func() {
		// The MCP client's keep-alive connection would outlive the test.
		http.DefaultTransport.(*http.Transport).CloseIdleConnections()
		stop()
		<-done
		if t.Failed() {
			t.Logf("serve stdout:\n%s\nstderr:\n%s", stdout.String(), stderr.String())
		}
	})
	port := stdout.waitMatch(t, regexp.MustCompile(`ssh -p (\d+) localhost`))[1]

	sshCmd := func(extra ...string) *exec.Cmd {
		args := append([]string{"-F", "/dev/null", "-p", port,
			"-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null",
			"-o", "LogLevel=ERROR", "-o", "IdentitiesOnly=yes"}, extra...)
		return exec.CommandContext(context.Background(), sshBin, append(args, "localhost")...) //nolint:gosec // the test runs a command of its own choosing
	}

	// Refused: a key not in authorized_keys, and a password.
	for name, args := range map[string][]string{
		"unknown key": {"-o", "BatchMode=yes", "-i", stranger},
		"password":    {"-o", "BatchMode=yes", "-o", "PreferredAuthentications=password,keyboard-interactive", "-o", "PubkeyAuthentication=no"},
	} {
		p := ptytest.Start(t, nil, sshCmd(args...))
		if code := p.Wait(func() string { return p.Stderr.String() }); code != 255 || !strings.Contains(p.Stderr.String(), "Permission denied") {
			t.Errorf("%s: ssh exited %d: %s", name, code, p.Stderr.String())
		}
	}

	term := ptytest.New(t, ptytest.Options{})
	cmd := sshCmd("-tt", "-i", key)
	cmd.Stdout, cmd.Stderr = term.Slave, term.Slave
	view := ptytest.Start(t, term, cmd)
	term.WaitFor(0, "SSH")

	token, err := os.ReadFile(filepath.Join(dir, "asktui", "token")) //nolint:gosec // a path the test made, or its testdata
	if err != nil {
		t.Fatal(err)
	}
	cs := connectMCP(t, context.Background(), addr, "ssh-e2e", string(token))
	mark := term.Mark()
	called := askAsync(cs, "region", "Which region should the replica go to?", "eu-west-1", "us-east-1")
	term.WaitFor(mark, "replica")
	term.WaitSeen(mark)
	term.Type("2")
	select {
	case r := <-called:
		if r.err != nil || r.res.IsError {
			t.Fatalf("call failed: %v %+v", r.err, r.res)
		}
		if text := r.res.Content[0].(*sdk.TextContent).Text; text != `{"answers":[{"id":"region","selected":["us-east-1"]}]}` {
			t.Fatalf("tool result %s", text)
		}
	case <-time.After(time.Minute):
		t.Fatalf("the call did not return; the view shows:\n%s", term.Text(0))
	}
	// ctrl+c closes the view, and ssh with it.
	term.Type("\x03")
	if code := view.Wait(func() string { return term.Text(0) }); code != 0 {
		t.Errorf("ssh exited %d after ctrl+c", code)
	}
}
