//go:build !unix

package socket

import "os"

// systemTempDir is the system's temporary directory.
func systemTempDir() string { return os.TempDir() }

// runUserDir has no meaning where there is no /run/user.
const runUserDir = ""

// userRuntimeDir finds no per-user runtime directory on this system.
func userRuntimeDir(string) string { return "" }

// checkDir has nothing to check where there are no Unix permissions.
func checkDir(dir string) error { return nil }
