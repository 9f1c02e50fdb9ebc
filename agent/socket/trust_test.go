//go:build unix

package socket

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/interaction/interactiontest"
)

// otherUID is a uid nobody in the tests runs as.
const otherUID = 54321

// wantUntrusted checks that err is an UNTRUSTED error that says each of
// parts.
func wantUntrusted(t *testing.T, err error, parts ...string) {
	t.Helper()
	if interaction.CodeOf(err) != interaction.CodeUntrusted {
		t.Fatalf("Dial = %v, want an UNTRUSTED error", err)
	}
	for _, p := range parts {
		if !strings.Contains(err.Error(), p) {
			t.Errorf("%q does not say %q", err, p)
		}
	}
}

// TestDialRefusesADirectoryOthersCanWrite: another user who can write the
// socket's directory can put a socket of their own there.
func TestDialRefusesADirectoryOthersCanWrite(t *testing.T) {
	srv := startServer(t, interactiontest.NewProvider(), Options{})
	dir := filepath.Dir(srv.path)
	if err := os.Chmod(dir, 0o777); err != nil { //nolint:gosec // a test's own file; its mode is part of the set-up
		t.Fatal(err)
	}
	_, err := Dial(context.Background(), srv.path)
	wantUntrusted(t, err, dir, "written by other users", "0777", "only you can write to")
	// A server does not listen there in the first place.
	if _, err := Listen(filepath.Join(dir, "b.sock")); err == nil || !strings.Contains(err.Error(), "can be written by other users") {
		t.Errorf("Listen in a directory others can write to: %v", err)
	}

	// A directory others may read and enter, but not write, is safe.
	if err := os.Chmod(dir, 0o755); err != nil { //nolint:gosec // a test's own file; its mode is part of the set-up
		t.Fatal(err)
	}
	c, err := Dial(context.Background(), srv.path)
	if err != nil {
		t.Fatalf("Dial with the directory 0755: %v", err)
	}
	c.Close() //nolint:gosec // a test's set-up or clean-up; a failure shows in the assertion after it
}

// TestDialRefusesAnotherUsersFiles is the attack of issue 10: without
// XDG_RUNTIME_DIR the socket is in the shared temporary directory, where
// another user can create asktui-UID/ first, with a socket of their own.
func TestDialRefusesAnotherUsersFiles(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("giving a file to another user needs root")
	}
	for _, c := range []struct {
		name  string
		chown func(path string) error
		say   []string
	}{
		{"directory", func(path string) error { return os.Lchown(filepath.Dir(path), otherUID, -1) },
			[]string{"directory", "belongs to another user (uid 54321"}},
		{"socket", func(path string) error { return os.Lchown(path, otherUID, -1) },
			[]string{"it belongs to another user (uid 54321"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := interactiontest.NewProvider()
			srv := startServer(t, f, Options{})
			if err := c.chown(srv.path); err != nil {
				t.Fatal(err)
			}
			_, err := Dial(context.Background(), srv.path)
			wantUntrusted(t, err, append(c.say, "nothing was sent")...)
		})
	}
}

func TestDialRefusesASymlinkedDirectory(t *testing.T) {
	srv := startServer(t, interactiontest.NewProvider(), Options{})
	link := filepath.Join(filepath.Dir(filepath.Dir(srv.path)), "l")
	if err := os.Symlink(filepath.Dir(srv.path), link); err != nil {
		t.Fatal(err)
	}
	_, err := Dial(context.Background(), filepath.Join(link, "a.sock"))
	wantUntrusted(t, err, "not a directory")
}

// TestVerifyPeer: the server's uid comes from the kernel, not from the
// files, so a socket passed on by a process of another user is refused
// too.
func TestVerifyPeer(t *testing.T) {
	if runtime.GOOS != "linux" && runtime.GOOS != "darwin" && runtime.GOOS != "freebsd" {
		t.Skipf("no peer credentials on %s", runtime.GOOS)
	}
	path := socketPath(t)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	l, err := (&net.ListenConfig{}).Listen(context.Background(), "unix", path)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	accepted := make(chan net.Conn, 1)
	go func() {
		nc, err := l.Accept()
		if err == nil {
			accepted <- nc
		}
		close(accepted)
	}()
	nc, err := (&net.Dialer{}).DialContext(context.Background(), "unix", path)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	if sc := <-accepted; sc != nil {
		defer sc.Close()
	}
	if err := verifyPeer(nc, path, os.Getuid()); err != nil {
		t.Errorf("verifyPeer as ourselves: %v", err)
	}
	err = verifyPeer(nc, path, otherUID)
	wantUntrusted(t, err, "served by another user", "you are uid 54321")
}
