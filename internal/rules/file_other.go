//go:build !unix

package rules

import (
	"io/fs"
	"time"
)

// unixPermissions is false where file modes do not say who may write a
// file: the rules file's mode and owner are not checked.
const unixPermissions = false

// fileOwner does not know owners where there are no Unix permissions.
func fileOwner(fs.FileInfo) (uid int, ok bool) { return 0, false }

// inode knows nothing more than the size and modification time.
func inode(fs.FileInfo) [2]uint64 { return [2]uint64{} }

// changed knows nothing more than the modification time.
func changed(fs.FileInfo) time.Time { return time.Time{} }
