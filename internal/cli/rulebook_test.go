package cli

import (
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

	saved, err := b.Save(p, tui.RuleChoice{Pattern: "Bash(go test:*)"})
	if err != nil || saved.Number != 1 || saved.Line != "allow ~/src/app Bash(go test:*)" {
		t.Fatalf("saved %+v, %v", saved, err)
	}
	if _, err := b.Save(p, tui.RuleChoice{Pattern: "Bash(git push:*)", Deny: true}); err != nil {
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
