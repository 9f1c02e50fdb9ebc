//go:build !unix

package rules

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// walk follows path's symbolic links and stats what it names; there are
// no owners and modes here to check on the way.
func walk(path string, _ bool) (walked, error) {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		real = path
	}
	fi, err := os.Stat(real)
	if errors.Is(err, fs.ErrNotExist) {
		return walked{real: real}, nil
	}
	if err != nil {
		return walked{}, err
	}
	return walked{real: real, fi: fi}, nil
}
