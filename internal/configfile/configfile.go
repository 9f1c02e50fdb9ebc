// Package configfile edits other programs' configuration files in place.
// It adds, replaces or removes one entry of a JSON document (comments and
// trailing commas allowed) or a TOML document and leaves every other byte
// as it was: keys, their order, indentation and comments. A file it cannot
// parse is refused with the line and column at fault. [Change] shows an
// edit as a unified diff, and writes it atomically after keeping a backup.
package configfile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/aymanbagabas/go-udiff"
)

// MaxSize is the largest file Read accepts. Claude Code's ~/.claude.json
// keeps every project's state and grows to megabytes; nothing a person
// edits comes near this.
const MaxSize = 32 << 20

// ParseError says where a file cannot be read as its format, and what is
// wrong there.
type ParseError struct {
	File         string
	Line, Column int // 1-based; 0 when the problem has no one place
	Problem      string
}

func (e *ParseError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s line %d, column %d: %s", e.File, e.Line, e.Column, e.Problem)
	}
	return e.File + ": " + e.Problem
}

// ErrChanged is the error of [Change.Apply] when the file changed after it
// was read: another program wrote it in the meantime.
var ErrChanged = errors.New("the file changed while it was being edited")

// ErrReadOnly is the error of [Change.Apply] for a file, or the directory
// it is in, that its owner may not write: the user made it read-only,
// and a rename would replace it all the same. It is an [fs.ErrPermission].
var ErrReadOnly = fmt.Errorf("read-only: %w", fs.ErrPermission)

// Read returns the contents of path and its permission bits, or nil
// contents and no error when it does not exist. A file larger than
// MaxSize, or one that is not a regular file, is refused.
func Read(path string) ([]byte, fs.FileMode, error) {
	f, err := os.Open(path) //nolint:gosec // the client's config file that asktui setup edits
	if errors.Is(err, fs.ErrNotExist) {
		return nil, 0, nil
	}
	if err != nil {
		return nil, 0, err
	}
	defer func() { _ = f.Close() }()
	info, err := f.Stat()
	if err != nil {
		return nil, 0, err
	}
	if !info.Mode().IsRegular() {
		return nil, 0, fmt.Errorf("%s is not a regular file", path)
	}
	b, err := io.ReadAll(io.LimitReader(f, MaxSize+1))
	if err != nil {
		return nil, 0, err
	}
	if len(b) > MaxSize {
		return nil, 0, fmt.Errorf("%s is larger than %d MiB", path, MaxSize>>20)
	}
	if b == nil {
		b = []byte{} // exists, empty
	}
	return b, info.Mode().Perm(), nil
}

// Change is a new content for one file.
type Change struct {
	// Path is the file. A symbolic link is followed: the file it points
	// to is replaced, and the link stays.
	Path string
	// Before is the content the edit was made from, as Read returned it
	// (nil: the file did not exist); After the content to write.
	Before, After []byte
	// Mode is the permission of the file when it is created; an existing
	// file keeps its own. DirMode is that of directories created for it
	// (0o755 when zero).
	Mode, DirMode fs.FileMode
	// Remove removes the file instead of writing After (a backup is kept
	// as for a write).
	Remove bool
	// Restore says, for the report, that After is the file's content
	// from before, restored.
	Restore bool
	// NoBackup writes without keeping a backup: for asktui's own files.
	NoBackup bool
}

// Changed reports whether applying c would change the file.
func (c Change) Changed() bool {
	if c.Remove {
		return c.Before != nil
	}
	return c.Before == nil || !bytes.Equal(c.Before, c.After)
}

// Diff is the change as a unified diff, with name as the file's label
// (a new file's old side is /dev/null). It is "" when nothing changes.
func (c Change) Diff(name string) string {
	if !c.Changed() {
		return ""
	}
	from, to, after := name, name, string(c.After)
	if c.Before == nil {
		from = "/dev/null"
	}
	if c.Remove {
		to, after = "/dev/null", ""
	}
	return udiff.Unified(from, to, string(c.Before), after)
}

// BackupSuffix starts the name of the copy Apply keeps of a file before
// replacing it: settings.json.asktui-backup-20260102-150405.
const BackupSuffix = ".asktui-backup-"

