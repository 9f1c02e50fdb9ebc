package interaction_test

import (
	"context"
	"os/exec"
	"strings"
	"testing"
)

// TestImportsOnlyTheStandardLibrary keeps the interaction tree (history
// included) free of terminals, protocols and third-party code: besides
// the standard library it may import only itself and the module's
// internal packages that are themselves standard library only.
func TestImportsOnlyTheStandardLibrary(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("no go command to list the imports with: %v", err)
	}
	allowed := map[string]bool{
		"github.com/asktui/asktui/internal/sanitize": true,
		"github.com/asktui/asktui/internal/jsonl":    true,
	}
	out, err := exec.CommandContext(context.Background(), goTool, "list", "-deps", //nolint:gosec // the test runs a command of its own choosing
		"-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, pkg := range strings.Fields(string(out)) {
		if !allowed[pkg] && !strings.HasPrefix(pkg, "github.com/asktui/asktui/interaction") {
			t.Errorf("the interaction tree imports %s", pkg)
		}
	}
}
