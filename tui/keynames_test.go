package tui

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// keyWords finds a key's name in text: a modifier, a named key, a pair of
// arrows or letters, a letter in parentheses ("Go back (n)"), a range of
// digits ("1–3").
var keyWords = regexp.MustCompile(`(?i)\b(ctrl|alt|shift|meta)\+|⇧|\b(enter|esc|tab|space|pgup|pgdn|pgdown|home|end|f1|backspace)\b|[↑↓←→]/|/[↑↓←→]|\b[a-z]/[a-z]\b|\([a-z?]\)|\b1[-–][0-9]|^[0-9]$`)

// keyTables are the files that may name keys: the key table of the
// program and the option list's.
var keyTables = map[string]bool{filepath.Join("internal", "keys", "keys.go"): true, filepath.Join("field", "keymap.go"): true}

// The key table is the only place a key is named: every hint on screen
// that says which key does what takes its name from a binding, so a
// remapped or renamed key cannot leave a hint behind that says otherwise.
// This fails on any string in tui's code (tests aside) that spells a key.
func TestKeysNamedOnlyInTheTable(t *testing.T) {
	internal, err := filepath.Glob(filepath.Join("internal", "*"))
	if err != nil {
		t.Fatal(err)
	}
	for _, dir := range append([]string{".", "field"}, internal...) {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") || keyTables[f] {
				continue
			}
			fset := token.NewFileSet()
			file, err := parser.ParseFile(fset, f, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			ast.Inspect(file, func(n ast.Node) bool {
				lit, ok := n.(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING {
					return true
				}
				s, err := strconv.Unquote(lit.Value)
				if err == nil && keyWords.MatchString(s) {
					t.Errorf("%s: %q names a key outside the key table (internal/keys): take the name from the binding (keys.Name)", fset.Position(lit.Pos()), s)
				}
				return true
			})
		}
	}
}

// The check finds what it is for.
func TestKeyWordsFindKeys(t *testing.T) {
	for _, s := range []string{"ctrl+g answers", "enter to confirm", "esc cancels", "(⇧tab)", "↑/↓ scroll", "Go back (n)", "j/k scroll", "Pick one · 1–3", "space toggles", "end to follow", "4"} {
		if !keyWords.MatchString(s) {
			t.Errorf("%q is not seen naming a key", s)
		}
	}
	for _, s := range []string{"has ended", "No questions waiting.", "↑ 3 more", "answers at once", "the entry", "agents/config"} {
		if keyWords.MatchString(s) {
			t.Errorf("%q is seen naming a key", s)
		}
	}
}
