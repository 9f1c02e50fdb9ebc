//go:build unix

package history

import (
	"errors"
	"io/fs"
	"syscall"
)

// openFlags makes opening the history fail on a symbolic link.
const openFlags = syscall.O_NOFOLLOW

// isLoop reports whether err is what opening a symbolic link with
// O_NOFOLLOW fails with: ELOOP, or EMLINK on FreeBSD.
func isLoop(err error) bool {
	return errors.Is(err, syscall.ELOOP) || errors.Is(err, syscall.EMLINK)
}

// fileOwner returns the uid that owns fi's file.
func fileOwner(fi fs.FileInfo) (uid int, ok bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return int(st.Uid), true
}
