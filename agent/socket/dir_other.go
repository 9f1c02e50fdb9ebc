//go:build !unix

package socket

// checkDir has nothing to check where there are no Unix permissions.
func checkDir(dir string) error { return nil }