// Apply writes c.After to the file (or removes it, with c.Remove). An
// existing file is first copied to a backup beside it, named with
// BackupSuffix and the time now, readable by its owner only (0600,
// whatever the file's mode: it may hold a token); the new content goes to
// a temporary file in the same directory, which then replaces the file in
// one rename, so a reader sees the old file or the new one, never a part.
// When the file no longer holds c.Before (another program wrote it since
// it was read), nothing is written and the error is ErrChanged. A file
// its owner may not write (mode 0444), or one in a directory its owner
// may not write, is refused with ErrReadOnly: a rename would replace it
// regardless. Apply returns the backup's path, or "" for a new file.
func (c Change) Apply(now time.Time) (backup string, err error) {
	path, err := resolve(c.Path)
	if err != nil {
		return "", err
	}
	current, mode, err := Read(path)
	if err != nil {
		return "", err
	}
	if (current == nil) != (c.Before == nil) || !bytes.Equal(current, c.Before) {
		return "", fmt.Errorf("%s: %w", c.Path, ErrChanged)
	}
	if err := checkWritable(path, current != nil, mode); err != nil {
		return "", err
	}
	if c.Remove {
		if current == nil {
			return "", nil
		}
		if backup, err = writeBackup(path, current, now); err != nil {
			return "", err
		}
		if err := os.Remove(path); err != nil {
			_ = os.Remove(backup)
			return "", err
		}
		return backup, nil
	}
	if current == nil {
		mode = c.Mode
		if mode == 0 {
			mode = 0o644
		}
		dirMode := c.DirMode
		if dirMode == 0 {
			dirMode = 0o755
		}
		if err := os.MkdirAll(filepath.Dir(path), dirMode); err != nil {
			return "", err
		}
	} else if !c.NoBackup { // NoBackup: asktui's own file, nothing of the user's to keep
		if backup, err = writeBackup(path, current, now); err != nil {
			return "", err
		}
	}
	if err := replace(path, c.After, mode, c.Before); err != nil {
		if backup != "" {
			_ = os.Remove(backup) // nothing was changed: nothing to restore
		}
		return "", err
	}
	return backup, nil
}

// resolve follows path's symbolic links, also to a file that does not
// exist yet, so that the file written is the one the link names and the
// link stays.
func resolve(path string) (string, error) {
	for range 40 {
		info, err := os.Lstat(path)
		if err != nil || info.Mode()&fs.ModeSymlink == 0 {
			return path, nil
		}
		target, err := os.Readlink(path)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(target) {
			target = filepath.Join(filepath.Dir(path), target)
		}
		path = target
	}
	return "", fmt.Errorf("%s: too many levels of symbolic links", path)
}

// checkWritable refuses a file (when it exists, with mode) or a directory
// that its owner made read-only. Write permission alone is not asked of
// the system: root may write anything, and a rename needs only the
// directory; what the user said by the mode is what counts.
func checkWritable(path string, exists bool, mode fs.FileMode) error {
	if exists && mode&0o200 == 0 {
		return fmt.Errorf("%s is %w (mode %04o): asktui does not replace a file you made read-only", path, ErrReadOnly, mode)
	}
	dir := filepath.Dir(path)
	if info, err := os.Stat(dir); err == nil && info.Mode().Perm()&0o200 == 0 {
		return fmt.Errorf("the directory %s is %w (mode %04o): asktui does not write in a directory you made read-only", dir, ErrReadOnly, info.Mode().Perm())
	}
	return nil
}

// writeBackup copies data, the content of path, to a new file beside it,
// readable and writable by its owner only.
func writeBackup(path string, data []byte, now time.Time) (string, error) {
	base := path + BackupSuffix + now.Format("20060102-150405")
	for i := 1; ; i++ {
		name := base
		if i > 1 {
			name = fmt.Sprintf("%s-%d", base, i)
		}
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600) //nolint:gosec // a new file beside the config, created exclusively
		if errors.Is(err, fs.ErrExist) && i < 100 {
			continue
		}
		if err != nil {
			return "", fmt.Errorf("cannot keep a backup of %s: %w", path, err)
		}
		_, err = f.Write(data)
		if err == nil {
			err = f.Sync()
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			_ = os.Remove(name)
			return "", fmt.Errorf("cannot keep a backup of %s: %w", path, err)
		}
		return name, nil
	}
}

// replace writes data to path through a temporary file and a rename,
// unless path no longer holds before.
func replace(path string, data []byte, mode fs.FileMode, before []byte) (err error) {
	dir, base := filepath.Split(path)
	f, err := os.CreateTemp(dir, "."+base+".asktui-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			_ = os.Remove(tmp)
		}
	}()
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if err == nil {
		err = f.Chmod(mode)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	// The last look before the rename narrows the window in which
	// another program's write would be lost to the rename itself.
	current, _, err := Read(path)
	if err != nil {
		return err
	}
	if (current == nil) != (before == nil) || !bytes.Equal(current, before) {
		return fmt.Errorf("%s: %w", path, ErrChanged)
	}
	return os.Rename(tmp, path)
}
