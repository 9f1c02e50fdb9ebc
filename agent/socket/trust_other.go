//go:build !unix

package socket

// verifyPath has no owners or modes to check where there are no Unix
// permissions.
func verifyPath(string, int) error { return nil }

// checkShared has no modes to check where there are no Unix permissions.
func checkShared(string) error { return nil }
