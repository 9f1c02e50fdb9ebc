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
}

// Changed reports whether applying c would change the file.
func (c Change) Changed() bool {
	return c.Before == nil || !bytes.Equal(c.Before, c.After)
}

// Diff is the change as a unified diff, with name as the file's label
// (a new file's old side is /dev/null). It is "" when nothing changes.
func (c Change) Diff(name string) string {
	if !c.Changed() {
		return ""
	}
	from := name
	if c.Before == nil {
		from = "/dev/null"
	}
	return udiff.Unified(from, name, string(c.Before), string(c.After))
}

// BackupSuffix starts the name of the copy Apply keeps of a file before
// replacing it: settings.json.asktui-backup-20260102-150405.
const BackupSuffix = ".asktui-backup-"

// Apply writes c.After to the file. An existing file is first copied to
// a backup beside it, named with BackupSuffix and the time now, with the
// file's own permissions; the new content goes to a temporary file in the
// same directory, which then replaces the file in one rename, so a reader
// sees the old file or the new one, never a part. When the file no longer
// holds c.Before (another program wrote it since it was read), nothing is
// written and the error is ErrChanged. Apply returns the backup's path,
// or "" for a new file.
func (c Change) Apply(now time.Time) (backup string, err error) {
	path := c.Path
	if target, err := filepath.EvalSymlinks(path); err == nil {
		path = target
	}
	current, mode, err := Read(path)
	if err != nil {
		return "", err
	}
	if (current == nil) != (c.Before == nil) || !bytes.Equal(current, c.Before) {
		return "", fmt.Errorf("%s: %w", c.Path, ErrChanged)
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
	} else if backup, err = writeBackup(path, current, mode, now); err != nil {
		return "", err
	}
	if err := replace(path, c.After, mode, c.Before); err != nil {
		if backup != "" {
			_ = os.Remove(backup) // nothing was changed: nothing to restore
		}
		return "", err
	}
	return backup, nil
}

// writeBackup copies data, the content of path, to a new file beside it.
func writeBackup(path string, data []byte, mode fs.FileMode, now time.Time) (string, error) {
	base := path + BackupSuffix + now.Format("20060102-150405")
	for i := 1; ; i++ {
		name := base
		if i > 1 {
			name = fmt.Sprintf("%s-%d", base, i)
		}
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode) //nolint:gosec // a new file beside the config, created exclusively
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
