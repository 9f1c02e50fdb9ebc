//go:build unix

package socket

import (
	"fmt"
	"os"
	"syscall"
)

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
		if err := os.Chmod(dir, 0o700); err != nil {
			return fmt.Errorf("socket: %w", err)
		}
	}
	return nil
}
