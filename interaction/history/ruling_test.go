package history

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/interaction/inbox"
)

// ruler answers every request by rule 3.
type ruler struct{ ans interaction.Answer }

func (r ruler) Ask(ctx context.Context, req interaction.Request) (interaction.Answer, error) {
	s, _ := r.AskRuled(ctx, req)
	return s.Answer, s.Err
}

func (r ruler) AskRuled(ctx context.Context, req interaction.Request) (inbox.Settlement, *Ruling) {
	return inbox.Settlement{Answer: r.ans}, &Ruling{Number: 3, Rule: "allow ~/src/app Bash(go test:*)"}
}

// TestRecordsTheRuleAndThePermission: a request a rule answered is
// recorded with the rule, and a permission request with its permission,
// which the request's own JSON leaves out.
func TestRecordsTheRuleAndThePermission(t *testing.T) {
	path := filepath.Join(t.TempDir(), "history.jsonl")
	l, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	perm := &interaction.Permission{Client: interaction.ClientCodex, Tool: "Bash", Kind: interaction.KindExecute,
		Command: "go test ./...", Cwd: "/home/me/src/app", Question: "permission", Allow: "Allow once"}
	req := interaction.Request{
		Questions:  []interaction.Question{{ID: "permission", Question: "Allow Codex to use Bash?", Options: []interaction.Option{{Label: "Allow once"}, {Label: "Deny"}}}},
		Permission: perm,
	}
	ans := interaction.Answer{Answers: []interaction.AnswerItem{{ID: "permission", Selected: []string{"Allow once"}}}}
	got, err := Wrap(ruler{ans}, l, nil, nil).Ask(context.Background(), req)
	if err != nil || !reflect.DeepEqual(got, ans) {
		t.Fatalf("Ask = %+v, %v", got, err)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	recs, _, err := ReadFile(path, 0)
	if err != nil || len(recs) != 1 {
		t.Fatalf("%d records, %v", len(recs), err)
	}
	rec := recs[0]
	if rec.Outcome != interaction.OutcomeAnswered {
		t.Errorf("outcome %q", rec.Outcome)
	}
	if rec.Rule == nil || rec.Rule.Number != 3 || rec.Rule.Rule != "allow ~/src/app Bash(go test:*)" {
		t.Errorf("rule %+v", rec.Rule)
	}
	if !reflect.DeepEqual(rec.Permission, perm) {
		t.Errorf("permission %+v, want %+v", rec.Permission, perm)
	}
	var b bytes.Buffer
	if err := format(&b, recs, time.UTC); err != nil {
		t.Fatal(err)
	}
	// The call, the answer, and that a rule gave it, which one (issue 35:
	// "Bash: Allow once" named neither the command nor who answered).
	if !strings.Contains(b.String(), "  Bash: go test ./...\n  answer: Allow once\n  answered by rule 3: allow ~/src/app Bash(go test:*)\n") {
		t.Errorf("Format does not show the call and the rule:\n%s", b.String())
	}
}

// TestOldRecordsHaveNoRule: records written before rules decode as
// before, without a rule or a permission.
func TestOldRecordsHaveNoRule(t *testing.T) {
	path := filepath.Join(t.TempDir(), "history.jsonl")
	const old = `{"time":"2026-01-02T03:04:05Z","outcome":"answered","waited":"1s","answer":{"answers":[{"id":"q","selected":["Yes"]}]},"request":{"questions":[{"id":"q","question":"Deploy?"}]}}` + "\n"
	if err := os.WriteFile(path, []byte(old), 0o600); err != nil {
		t.Fatal(err)
	}
	recs, skipped, err := ReadFile(path, 0)
	if err != nil || skipped != 0 || len(recs) != 1 {
		t.Fatalf("%d records, %d skipped, %v", len(recs), skipped, err)
	}
	if recs[0].Rule != nil || recs[0].Permission != nil {
		t.Errorf("an old record has a rule or a permission: %+v", recs[0])
	}
}
