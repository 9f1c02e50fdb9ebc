package tui

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// notPanes are the types with a View method that are no part of the
// screen the contract is about, and why.
var notPanes = map[string]string{
	"Model":     "the root tea.Model: its View is bubbletea's",
	"helpBar":   "a line the program draws from the focused pane's keys: it has none of its own",
	"textField": "a free-text question's field, like field.Choice: the question panel lists its keys",
}

// Every pane and dialog keeps the contract (tui/internal/ui): in every
// package of tui, a type with a View method is asserted to be a
// ui.Component or a ui.Pane (var _ ui.Pane = (*T)(nil), which the
// compiler checks), unless notPanes says why not. A pane that draws with
// View(args) instead, or that nobody lists, fails here.
func TestEveryPaneKeepsTheContract(t *testing.T) {
	internal, err := filepath.Glob(filepath.Join("internal", "*"))
	if err != nil {
		t.Fatal(err)
	}
	viewers := map[string]token.Position{} // types with a View method, by package and name
	listed := map[string]bool{}            // types asserted to keep the contract, in their package
	for _, dir := range append([]string{"."}, internal...) {
		readPanes(t, dir, viewers, listed)
	}
	if len(viewers) < 10 {
		t.Fatalf("%d types with a View method: the test reads the wrong files", len(viewers))
	}
	for typ, pos := range viewers {
		name := typ[strings.LastIndexByte(typ, '.')+1:]
		if !listed[typ] && notPanes[name] == "" {
			t.Errorf("%s: %s has a View method but is not listed as a component or a pane (var _ ui.Pane = (*%s)(nil))", pos, name, name)
		}
	}
}

// readPanes notes, for the package in dir, the types with a View method
// and the types asserted to keep the contract, each as dir.T.
func readPanes(t *testing.T, dir string, viewers map[string]token.Position, listed map[string]bool) {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv != nil && d.Name.Name == "View" {
					viewers[dir+"."+typeName(d.Recv.List[0].Type)] = fset.Position(d.Pos())
				}
			case *ast.GenDecl:
				for _, spec := range d.Specs {
					if v, ok := spec.(*ast.ValueSpec); ok && contractType(v.Type) && len(v.Values) == 1 {
						if c, ok := v.Values[0].(*ast.CallExpr); ok && len(c.Args) == 1 {
							listed[dir+"."+typeName(c.Fun)] = true
						}
					}
				}
			}
		}
	}
}

// contractType reports whether e names the contract: ui.Component or
// ui.Pane (Component or Pane inside package ui).
func contractType(e ast.Expr) bool {
	if s, ok := e.(*ast.SelectorExpr); ok {
		if x, ok := s.X.(*ast.Ident); !ok || x.Name != "ui" {
			return false
		}
		e = s.Sel
	}
	id, ok := e.(*ast.Ident)
	return ok && (id.Name == "Component" || id.Name == "Pane")
}

// typeName is the type named by e: T, *T, (*T).
func typeName(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.StarExpr:
		return typeName(e.X)
	case *ast.ParenExpr:
		return typeName(e.X)
	case *ast.Ident:
		return e.Name
	}
	return ""
}
