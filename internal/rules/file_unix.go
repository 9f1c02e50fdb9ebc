//go:build unix

package rules

import (
	"io/fs"
	"syscall"
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

// inode identifies fi's file and its last change, beyond its size and
// modification time: a file replaced by a rename has another inode.
func inode(fi fs.FileInfo) [2]uint64 {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return [2]uint64{}
	}
	return [2]uint64{uint64(st.Ino), uint64(st.Dev)}
}
