package tui

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// checkContract fails unless the pane with the keys is the one focused,
// the only one, and draws within the size the layout pass gave it; and
// unless drawing twice changes nothing (a View sizes nothing).
func checkContract(t *testing.T, m *model, where string) {
	t.Helper()
	p := m.paneFor(m.focus)
	if !p.Focused() || m.focused != p {
		t.Fatalf("%s: the pane with the keys (%T) is not the focused one (%T)", where, p, m.focused)
	}
	for _, other := range []pane{&m.qpane, &m.inbox, &m.activity, &m.past, &m.overlay, &m.idle, &m.picker} {
		if other != p && other.Focused() {
			t.Fatalf("%s: %T is focused beside %T", where, other, p)
		}
	}
	var w, h int
	switch b := p.(type) {
	case *questionPane:
		w, h = b.width, b.height
	case *inboxPane:
		w, h = b.width, b.height
	case *activityPane:
		w, h = b.width, b.height
	case *pastPane:
		w, h = b.width, b.height
	case *overlayPane:
		w, h = b.width, b.height
	case *idlePane:
		w, h = b.width, b.height
	case *agentsPane:
		w, h = b.width, b.height
	case *promptEditor:
		w, h = b.width, b.height
	case *transcriptPane:
		w, h = b.width, b.height
	}
	v := p.View()
	if n := strings.Count(v, "\n") + 1; n > h {
		t.Errorf("%s: %T draws %d rows in %d", where, p, n, h)
	}
	if n := maxLineWidth(v); n > w {
		t.Errorf("%s: %T draws %d columns in %d", where, p, n, w)
	}
	before := screen(m)
	if again := screen(m); again != before {
		t.Errorf("%s: drawing twice drew two screens", where)
	}
	if len(p.ShortHelp()) == 0 || len(p.FullHelp()) == 0 {
		t.Errorf("%s: %T says no key acts", where, p)
	}
}

// Every pane of the session view keeps the contract as the human moves
// through them, at a wide and a narrow size.
func TestPanesKeepTheContract(t *testing.T) {
	for _, size := range [][2]int{{140, 40}, {80, 24}, {60, 20}} {
		run(t, func(t *testing.T) {
			m := testSession(t, size[0], size[1])
			checkContract(t, m, "idle")
			ask(t, m, setupRequest())
			askFrom(t, m, "codex", deployQuestion())
			glance(m)
			for _, keys := range [][]string{{}, {"/"}, {"esc"}, {"tab", "tab", "tab"}, {"tab"}, {"esc"}, {"n"}, {"tab", "up"}, {"n"}, {"esc"}, {"ctrl+g"}, {"esc", "ctrl+t"}, {"esc", "ctrl+o"}, {"esc", "?"}} {
				press(m, keys...)
				checkContract(t, m, strings.Join(keys, " "))
			}
		})
	}
}

// The conversation view's panes keep it too: the prompt editor, the
// transcript, the agent picker.
func TestConversationPanesKeepTheContract(t *testing.T) {
	run(t, func(t *testing.T) {
		m, f := testRun(t, 100, 30)
		events(m, f.info.ID, msgChunk("A reply with **bold** words."))
		checkContract(t, m, "prompt")
		for _, keys := range [][]string{{"ctrl+t"}, {"esc", "ctrl+l"}, {"esc"}} {
			press(m, keys...)
			checkContract(t, m, strings.Join(keys, " "))
		}
	})
}

// notPanes are the types with a View method that are no part of the
// screen the contract is about, and why.
var notPanes = map[string]string{
	"model":     "the root tea.Model: its View is bubbletea's",
	"helpBar":   "a line the program draws from the focused pane's keys: it has none of its own",
	"textField": "a free-text question's field, like field.Choice: the question panel lists its keys",
}

// Every pane and dialog keeps the contract: a type with a View method is
// asserted to be a component or a pane (var _ pane = (*T)(nil), which
// the compiler checks), unless notPanes says why not. A pane that draws
// with View(args) instead, or that nobody lists, fails here.
func TestEveryPaneKeepsTheContract(t *testing.T) {
	for _, dir := range []string{"."} {
		checkPanesListed(t, dir)
	}
}

// checkPanesListed checks the package in dir.
func checkPanesListed(t *testing.T, dir string) {
	t.Helper()
	fset := token.NewFileSet()
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	viewers := map[string]token.Position{} // types with a View method
	listed := map[string]bool{}            // types asserted to keep the contract
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		{
			for _, d := range f.Decls {
				switch d := d.(type) {
				case *ast.FuncDecl:
					if d.Recv != nil && d.Name.Name == "View" {
						viewers[receiverName(d.Recv.List[0].Type)] = fset.Position(d.Pos())
					}
				case *ast.GenDecl:
					for _, spec := range d.Specs {
						if v, ok := spec.(*ast.ValueSpec); ok && contractType(v.Type) && len(v.Values) == 1 {
							if c, ok := v.Values[0].(*ast.CallExpr); ok && len(c.Args) == 1 {
								listed[receiverName(c.Fun)] = true
							}
						}
					}
				}
			}
		}
	}
	if len(viewers) == 0 {
		t.Fatalf("%s: no type with a View method: the test reads the wrong files", dir)
	}
	for name, pos := range viewers {
		if !listed[name] && notPanes[name] == "" {
			t.Errorf("%s: %s has a View method but is not listed as a component or a pane (var _ pane = (*%s)(nil))", pos, name, name)
		}
	}
}

// contractType reports whether e names the contract: component or pane.
func contractType(e ast.Expr) bool {
	id, ok := e.(*ast.Ident)
	return ok && (id.Name == "component" || id.Name == "pane")
}

// receiverName is the type named by e: T, *T, (*T).
func receiverName(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.StarExpr:
		return receiverName(e.X)
	case *ast.ParenExpr:
		return receiverName(e.X)
	case *ast.Ident:
		return e.Name
	}
	return ""
}
