package socket

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"time"
)

// ErrAlreadyServing is wrapped by the error [Listen] returns when another
// asktui inbox already answers on the socket.
var ErrAlreadyServing = errors.New("asktui is already serving")

// probeTimeout bounds how long Listen waits for an existing socket to
// answer before calling it stale.
const probeTimeout = time.Second

// DefaultPath returns where the inbox listens unless told otherwise, in
// the environment that getenv reads (os.Getenv, or the caller's own
// lookup): $XDG_RUNTIME_DIR/asktui/asktui.sock; without an absolute
// XDG_RUNTIME_DIR, the same place in the user's runtime directory
// /run/user/<uid> when that exists and is the current user's alone; else
// asktui-<uid>/asktui.sock in the temporary directory ($TMPDIR, else the
// system's). The last is in a shared place: listen there with
// [ListenPrivate].
//
// Clients do not always pass their whole environment on: Codex starts
// stdio MCP servers without XDG_RUNTIME_DIR. Falling back on the runtime
// directory that XDG_RUNTIME_DIR names on a systemd system lets serve and
// such a client agree on the socket all the same.
func DefaultPath(getenv func(string) string) string {
	return defaultPath(getenv, runUserDir)
}

// defaultPath is DefaultPath with the directory that holds the users'
// runtime directories (/run/user) as a parameter, for tests.
func defaultPath(getenv func(string) string, runUser string) string {
	if dir := getenv("XDG_RUNTIME_DIR"); filepath.IsAbs(dir) {
		return filepath.Join(dir, "asktui", "asktui.sock")
	}
	if dir := userRuntimeDir(runUser); dir != "" {
		return filepath.Join(dir, "asktui", "asktui.sock")
	}
	tmp := getenv("TMPDIR")
	if tmp == "" {
		tmp = systemTempDir()
	}
	return filepath.Join(tmp, "asktui-"+strconv.Itoa(os.Getuid()), "asktui.sock")
}

// Listen listens on the Unix socket at path for [Serve].
//
// It creates the socket's directory with mode 0700 when it is missing, and
// leaves an existing directory as the caller chose it, unless other users
// can write to it: that it refuses, as clients do (see [Dial]). It then replaces a
// stale socket file that nothing answers on, and gives the new socket mode
// 0600. When a server already answers at path, it fails with an error
// wrapping [ErrAlreadyServing]; it never replaces a file that is not a
// socket. Closing the listener removes the socket file.
func Listen(path string) (net.Listener, error) {
	return listen(path, false)
}

// ListenPrivate is [Listen] for a socket whose directory must be the
// current user's alone, such as [DefaultPath]'s: in a shared temporary
// directory someone else could have created it first. The directory must
// belong to the current user, and ListenPrivate tightens its mode to 0700.
func ListenPrivate(path string) (net.Listener, error) {
	return listen(path, true)
}

func listen(path string, private bool) (net.Listener, error) {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("socket: creating the socket directory: %w", err)
	}
	if private {
		if err := checkDir(dir); err != nil {
			return nil, err
		}
	} else if err := checkShared(dir); err != nil {
		return nil, err
	}

	if fi, err := os.Lstat(path); err == nil {
		if fi.Mode().Type() != fs.ModeSocket {
			return nil, fmt.Errorf("socket: %s exists and is not a socket; remove it or choose another path", path)
		}
		nc, err := (&net.Dialer{Timeout: probeTimeout}).DialContext(context.Background(), "unix", path)
		if err == nil {
			_ = nc.Close() // only a probe
			return nil, fmt.Errorf("socket: %w at %s; stop that inbox first or choose another socket path", ErrAlreadyServing, path)
		}
		if !errors.Is(err, syscall.ECONNREFUSED) && !errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("socket: checking whether %s is in use: %w", path, err)
		}
		if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("socket: removing the stale socket: %w", err)
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("socket: %w", err)
	}

	l, err := (&net.ListenConfig{}).Listen(context.Background(), "unix", path)
	if err != nil {
		return nil, fmt.Errorf("socket: %w", err)
	}
	// The directory is 0700, so nobody else can reach the socket in the
	// moment before this takes effect.
	if err := os.Chmod(path, 0o600); err != nil {
		_ = l.Close() // the Chmod error is the one to report
		return nil, fmt.Errorf("socket: %w", err)
	}
	return l, nil
}
