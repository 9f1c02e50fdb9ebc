package cli

import (
	"flag"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/asktui/asktui/interaction"
)

var update = flag.Bool("update", false, "rewrite the generated parts of the docs")

// docFiles are the files a generated part of the docs may live in,
// relative to this package: README.md, or any page of docs/ it moves to.
func docFiles(t *testing.T) []string {
	t.Helper()
	pages, err := filepath.Glob("../../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	return append([]string{"../../README.md"}, pages...)
}

// checkGenerated fails unless exactly one of the doc files holds the text
// want between the markers begin and end; with -update it writes want
// there.
func checkGenerated(t *testing.T, begin, end, want string) {
	t.Helper()
	var found []string
	for _, path := range docFiles(t) {
		b, err := os.ReadFile(path) //nolint:gosec // a path the test made, or its testdata
		if err != nil {
			t.Fatal(err)
		}
		doc := string(b)
		i := strings.Index(doc, begin)
		if i < 0 {
			continue
		}
		found = append(found, path)
		j := strings.Index(doc[i:], end)
		if j < 0 {
			t.Errorf("%s has %q but not %q after it", path, begin, end)
			continue
		}
		j += i
		if doc[i+len(begin):j] == want {
			continue
		}
		if *update {
			if err := os.WriteFile(path, []byte(doc[:i+len(begin)]+want+doc[j:]), 0o644); err != nil { //nolint:gosec // a test's own file; its mode is part of the set-up
				t.Fatal(err)
			}
			continue
		}
		t.Errorf("%s: the table after %q is stale; run go test ./internal/cli -run TestCodeTables -update\nwant:\n%s", path, begin, want)
	}
	if len(found) != 1 {
		t.Errorf("%d of README.md and docs/*.md (%q) hold %q, want exactly one", len(found), found, begin)
	}
}

const (
	exitCodesBegin  = "<!-- exit-codes:begin (generated from internal/cli/exit.go; go test ./internal/cli -run TestCodeTables -update) -->\n"
	exitCodesEnd    = "<!-- exit-codes:end -->"
	errorCodesBegin = "<!-- error-codes:begin (generated from interaction/errors.go; go test ./internal/cli -run TestCodeTables -update) -->\n"
	errorCodesEnd   = "<!-- error-codes:end -->"
)

// exitCodeTable is the docs' table of exit codes, from exitCodes.
func exitCodeTable() string {
	var b strings.Builder
	b.WriteString("| code | meaning |\n|---|---|\n")
	for _, c := range exitCodes {
		b.WriteString("| " + strconv.Itoa(c.code) + " | " + mdCell(c.meaning) + " |\n")
	}
	return b.String()
}

// errorCodeTable is the docs' table of error codes, from
// interaction.Codes.
func errorCodeTable() string {
	var b strings.Builder
	b.WriteString("| code | meaning |\n|---|---|\n")
	for _, c := range interaction.Codes() {
		b.WriteString("| `" + string(c.Code) + "` | " + mdCell(c.Meaning) + " |\n")
	}
	return b.String()
}

// mdCell escapes what would end a Markdown table cell.
func mdCell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }

// TestCodeTables fails when the docs' tables of exit and error codes
// differ from the code's (issue 18: they were written by hand).
func TestCodeTables(t *testing.T) {
	checkGenerated(t, exitCodesBegin, exitCodesEnd, exitCodeTable())
	checkGenerated(t, errorCodesBegin, errorCodesEnd, errorCodeTable())
}

// TestExitCodesAreAllListed: every exit code exit.go declares is in
// exitCodes once, in ascending order, and the meaning of each names the
// error codes that exit with it (those that exit 4, "any other failure",
// need not all be named).
func TestExitCodesAreAllListed(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "exit.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var declared []int
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, spec := range g.Specs {
			v := spec.(*ast.ValueSpec)
			for i, name := range v.Names {
				lit, ok := v.Values[i].(*ast.BasicLit)
				if !strings.HasPrefix(name.Name, "exit") || !ok || lit.Kind != token.INT {
					continue
				}
				n, err := strconv.Atoi(lit.Value)
				if err != nil {
					t.Fatal(err)
				}
				declared = append(declared, n)
			}
		}
	}
	var listed []int
	meaning := map[int]string{}
	for _, c := range exitCodes {
		listed = append(listed, c.code)
		meaning[c.code] = c.meaning
	}
	slices.Sort(declared)
	if !slices.Equal(listed, declared) {
		t.Errorf("exitCodes lists %v, want the codes exit.go declares, in order: %v", listed, declared)
	}
	for _, c := range interaction.Codes() {
		code := exitCode(interaction.Errorf(c.Code, "x"))
		if code != exitFailure && !strings.Contains(meaning[code], "`"+string(c.Code)+"`") {
			t.Errorf("%s exits %d, whose meaning does not name it: %q", c.Code, code, meaning[code])
		}
	}
}
