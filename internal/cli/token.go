package cli

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/asktui/asktui/interaction"
)

// minTokenLen is the shortest bearer token serve accepts: 32 characters,
// as many as 128 random bits in hex. The token it generates is 64.
const minTokenLen = 32

// tokenPath is where the generated token is kept.
func tokenPath(e env) (string, error) {
	dir, err := e.configDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "token"), nil
}

// loadToken returns the bearer token: ASKTUI_TOKEN, else the token file,
// else a new token written to the default file with mode 0600.
//
// A token shorter than minTokenLen, or kept in a file that others can
// read or replace (readable or writable by group or others, owned by
// someone else, or in a world-writable directory), is refused with what
// to do about it, except in the default file: that one is ours, so a new
// token replaces it and serve says so on standard error.
func loadToken(file string, e env) (string, error) {
	if t := strings.TrimSpace(e.getenv("ASKTUI_TOKEN")); t != "" {
		if len(t) < minTokenLen {
			return "", fmt.Errorf("ASKTUI_TOKEN is %d characters long; use at least %d random characters "+
				"(such as the output of: openssl rand -hex 32), or unset it to use the token asktui keeps", len(t), minTokenLen)
		}
		return t, nil
	}
	explicit := file != ""
	if !explicit {
		var err error
		if file, err = tokenPath(e); err != nil {
			return "", interaction.WrapError(interaction.CodeInternal, err, "no place for the token: %v; set ASKTUI_TOKEN or --token-file", err)
		}
	}
	if err := checkTokenDir(filepath.Dir(file)); err != nil {
		return "", err
	}
	b, err := os.ReadFile(file) //nolint:gosec // the token file the user named or its default
	switch {
	case err == nil:
		t := strings.TrimSpace(string(b))
		problem := tokenFileProblem(file, t)
		if problem == "" {
			return t, nil
		}
		if explicit {
			return "", errors.New(problem)
		}
		// Our own file: a token others may have read is spent; make another.
		_, _ = fmt.Fprintf(e.stderr, "asktui: %s; it now holds a new token (run asktui serve --print-config again to update your clients)\n", strings.SplitN(problem, ":", 2)[0])
		return newToken(file)
	case !errors.Is(err, fs.ErrNotExist) || explicit:
		return "", interaction.WrapError(interaction.CodeInternal, err, "cannot read the token: %v", err)
	}
	return newToken(file)
}

// tokenFileProblem says what is wrong with the token file and its token
// t, and how to fix it, or "".
func tokenFileProblem(file, t string) string {
	info, err := os.Stat(file)
	switch {
	case err != nil:
		return fmt.Sprintf("the token file %s cannot be checked: %v", file, err)
	case !info.Mode().IsRegular():
		return fmt.Sprintf("the token file %s is not a regular file: point --token-file at a file", file)
	case !ownedByUs(info):
		return fmt.Sprintf("the token file %s belongs to another user: make your own (openssl rand -hex 32 > FILE; chmod 600 FILE)", file)
	case info.Mode().Perm()&0o077 != 0 && checkModes:
		return fmt.Sprintf("the token file %s can be read by others (mode %04o): chmod 600 %s, and replace the token, which others may have read", file, info.Mode().Perm(), file)
	case t == "":
		return fmt.Sprintf("the token file %s is empty: delete it to have a new token made, or write one in it (openssl rand -hex 32)", file)
	case len(t) < minTokenLen:
		return fmt.Sprintf("the token in %s is %d characters long: use at least %d random characters (openssl rand -hex 32 > %s)", file, len(t), minTokenLen, file)
	}
	return ""
}

// checkTokenDir refuses a token directory that anyone may write to:
// another user could replace the token there.
func checkTokenDir(dir string) error {
	info, err := os.Stat(dir)
	if err != nil || !checkModes {
		return nil // a missing directory is made private below
	}
	if info.Mode().Perm()&0o002 != 0 {
		return fmt.Errorf("the token's directory %s is writable by every user, who could replace the token: "+
			"keep the token in a private directory (--token-file), or chmod o-w %s", dir, dir)
	}
	return nil
}

// newToken writes a new random token to file, mode 0600, in a directory
// made with mode 0700 if missing.
func newToken(file string) (string, error) {
	raw := make([]byte, 32)
	if _, err := rand.Read(raw); err != nil {
		return "", err
	}
	t := hex.EncodeToString(raw)
	if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
		return "", interaction.WrapError(interaction.CodeInternal, err, "cannot keep the token: %v", err)
	}
	// Write a new file and rename it over the old, so the mode is 0600
	// whatever the old file's was.
	tmp, err := os.CreateTemp(filepath.Dir(file), ".token-*")
	if err == nil {
		_, err = tmp.WriteString(t + "\n")
		if cerr := tmp.Close(); err == nil {
			err = cerr
		}
		if err == nil {
			err = os.Rename(tmp.Name(), file)
		}
		if err != nil {
			_ = os.Remove(tmp.Name())
		}
	}
	if err != nil {
		return "", interaction.WrapError(interaction.CodeInternal, err, "cannot keep the token: %v", err)
	}
	return t, nil
}
