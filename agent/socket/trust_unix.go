//go:build unix

package socket

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// verifyPath checks, before a client dials path, what the server made
// sure of when it listened: the socket's directory is a directory of
// uid's that nobody else can write to (so nobody else can put a socket of
// their own there), and the socket is uid's. A path that does not exist
// passes: dialling it fails with the usual NO_PROVIDER.
func verifyPath(path string, uid int) error {
	dir := filepath.Dir(path)
	fi, err := os.Lstat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return untrusted(path, "cannot check its directory: %v", err)
	}
	if !fi.IsDir() {
		return untrusted(path, "%s is not a directory (a symbolic link?); remove it, or choose another socket path", dir)
	}
	if owner := fileOwner(fi); owner != uid {
		return untrusted(path, "its directory %s belongs to another user (uid %d, you are uid %d), who could have put a socket of their own there; remove the directory (as its owner or root), or choose another socket path", dir, owner, uid)
	}
	if perm := fi.Mode().Perm(); perm&0o022 != 0 {
		return untrusted(path, "its directory %s can be written by other users (mode %04o), who could replace the socket; use a socket in a directory only you can write to", dir, perm)
	}
	fi, err = os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return untrusted(path, "cannot check it: %v", err)
	}
	if fi.Mode().Type() != fs.ModeSocket {
		return untrusted(path, "it is not a socket (mode %v)", fi.Mode())
	}
	if owner := fileOwner(fi); owner != uid {
		return untrusted(path, "it belongs to another user (uid %d, you are uid %d); remove it (as its owner or root), or choose another socket path", owner, uid)
	}
	return nil
}

// fileOwner is the uid that owns fi's file, or -1 when the file system
// does not say.
func fileOwner(fi fs.FileInfo) int {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return int(st.Uid)
	}
	return -1
}

// checkShared refuses a socket directory that others can write to, where
// they could replace the socket: clients refuse such a socket (see
// verifyPath), so a server refuses to listen there in the first place.
func checkShared(dir string) error {
	fi, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("socket: %w", err)
	}
	if perm := fi.Mode().Perm(); perm&0o022 != 0 {
		return fmt.Errorf("socket: %s can be written by other users (mode %04o), who could replace the socket, and clients refuse it; put the socket in a directory only you can write to", dir, perm)
	}
	return nil
}
