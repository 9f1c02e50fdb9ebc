//go:build unix

package rules

import (
	"io/fs"
	"syscall"
	"time"
)

// unixPermissions says that file modes and owners mean what they say, so
// a rules file others can write is refused.
const unixPermissions = true

// fileOwner returns the uid that owns fi's file.
func fileOwner(fi fs.FileInfo) (uid int, ok bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return int(st.Uid), true
}

// inode identifies fi's file beyond its size and times: a file replaced
// by a rename has another inode.
func inode(fi fs.FileInfo) [2]uint64 {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return [2]uint64{}
	}
	return [2]uint64{uint64(st.Ino), uint64(st.Dev)} //nolint:gosec,unconvert // Dev is signed on some systems; only equality matters
}

// changed returns when fi's file last changed (its ctime): a write, a
// chmod, a link or a rename sets it to the present, and unlike the
// modification time no program can set it back, so a rewrite of the
// same size that keeps the old modification time (touch -d) still shows.
func changed(fi fs.FileInfo) time.Time {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return time.Time{}
	}
	return ctime(st)
}
