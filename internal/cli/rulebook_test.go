package cli

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/internal/rules"
	"github.com/asktui/asktui/tui"
)

// TestRulebook: the screen's rules are the store's: what it plans,
// describes and saves is what rules.RuleFor makes, and its list, removal
// and replacement are the file's.
func TestRulebook(t *testing.T) {
	if screenRules(nil) != nil {
		t.Fatal("no store gave a non-nil tui.Rules")
	}
	home, _ := rulesEnv(t)
	app := filepath.Join(home, "src", "app")
	store := rules.Open(filepath.Join(home, ".config", "asktui", "rules.conf"), filepath.Join(home, "hits.json"), home)
	b := screenRules(store)
	p := &interaction.Permission{Client: interaction.ClientClaude, Tool: "Bash", Kind: interaction.KindExecute, Command: "go test ./...",
		Cwd: app, Session: "claude-code:s1", Question: "permission", Allow: "Allow once", Deny: "Deny"}

	plan, err := b.Plan(p)
	if err != nil {
		t.Fatal(err)
	}
	want := []tui.RuleText{{Line: "Bash(go test ./...)", Words: "exactly `go test ./...`"}, {Line: "Bash(go test:*)", Words: "`go test` with any arguments"}}
	if plan.Dir != "~/src/app" || plan.Session != "claude-code:s1" || !slices.Equal(plan.Suggestions, want) {
		t.Fatalf("plan %+v", plan)
	}
	if _, err := b.Describe(plan, tui.RuleChoice{Pattern: "Bash(go test:*"}); interaction.CodeOf(err) != interaction.CodeInvalidRule {
		t.Fatalf("a pattern that is not a rule: %v", err)
	}
	d, err := b.Describe(plan, tui.RuleChoice{Pattern: "Bash(go test:*)", Session: true, Deny: true})
	if err != nil || d.Line != "deny ~/src/app session=claude-code:s1 Bash(go test:*)" ||
		d.Words != "deny `go test` with any arguments, from session claude-code:s1 only, in ~/src/app" {
		t.Fatalf("described %+v, %v", d, err)
	}

	saved, added, err := b.Save(p, tui.RuleChoice{Pattern: "Bash(go test:*)"})
	if err != nil || !added || saved.Number != 1 || saved.Line != "allow ~/src/app Bash(go test:*)" {
		t.Fatalf("saved %+v (added %v), %v", saved, added, err)
	}
	if again, added, err := b.Save(p, tui.RuleChoice{Pattern: "Bash(go test:*)"}); err != nil || added || again.Number != 1 {
		t.Fatalf("saved again %+v (added %v), %v; want rule 1, already there", again, added, err)
	}
	if _, _, err := b.Save(p, tui.RuleChoice{Pattern: "Bash(git push:*)", Deny: true}); err != nil {
		t.Fatal(err)
	}
	dec, err := store.Decide(p)
	if err != nil || dec.Verdict != rules.Allowed {
		t.Fatalf("the saved rule does not allow: %+v, %v", dec, err)
	}
	if err := store.Hit(dec); err != nil {
		t.Fatal(err)
	}
	list, err := b.List()
	if err != nil || len(list.Rules) != 2 || list.Rules[0].Hits != 1 || list.Rules[1].Line != "deny ~/src/app Bash(git push:*)" || list.Path != store.Path() {
		t.Fatalf("list %+v, %v", list, err)
	}

	if _, err := b.Check("allow ~/src/app Bash("); interaction.CodeOf(err) != interaction.CodeInvalidRule {
		t.Fatalf("check of a bad line: %v", err)
	}
	if err := b.Remove(1, "allow ~/src/app Bash(go vet:*)"); err == nil {
		t.Fatal("removed a rule that is not the one listed")
	}
	if _, err := b.Replace(1, "allow ~/src/app Bash(go test:*)", "allow ~/src/app Bash(go test"); err == nil {
		t.Fatal("replaced a rule with a line that is not one")
	}
	got, err := b.Replace(1, "allow ~/src/app Bash(go test:*)", "allow ~/src/app Bash(go vet:*)")
	if err != nil || got.Number != 1 || got.Line != "allow ~/src/app Bash(go vet:*)" {
		t.Fatalf("replaced: %+v, %v (an edited rule keeps its place)", got, err)
	}
	if _, err := b.Replace(1, "allow ~/src/app Bash(go vet:*)", "deny ~/src/app Bash(git push:*)"); err == nil {
		t.Fatal("replaced a rule with another rule of the file")
	}
	if err := b.Remove(2, "deny ~/src/app Bash(git push:*)"); err != nil {
		t.Fatal(err)
	}
	list, err = b.List()
	if err != nil || len(list.Rules) != 1 || list.Rules[0].Line != "allow ~/src/app Bash(go vet:*)" {
		t.Fatalf("after replace and remove: %+v, %v", list, err)
	}
}

