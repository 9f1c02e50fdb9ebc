package app

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/asktui/asktui/interaction"
)

// TestGoldenHostilePermissions draws the permission requests that hostile
// tool calls become, from each hook (agent/hook's TestHostilePermissions)
// and from asktui run (agent/acp's TestHostilePermissionRequest): names,
// commands, paths and arguments are on screen exactly, what would act on
// the terminal or not show made visible, and what the screen takes out of
// prose leaves a mark (␛) instead of joining the text up.
func TestGoldenHostilePermissions(t *testing.T) {
	var files []string
	for _, dir := range []string{"../../../agent/hook/testdata/TestHostilePermissions", "../../../agent/acp/testdata/TestHostilePermissionRequest"} {
		found, err := filepath.Glob(filepath.Join(dir, "*.golden"))
		if err != nil || len(found) == 0 {
			t.Fatalf("no requests in %s: %v", dir, err)
		}
		files = append(files, found...)
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".golden")
		t.Run(name, func(t *testing.T) {
			b, err := os.ReadFile(f) //nolint:gosec // another package's testdata
			if err != nil {
				t.Fatal(err)
			}
			var req interaction.Request
			if err := json.Unmarshal(b, &req); err != nil {
				t.Fatal(err)
			}
			run(t, func(t *testing.T) {
				m := testModel(t, 100, 30)
				ask(t, m, req)
				glance(m)
				s := screen(m)
				mustFit(t, s, 100, 30)
				raw := m.render()
				for _, bad := range []string{"\x1b]", "\x1b[2K", "\x1b[8m", "\u009b", "\u202e", "\u200b", "\x07", "\x00", "\r"} {
					if strings.Contains(ansiFree(raw), bad) {
						t.Errorf("the screen holds %q", bad)
					}
				}
				golden.RequireEqual(t, s)
			})
		})
	}
}

// ansiFree is s without the screen's own styling sequences (SGR), which
// the renderer writes; what is left must hold none of the agent's.
func ansiFree(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == 0x1b && i+1 < len(s) && s[i+1] == '[' {
			j := i + 2
			for j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] == ';' || s[j] == ':') {
				j++
			}
			if j < len(s) && s[j] == 'm' {
				i = j
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
