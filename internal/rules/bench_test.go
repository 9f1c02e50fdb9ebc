package rules

import (
	"strings"
	"testing"
)

// The matcher runs while an agent waits for its permission: these
// measure a typical command and a long compound one against the rules of
// the command table, and the whole decision of a Store (a stat of the
// rules file and its directory included).

func BenchmarkDecideTypical(b *testing.B) {
	w := newWorld(b)
	s := w.set(b, commandRules...)
	p := w.exec("go test -race ./... 2>&1 | tee sub/test.log")
	if s.Decide(p).Verdict != Ask { // tee is not allowed
		b.Fatal("unexpected verdict")
	}
	p = w.exec("go test -race ./...")
	b.ReportAllocs()
	for b.Loop() {
		if s.Decide(p).Verdict != Allowed {
			b.Fatal("not allowed")
		}
	}
}

func BenchmarkDecideLongCompound(b *testing.B) {
	w := newWorld(b)
	s := w.set(b, append(commandRules, "allow ~/src/app Edit(sub/**)")...)
	var parts []string
	for i := range 50 {
		parts = append(parts, []string{
			"go test -run 'Test" + strings.Repeat("x", i) + "' ./...",
			"(cd sub && go vet ./...)",
			"echo $(git status) | cat > sub/out.txt",
			"sh -c 'ls -la sub'",
		}[i%4])
	}
	p := w.exec(strings.Join(parts, " && "))
	b.ReportAllocs()
	b.SetBytes(int64(len(p.Command)))
	for b.Loop() {
		if s.Decide(p).Verdict != Allowed {
			b.Fatal("not allowed")
		}
	}
}

func BenchmarkStoreDecide(b *testing.B) {
	w := newWorld(b)
	s := Open(w.home+"/.config/asktui/rules.conf", "", w.home)
	for _, l := range commandRules {
		r, err := ParseRule(l)
		if err != nil {
			b.Fatal(err)
		}
		if _, _, err := s.Add(r); err != nil {
			b.Fatal(err)
		}
	}
	p := w.exec("go test -race ./...")
	b.ReportAllocs()
	for b.Loop() {
		if d, err := s.Decide(p); err != nil || d.Verdict != Allowed {
			b.Fatal(d, err)
		}
	}
}
