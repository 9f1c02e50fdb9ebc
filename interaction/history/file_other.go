//go:build !unix

package history

import "io/fs"

// openFlags adds nothing where there is no O_NOFOLLOW; Open still refuses
// a symbolic link it sees before opening.
const openFlags = 0

// isLoop reports false: there is no O_NOFOLLOW to fail.
func isLoop(error) bool { return false }

// fileOwner does not know owners where there are no Unix permissions.
func fileOwner(fs.FileInfo) (uid int, ok bool) { return 0, false }
