//go:build unix

package rules

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// walk follows path from the root one name at a time, as the kernel does
// when it opens it, and checks everything it goes through, as OpenSSH's
// safe_path and sudo do: every directory on the way, and every symbolic
// link and so the directories its target is in, must be the user's or
// root's, and no one else may write a directory, where they could rename
// what is in it and put their own in its place. A directory others may
// write is allowed only when it is sticky and the user's or root's (like
// /tmp): there others cannot rename or remove what is not theirs. The
// file at the end is the caller's to check.
//
// What others could replace is a *distrust error. A path that leads
// nowhere (a name on the way does not exist) holds nothing to trust and
// is not distrusted, unless strict: a file is about to be made there.
func walk(path string, strict bool) (walked, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return walked{}, err
	}
	var distrust error // the first thing found wrong, reported if the path leads somewhere
	note := func(why error) {
		if distrust == nil {
			distrust = why
		}
	}
	out := "/"
	fi, err := os.Lstat(out)
	if err != nil {
		return walked{}, err
	}
	if why := dirProblem(out, fi, false); why != nil {
		note(why)
	}
	rest := splitPath(abs)
	links := 0
	for len(rest) > 0 {
		c := rest[0]
		rest = rest[1:]
		switch c {
		case ".":
			continue
		case "..":
			out = filepath.Dir(out) // out has no links left: its parent was walked
			continue
		}
		next := filepath.Join(out, c)
		fi, err := os.Lstat(next)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			w := walked{real: filepath.Join(append([]string{next}, rest...)...)}
			if strict {
				return w, distrust
			}
			return w, nil
		case err != nil:
			return walked{}, err
		case fi.Mode()&fs.ModeSymlink != 0:
			if uid, ok := fileOwner(fi); ok && uid != os.Getuid() && uid != 0 {
				note(distrustf("is reached through %s, a symbolic link of another user's (uid %d), who could point it elsewhere", next, uid))
			}
			if links++; links > maxLinks {
				return walked{}, fmt.Errorf("%q goes through more than %d symbolic links", path, maxLinks)
			}
			target, err := os.Readlink(next)
			if err != nil {
				return walked{}, err
			}
			if filepath.IsAbs(target) {
				out = "/"
			}
			rest = append(splitPath(target), rest...)
			continue
		case len(rest) == 0:
			return walked{real: next, fi: fi}, distrust
		case !fi.IsDir():
			return walked{}, fmt.Errorf("%s is not a directory", next)
		}
		if why := dirProblem(next, fi, len(rest) == 1); why != nil {
			note(why)
		}
		out = next
	}
	// The path ends at "/" or with "..": a directory already walked.
	fi, err = os.Lstat(out)
	if err != nil {
		return walked{}, err
	}
	return walked{real: out, fi: fi}, distrust
}

// dirProblem says what is wrong with the directory dir (fi) on the way
// to a file, or nil: it must be the user's or root's, and no one else may
// write it unless it is sticky. last says that the file is in dir itself.
func dirProblem(dir string, fi fs.FileInfo, last bool) error {
	uid, ok := fileOwner(fi)
	if !ok {
		return nil
	}
	if uid != os.Getuid() && uid != 0 {
		return distrustf("is under %s, a directory of another user's (uid %d), who could replace what is in it", dir, uid)
	}
	if fi.Mode().Perm()&0o022 == 0 || fi.Mode()&fs.ModeSticky != 0 {
		return nil
	}
	if last {
		return distrustf("is in a directory others can write (mode %#o), where they could replace it; chmod 700 %s", fi.Mode().Perm(), dir)
	}
	return distrustf("is under %s, a directory others can write (mode %#o), where they could replace what is in it; chmod go-w %s", dir, fi.Mode().Perm(), dir)
}