// TestRulebookCover: whether a rule covers the call on screen is decided
// by the rules' own matcher, with the rules already in the file: a rule
// that allows a part of a compound command leaves the rest (and names
// it), a deny rule already there wins over a new allow, and a rule
// already there is named, not added.
func TestRulebookCover(t *testing.T) {
	home, _ := rulesEnv(t)
	app := filepath.Join(home, "src", "app")
	store := rules.Open(filepath.Join(home, ".config", "asktui", "rules.conf"), filepath.Join(home, "hits.json"), home)
	b := screenRules(store)
	perm := func(command string) *interaction.Permission {
		return &interaction.Permission{Client: interaction.ClientClaude, Tool: "Bash", Kind: interaction.KindExecute, Command: command,
			Cwd: app, Session: "claude-code:s1", Question: "permission", Allow: "Allow once", Deny: "Deny"}
	}
	goTest := tui.RuleChoice{Pattern: "Bash(go test:*)"}
	if _, _, err := b.Save(perm("go test ./..."), goTest); err != nil {
		t.Fatal(err)
	}
	cover := func(t *testing.T, p *interaction.Permission, c tui.RuleChoice) tui.RuleCover {
		t.Helper()
		cov, err := b.Cover(p, c)
		if err != nil {
			t.Fatal(err)
		}
		return cov
	}

	// The case: the rule is there, and covers only the first
	// command of the line.
	cov := cover(t, perm("go test ./... && rm -rf /tmp/x"), goTest)
	if cov.Covers || cov.Same != 1 || !slices.Equal(cov.Left, []string{"rm -rf /tmp/x"}) {
		t.Fatalf("go test && rm under Bash(go test:*): %+v, want not covered, rule 1 already there, rm left", cov)
	}
	// A cd needs no rule, and is not named; ; and | split too.
	cov = cover(t, perm("cd pay; go test ./... | tee out.txt"), goTest)
	if cov.Covers || !slices.Equal(cov.Left, []string{"tee out.txt"}) {
		t.Fatalf("cd; go test | tee: %+v", cov)
	}
	// With a rule for the rest, the two together cover it.
	if cov := cover(t, perm("go test ./... && rm -rf /tmp/x"), tui.RuleChoice{Pattern: "Bash(rm -rf /tmp/x)"}); !cov.Covers || cov.Same != 0 {
		t.Fatalf("go test && rm under both rules: %+v, want covered by a new rule", cov)
	}
	if cov := cover(t, perm("go test -run X ./pay"), goTest); !cov.Covers || cov.Same != 1 {
		t.Fatalf("go test -run: %+v", cov)
	}
	// Nothing of the call is allowed: nothing is named.
	if cov := cover(t, perm("make && make install"), goTest); cov.Covers || cov.Left != nil {
		t.Fatalf("make && make install: %+v", cov)
	}
	// A deny rule already there wins over the allow rule typed.
	if _, _, err := b.Save(perm("rm x"), tui.RuleChoice{Pattern: "Bash(rm:*)", Deny: true}); err != nil {
		t.Fatal(err)
	}
	cov = cover(t, perm("go test ./... && rm -rf /tmp/x"), tui.RuleChoice{Pattern: "Bash(rm -rf /tmp/x)"})
	if cov.Covers || cov.Against.Number != 2 || cov.Against.Line != "deny ~/src/app Bash(rm:*)" {
		t.Fatalf("an allow against a deny rule: %+v", cov)
	}
	// A deny rule covers the call when it matches a part of it, and not
	// when it matches none.
	if cov := cover(t, perm("go vet && git push"), tui.RuleChoice{Pattern: "Bash(git push:*)", Deny: true}); !cov.Covers {
		t.Fatalf("deny git push for go vet && git push: %+v", cov)
	}
	if cov := cover(t, perm("go vet"), tui.RuleChoice{Pattern: "Bash(git push:*)", Deny: true}); cov.Covers {
		t.Fatalf("deny git push for go vet: %+v", cov)
	}
	// Files: each one decided alone.
	edit := &interaction.Permission{Client: interaction.ClientClaude, Tool: "Edit", Kind: interaction.KindEdit, Paths: []string{"src/a.go", "README.md"},
		Cwd: app, Question: "permission", Allow: "Allow once", Deny: "Deny"}
	if cov := cover(t, edit, tui.RuleChoice{Pattern: "Edit(src/**)"}); cov.Covers || !slices.Equal(cov.Left, []string{"README.md"}) {
		t.Fatalf("Edit(src/**) for src/a.go and README.md: %+v", cov)
	}
	// A rule for this session only is the asking session's.
	if cov := cover(t, perm("go vet ./..."), tui.RuleChoice{Pattern: "Bash(go vet:*)", Session: true}); !cov.Covers {
		t.Fatalf("a session rule for its own session's call: %+v", cov)
	}
	// Nothing was written by asking.
	if list, err := b.List(); err != nil || len(list.Rules) != 2 {
		t.Fatalf("Cover changed the file: %+v, %v", list, err)
	}
	// A pattern that is not a rule, or an unusable file, is an error.
	if _, err := b.Cover(perm("go vet"), tui.RuleChoice{Pattern: "Bash(go vet"}); interaction.CodeOf(err) != interaction.CodeInvalidRule {
		t.Fatalf("a pattern that is not a rule: %v", err)
	}
	if err := os.WriteFile(store.Path(), []byte("allow nowhere\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Cover(perm("go vet"), goTest); interaction.CodeOf(err) != interaction.CodeInvalidRule {
		t.Fatalf("an invalid rules file: %v", err)
	}
}
