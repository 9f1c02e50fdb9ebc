//go:build linux

package cli

import (
	"crypto/ed25519"
	"crypto/rand"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"github.com/asktui/asktui/internal/ptytest"
	"github.com/asktui/asktui/internal/sanitize"
	"github.com/asktui/asktui/internal/syncbuf"
)

// BenchmarkSSHLargestViews runs `asktui serve --headless` with SSH as a
// process of its own and opens eight views (the default cap) whose
// clients claim the largest terminals every way a client can: a
// 10000x10000 pty, a size report of 4096x244 typed into the session, and
// a second of window changes between 10000x10000 and 200x150, as fast
// as the connection takes them. It reports serve's peak RSS (VmHWM):
//
//	go test -run '^$' -bench SSHLargestViews -benchtime 1x ./internal/cli
//
// Each view is bounded to 400x150 (internal/sshserve.ViewSize) and
// follows window changes at most 30 times a second; without those bounds
// the first pty alone would ask the renderer for 22 GB.
func BenchmarkSSHLargestViews(b *testing.B) {
	if ptytest.RaceEnabled {
		b.Skip("the serve process would be a race-detector build")
	}
	for range b.N {
		sshLargest(b, 8)
	}
}

func sshLargest(b *testing.B, views int) {
	b.StopTimer()
	dir := b.TempDir()
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		b.Fatal(err)
	}
	signer, err := gossh.NewSignerFromKey(priv)
	if err != nil {
		b.Fatal(err)
	}
	keys := filepath.Join(dir, "authorized_keys")
	if err := os.WriteFile(keys, gossh.MarshalAuthorizedKey(signer.PublicKey()), 0o600); err != nil {
		b.Fatal(err)
	}
	cmd := asktuiCommand(b, "serve", "--headless", "--no-auth", "--listen", freeAddr(b), "--socket", "off",
		"--history", "off", "--ssh", "127.0.0.1:0", "--authorized-keys", keys)
	cmd.Env = append(cmd.Env, "XDG_DATA_HOME="+dir)
	// As in BenchmarkServeScale: ASKTUI_BENCH_SERVE_ENV="GODEBUG=gctrace=1".
	cmd.Env = append(cmd.Env, strings.Fields(os.Getenv("ASKTUI_BENCH_SERVE_ENV"))...)
	stdout := newWatched()
	cmd.Stdout = stdout
	proc := ptytest.Start(b, nil, cmd)
	port := stdout.waitMatch(b, regexp.MustCompile(`ssh -p (\d+) localhost`))[1]

	b.StartTimer()
	var wg sync.WaitGroup
	outs := make([]*syncbuf.Buffer, views)
	for i := range outs {
		outs[i] = &syncbuf.Buffer{}
		c, err := gossh.Dial("tcp", "127.0.0.1:"+port, &gossh.ClientConfig{
			User: "bench", Auth: []gossh.AuthMethod{gossh.PublicKeys(signer)},
			HostKeyCallback: gossh.InsecureIgnoreHostKey(), Timeout: time.Minute, //nolint:gosec // the test's own in-process server, with a fresh host key
		})
		if err != nil {
			b.Fatal(err)
		}
		defer func() { _ = c.Close() }()
		sess, err := c.NewSession()
		if err != nil {
			b.Fatal(err)
		}
		sess.Stdout = outs[i]
		stdin, err := sess.StdinPipe()
		if err != nil {
			b.Fatal(err)
		}
		if err := sess.RequestPty("xterm-256color", 10000, 10000, gossh.TerminalModes{}); err != nil {
			b.Fatal(err)
		}
		if err := sess.Shell(); err != nil {
			b.Fatal(err)
		}
		_, _ = stdin.Write([]byte("\x1b[8;244;4096t"))
		wg.Go(func() {
			for end := time.Now().Add(time.Second); time.Now().Before(end); {
				if sess.WindowChange(10000, 10000) != nil || sess.WindowChange(150, 200) != nil {
					return
				}
			}
		})
	}
	wg.Wait()
	// Every view has drawn the inbox after its last window change.
	for i, out := range outs {
		deadline := time.After(time.Minute)
		for !strings.Contains(sanitize.StripEscapes(out.String()), "inbox") {
			select {
			case <-out.Changed():
			case <-deadline:
				b.Fatalf("view %d never drew the inbox", i)
			}
		}
	}
	b.StopTimer()
	kb := 0
	if data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", proc.Cmd.Process.Pid)); err == nil {
		for line := range strings.SplitSeq(string(data), "\n") {
			if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
				_, _ = fmt.Sscan(strings.TrimSuffix(strings.TrimSpace(v), " kB"), &kb)
			}
		}
	}
	proc.Signal(syscall.SIGTERM)
	proc.Wait(func() string { return "(headless)" })
	b.ReportMetric(float64(kb)/1024, "peak-RSS-MiB")
}
