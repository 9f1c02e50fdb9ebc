//go:build unix

package cli

import (
	"io/fs"
	"os"
	"syscall"
)

// checkModes says whether file modes mean what they say on Unix.
const checkModes = true

// ownedByUs reports whether the file belongs to the user running asktui.
func ownedByUs(info fs.FileInfo) bool {
	st, ok := info.Sys().(*syscall.Stat_t)
	return !ok || int(st.Uid) == os.Getuid()
}
