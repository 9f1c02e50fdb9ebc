package rules

import (
	"path/filepath"
	"reflect"
	"testing"

	"github.com/asktui/asktui/interaction"
)

// TestSuggest: the rules offered for a call, narrowest first; each,
// saved for the call's project or session, answers the call.
func TestSuggest(t *testing.T) {
	w := newWorld(t)
	base := interaction.Permission{Client: interaction.ClientClaude, Cwd: w.proj, Session: "claude-code:s1",
		Question: "permission", Allow: "Allow once"}
	with := func(edit func(p *interaction.Permission)) *interaction.Permission {
		p := base
		edit(&p)
		return &p
	}
	cmd := func(c string) *interaction.Permission {
		return with(func(p *interaction.Permission) { p.Kind, p.Tool, p.Command = interaction.KindExecute, "Bash", c })
	}
	paths := func(kind interaction.PermissionKind, ps ...string) *interaction.Permission {
		return with(func(p *interaction.Permission) { p.Kind, p.Paths = kind, ps })
	}
	cases := []struct {
		p    *interaction.Permission
		want []string
	}{
		{cmd("go test ./..."), []string{"Bash(go test ./...)", "Bash(go test:*)"}},
		{cmd("ls -la"), []string{"Bash(ls -la)", "Bash(ls:*)"}},
		{cmd("npm run build"), []string{"Bash(npm run build)", "Bash(npm run:*)"}},
		{cmd("make"), []string{"Bash(make)", "Bash(make:*)"}},
		{cmd("./run.sh x"), []string{"Bash(./run.sh x)", "Bash(./run.sh:*)"}},
		{cmd("git commit -m 'a message'"), nil},
		{cmd("go test ./... && go vet ./..."), nil},
		{cmd("go test > out.txt"), nil},
		{cmd("go test $(x)"), nil},
		{cmd("sudo make"), nil},
		{paths(interaction.KindEdit, "src/a.go"), []string{"Edit(/src/a.go)", "Edit(/src/**)"}},
		{paths(interaction.KindEdit, "src/x/a.go", filepath.Join(w.proj, "src/y/b.go")), []string{"Edit(/src/**)"}},
		{paths(interaction.KindRead, "README.md"), []string{"Read(/README.md)", "Read"}},
		{paths(interaction.KindEdit, "src/[x]*.go"), []string{`Edit(/src/\[x]\*.go)`, "Edit(/src/**)"}},
		{paths(interaction.KindEdit, "../other/a.go"), nil},
		{paths(interaction.KindEdit, "link/a.go"), nil},
		{paths(interaction.KindEdit), nil},
		{with(func(p *interaction.Permission) { p.Kind, p.URL = interaction.KindFetch, "https://Go.Dev/doc" }), []string{"WebFetch(domain:go.dev)"}},
		{with(func(p *interaction.Permission) { p.Kind, p.URL = interaction.KindFetch, "file:///etc/passwd" }), nil},
		{with(func(p *interaction.Permission) {
			p.Kind, p.MCPServer, p.MCPTool = interaction.KindMCP, "github", "create_issue"
		}), []string{"mcp__github__create_issue", "mcp__github"}},
		{with(func(p *interaction.Permission) { p.Kind, p.Tool = interaction.KindOther, "WebSearch" }), []string{"WebSearch"}},
		{with(func(p *interaction.Permission) { p.Kind, p.Tool = interaction.KindOther, "run_shell_command" }), nil},
	}
	for _, c := range cases {
		var got []string
		for _, s := range Suggest(c.p) {
			got = append(got, s.String())
			for _, session := range []bool{false, true} {
				r, err := RuleFor(c.p, Allow, s, session, w.home)
				if err != nil {
					t.Fatalf("%s: RuleFor: %v", s, err)
				}
				set := w.set(t, r.String())
				if d := set.Decide(c.p); d.Verdict != Allowed {
					t.Errorf("%q saved as %q does not allow the call it was suggested for", s, r.String())
				}
			}
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%+v: suggested %q, want %q", c.p, got, c.want)
		}
	}
	r, err := RuleFor(cmd("go test"), Allow, Suggest(cmd("go test"))[1], false, w.home)
	if err != nil || r.String() != "allow ~/src/app Bash(go test:*)" {
		t.Errorf("RuleFor = %q, %v", r.String(), err)
	}
	if r, _ = RuleFor(cmd("go test"), Allow, r.Spec, true, w.home); r.Session != "claude-code:s1" {
		t.Errorf("a session rule for session %q", r.Session)
	}
}
