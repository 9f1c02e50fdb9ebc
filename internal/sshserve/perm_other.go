//go:build !unix

package sshserve

import "os"

// noFollow is not available: open follows links.
const noFollow = 0

// modesMean is false where permission bits do not say who may read and
// write (Windows: ACLs do).
const modesMean = false

// ownerOf is not known here.
func ownerOf(os.FileInfo) (int, bool) { return 0, false }
