package tui_test

import (
	"context"
	"os/exec"
	"strings"
	"testing"
)

// TestImportsNoProtocols keeps what a program importing tui links to the
// terminal UI (the README gives its size): tui depends inward only, on
// interaction and styles, never on asktui's protocol adapters, command
// line or SSH server, nor on the libraries those bring.
func TestImportsNoProtocols(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("no go command to list the imports with: %v", err)
	}
	out, err := exec.CommandContext(context.Background(), goTool, "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", ".").Output() //nolint:gosec // the test runs a command of its own choosing
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	forbidden := []string{
		"github.com/asktui/asktui/agent/",
		"github.com/asktui/asktui/internal/cli",
		"github.com/asktui/asktui/internal/sshserve",
		"github.com/modelcontextprotocol/",
		"github.com/coder/acp-go-sdk",
		"charm.land/wish/",
		"charm.land/ssh",
		"charm.land/fang/",
		"github.com/spf13/cobra",
		"golang.org/x/crypto/",
	}
	for _, pkg := range strings.Fields(string(out)) {
		for _, f := range forbidden {
			if strings.HasPrefix(pkg, f) {
				t.Errorf("tui imports %s", pkg)
			}
		}
	}
}
