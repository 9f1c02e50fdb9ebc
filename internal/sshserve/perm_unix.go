//go:build unix

package sshserve

import (
	"os"
	"syscall"
)

// noFollow makes open fail on a symbolic link.
const noFollow = syscall.O_NOFOLLOW

// modesMean is whether permission bits say who may read and write.
const modesMean = true

// ownerOf returns the uid owning the file st describes.
func ownerOf(st os.FileInfo) (int, bool) {
	sys, ok := st.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return int(sys.Uid), true
}
