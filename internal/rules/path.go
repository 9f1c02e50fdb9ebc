package rules

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// maxLinks bounds the symbolic links one path may go through, as the
// kernel does (Linux's MAXSYMLINKS).
const maxLinks = 40

// resolve returns the absolute path p names, with "." and ".." taken and
// every symbolic link in it followed, as the kernel does when opening it.
// The parts that do not exist yet (a file about to be written) are taken
// as written; a ".." after them goes back to resolving links. It fails
// for a relative p, too many links, or a part it cannot look at.
func resolve(p string) (string, error) {
	if !filepath.IsAbs(p) {
		return "", fmt.Errorf("%q is not an absolute path", p)
	}
	vol := filepath.VolumeName(p)
	root := vol + string(filepath.Separator)
	out := root
	rest := splitPath(p[len(vol):])
	links, missing := 0, false
	for len(rest) > 0 {
		c := rest[0]
		rest = rest[1:]
		switch c {
		case "", ".":
			continue
		case "..":
			out = filepath.Dir(out)
			missing = false
			continue
		}
		next := filepath.Join(out, c)
		if missing {
			out = next
			continue
		}
		fi, err := os.Lstat(next)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			missing = true
			out = next
			continue
		case err != nil:
			return "", err
		case fi.Mode()&fs.ModeSymlink == 0:
			out = next
			continue
		}
		if links++; links > maxLinks {
			return "", fmt.Errorf("%q goes through more than %d symbolic links", p, maxLinks)
		}
		target, err := os.Readlink(next)
		if err != nil {
			return "", err
		}
		if filepath.IsAbs(target) {
			tv := filepath.VolumeName(target)
			out = tv + string(filepath.Separator)
			target = target[len(tv):]
		}
		rest = append(splitPath(target), rest...)
	}
	return out, nil
}

// splitPath splits p at its separators.
func splitPath(p string) []string {
	return strings.FieldsFunc(p, func(r rune) bool { return r == '/' || r == filepath.Separator })
}

// resolveFrom resolves p, relative to the resolved directory dir when it
// is not absolute.
func resolveFrom(dir, p string) (string, error) {
	if !filepath.IsAbs(p) {
		p = dir + string(filepath.Separator) + p
	}
	return resolve(p)
}

// within reports whether the resolved path p is dir or inside it.
func within(p, dir string) bool {
	if dir == "" {
		return false
	}
	if p == dir {
		return true
	}
	if !strings.HasSuffix(dir, string(filepath.Separator)) {
		dir += string(filepath.Separator)
	}
	return strings.HasPrefix(p, dir)
}

// pathPattern is an Edit or Read rule's path pattern, made absolute.
type pathPattern struct {
	// any: no pattern; every path inside the rule's directory.
	any bool
	// segs are the pattern's parts, from the root.
	segs []string
}

// compilePath makes an Edit or Read rule's pattern absolute, as Claude
// Code reads it (gitignore style): "//path" from the root, "~/path" from
// home, "/path", "./path" and any "dir/path" from the project directory
// dir, and a name without a slash ("*.env") at any depth inside it; a
// trailing slash means everything in the directory. The part before the
// first wildcard is resolved like any path, symbolic links followed.
func compilePath(p, dir, home string) (pathPattern, error) {
	if p == "" {
		return pathPattern{any: true}, nil
	}
	var abs string
	switch {
	case strings.HasPrefix(p, "//"):
		abs = p[1:]
	case strings.HasPrefix(p, "~/"):
		if !filepath.IsAbs(home) {
			return pathPattern{}, fmt.Errorf("%q names the home directory, which is not known", p)
		}
		abs = home + "/" + p[2:]
	case !strings.Contains(strings.TrimSuffix(p, "/"), "/"):
		abs = dir + "/**/" + strings.TrimPrefix(p, "./")
	default:
		abs = dir + "/" + strings.TrimPrefix(strings.TrimPrefix(p, "./"), "/")
	}
	if strings.HasSuffix(abs, "/") {
		abs += "**"
	}
	segs := splitPath(filepath.ToSlash(abs))
	// Resolve the literal directories the pattern starts with.
	lit := 0
	for lit < len(segs)-1 && !strings.ContainsAny(segs[lit], `*?[\`) {
		lit++
	}
	if lit > 0 {
		base, err := resolve(string(filepath.Separator) + filepath.Join(segs[:lit]...))
		if err != nil {
			return pathPattern{}, err
		}
		segs = append(splitPath(filepath.ToSlash(base)), segs[lit:]...)
	}
	return pathPattern{segs: segs}, nil
}

// match reports whether the resolved absolute path p, or a directory it
// is in, matches the pattern: "**" stands for any number of directories,
// and each other part is a glob of one name (path.Match).
func (pp pathPattern) match(p string) bool {
	names := splitPath(filepath.ToSlash(p))
	// ok[j]: the pattern from part i on matches a prefix of names[j:];
	// computed from the last part back.
	next := make([]bool, len(names)+1)
	for j := range next {
		next[j] = true // an empty pattern matches what is left: p is inside
	}
	cur := make([]bool, len(names)+1)
	for i := len(pp.segs) - 1; i >= 0; i-- {
		seg := pp.segs[i]
		for j := len(names); j >= 0; j-- {
			switch {
			case seg == "**":
				cur[j] = next[j] || (j < len(names) && cur[j+1])
			case j == len(names):
				cur[j] = false
			default:
				m, _ := path.Match(seg, names[j])
				cur[j] = m && next[j+1]
			}
		}
		next, cur = cur, next
	}
	return next[0]
}
