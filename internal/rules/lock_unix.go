//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly || illumos

package rules

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// lockFile takes the lock of the file at path (flock(2), exclusive),
// creating the file, mode 0600, if it is not there, and returns what
// releases it. It waits while another process, or another open of it
// in this one, holds the lock. The file is never removed: a process
// waiting on a removed lock file would hold a lock nobody else takes.
func lockFile(path string) (unlock func(), err error) {
	// Not through a symbolic link: one planted there would have us
	// create a file wherever it points.
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW, 0o600) //nolint:gosec // the lock beside the user's own file
	if err != nil {
		return nil, err
	}
	fail := func(err error) (func(), error) {
		_ = f.Close() // nothing written
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		return fail(err)
	}
	if uid, ok := fileOwner(fi); !fi.Mode().IsRegular() || ok && uid != os.Getuid() {
		return fail(fmt.Errorf("%s is not a file of yours; remove it and try again", path))
	}
	conn, err := f.SyscallConn()
	if err != nil {
		return fail(err)
	}
	var lockErr error
	err = conn.Control(func(fd uintptr) {
		for {
			// A signal may interrupt the wait; it goes on.
			if lockErr = syscall.Flock(int(fd), syscall.LOCK_EX); !errors.Is(lockErr, syscall.EINTR) { //nolint:gosec // a file descriptor fits an int
				return
			}
		}
	})
	if err == nil {
		err = lockErr
	}
	if err != nil {
		return fail(err)
	}
	// Closing the file releases the lock.
	return func() { _ = f.Close() }, nil
}
