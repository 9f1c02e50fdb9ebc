//go:build unix

package socket

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
)

// runUserDir holds each user's runtime directory, /run/user/<uid>, on
// systems with systemd-logind (and elogind): what XDG_RUNTIME_DIR names.
const runUserDir = "/run/user"

// userRuntimeDir returns root/<uid> when it is a real directory (not a
// symbolic link) of the current user's that nobody else can use, as
// logind makes it; "" otherwise.
func userRuntimeDir(root string) string {
	uid := os.Getuid()
	dir := filepath.Join(root, strconv.Itoa(uid))
	fi, err := os.Lstat(dir)
	if err != nil || !fi.IsDir() || fi.Mode().Perm()&0o077 != 0 {
		return ""
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); !ok || int(st.Uid) != uid {
		return ""
	}
	return dir
}

// systemTempDir is the temporary directory when TMPDIR is unset, as
// [os.TempDir] has it on Unix.
func systemTempDir() string { return "/tmp" }

// checkDir makes sure the socket's directory is a real directory of the
// current user and that only that user can use it: in a shared temporary
// directory someone else could have created it first.
func checkDir(dir string) error {
	fi, err := os.Lstat(dir)
	if err != nil {
		return fmt.Errorf("socket: %w", err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("socket: %s is not a directory", dir)
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok && int(st.Uid) != os.Getuid() {
		return fmt.Errorf("socket: %s belongs to another user (uid %d); choose another socket path", dir, st.Uid)
	}
	if fi.Mode().Perm()&0o077 != 0 {
		if err := os.Chmod(dir, 0o700); err != nil { //nolint:gosec // a directory: only its owner may list and enter it
			return fmt.Errorf("socket: %w", err)
		}
	}
	return nil
}
