//go:build ignore

// gen copies the curated lexers from the chroma module go.mod requires
// into lexers/, with chroma's licence:
//
//	go generate ./internal/highlight
package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

func main() {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/alecthomas/chroma/v2").Output()
	if err != nil {
		fail(err)
	}
	dir := strings.TrimSpace(string(out))
	list, err := os.ReadFile("lexers.txt")
	if err != nil {
		fail(err)
	}
	old, _ := filepath.Glob("lexers/*.xml")
	for _, f := range old {
		_ = os.Remove(f)
	}
	for _, name := range strings.Fields(string(list)) {
		b, err := os.ReadFile(filepath.Join(dir, "lexers", "embedded", name+".xml"))
		if err != nil {
			fail(err)
		}
		if err := os.WriteFile(filepath.Join("lexers", name+".xml"), b, 0o644); err != nil {
			fail(err)
		}
	}
	licence, err := os.ReadFile(filepath.Join(dir, "COPYING"))
	if err != nil {
		fail(err)
	}
	licence = append([]byte("The lexer definitions in this directory are chroma's\n(github.com/alecthomas/chroma/v2/lexers/embedded), copied by gen.go.\n\n"), bytes.TrimSpace(licence)...)
	if err := os.WriteFile(filepath.Join("lexers", "COPYING"), append(licence, '\n'), 0o644); err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "gen:", err)
	os.Exit(1)
}
