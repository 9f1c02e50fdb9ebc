//go:build !unix

package socket

import "os"

// systemTempDir is the system's temporary directory.
func systemTempDir() string { return os.TempDir() }

// checkDir has nothing to check where there are no Unix permissions.
func checkDir(dir string) error { return nil }
