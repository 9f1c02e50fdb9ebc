package tui_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestREADMEExample keeps the README's Go program and Example, which go
// test runs, the same: the body of the README's main is the body of
// Example, line for line, and the program imports exactly the packages
// that body uses, so it compiles as printed.
func TestREADMEExample(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	program := goBlock(t, string(readme), "## Go library")
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "README.md", program, 0)
	if err != nil {
		t.Fatalf("the README's Go program does not parse: %v\n%s", err, program)
	}
	main := funcBody(t, fset, file, program, "main")

	src, err := os.ReadFile("example_test.go")
	if err != nil {
		t.Fatal(err)
	}
	exFile, err := parser.ParseFile(fset, "example_test.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	example := funcBody(t, fset, exFile, string(src), "Example")
	// The Output comment is go test's, not the program's.
	if i := strings.Index(example, "\t// Output:"); i >= 0 {
		example = example[:i]
	}
	if strings.TrimSpace(main) != strings.TrimSpace(example) {
		t.Errorf("the README's main and Example in example_test.go differ; make them the same.\nREADME:\n%s\nExample:\n%s", main, example)
	}

	// The packages used are the X of every X.Sel that is not a variable
	// the program declares (ans.Answers).
	var imported, declared, used []string
	for _, imp := range file.Imports {
		p, _ := strconv.Unquote(imp.Path.Value)
		imported = append(imported, path.Base(p))
	}
	ast.Inspect(file, func(n ast.Node) bool {
		if as, ok := n.(*ast.AssignStmt); ok && as.Tok == token.DEFINE {
			for _, lhs := range as.Lhs {
				declared = append(declared, lhs.(*ast.Ident).Name)
			}
		}
		return true
	})
	ast.Inspect(file, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok && !slices.Contains(declared, id.Name) && !slices.Contains(used, id.Name) {
				used = append(used, id.Name)
			}
		}
		return true
	})
	slices.Sort(imported)
	slices.Sort(used)
	if !slices.Equal(imported, used) {
		t.Errorf("the README's program imports %q but uses %q", imported, used)
	}
}

// goBlock returns the first ```go block after the line heading in md.
func goBlock(t *testing.T, md, heading string) string {
	t.Helper()
	_, after, ok := strings.Cut(md, "\n"+heading+"\n")
	if !ok {
		t.Fatalf("the README has no %q section", heading)
	}
	_, after, ok = strings.Cut(after, "```go\n")
	if !ok {
		t.Fatalf("the README's %q section has no Go block", heading)
	}
	block, _, ok := strings.Cut(after, "```\n")
	if !ok {
		t.Fatal("the README's Go block does not end")
	}
	return block
}

// funcBody returns the source between the braces of the function name.
func funcBody(t *testing.T, fset *token.FileSet, file *ast.File, src, name string) string {
	t.Helper()
	for _, d := range file.Decls {
		if fn, ok := d.(*ast.FuncDecl); ok && fn.Name.Name == name {
			from, to := fset.Position(fn.Body.Lbrace).Offset+1, fset.Position(fn.Body.Rbrace).Offset
			return src[from:to]
		}
	}
	t.Fatalf("no func %s", name)
	return ""
}
