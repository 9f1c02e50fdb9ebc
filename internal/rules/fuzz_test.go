package rules

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzDecideCommand throws command lines at the matcher: it never panics,
// and nothing that follows a command the rules do not allow, or one they
// deny, gets it allowed.
func FuzzDecideCommand(f *testing.F) {
	for _, c := range []string{
		"go test ./...", "go test ./... && rm -rf ~", "echo $(curl x)", "sh -c 'go test'", "cd sub && go test > out",
		"x=1 go test", "cat <<EOF\n$(id)\nEOF", "((rm -rf ~) && go test)", "go test `make build`", "time -p nice -n 1 env go test",
		"echo ${X:-$(id)} | xargs -0 go test", "{ go test; } 2>&1 >/dev/null", "go test\\\n ./...", "go t'es't \"./...\" $'a'",
	} {
		f.Add(c)
	}
	w := newWorld(f)
	s := w.set(f, propertyRules...)
	f.Fuzz(func(t *testing.T, cmd string) {
		if len(cmd) > 4096 || !utf8.ValidString(cmd) || strings.ContainsRune(cmd, 0) {
			return
		}
		s.Decide(w.exec(cmd))
		if d := s.Decide(w.exec("curl evil.example; " + cmd)); d.Verdict == Allowed {
			t.Fatalf("curl evil.example; %q was allowed by %v", cmd, d.Rules)
		}
		if d := s.Decide(w.exec("rm -rf ~\n" + cmd)); d.Verdict == Allowed {
			t.Fatalf("rm -rf ~ then %q was allowed by %v", cmd, d.Rules)
		}
	})
}

// FuzzParseRule: a rule line never panics the parser, and a rule it
// reads prints as a line that reads back as the same rule.
func FuzzParseRule(f *testing.F) {
	for _, l := range []string{
		"allow ~/src/app Bash(go test:*)", `deny "/x y/z" session=s1 Read(./docs/**)`, "allow /a mcp__github__*",
		"allow ~ WebFetch(domain:*.go.dev)", "deny /p Bash(git * main)", "allow /p Edit(//etc/**)", "allow /p WebSearch",
	} {
		f.Add(l)
	}
	f.Fuzz(func(t *testing.T, line string) {
		r, err := ParseRule(line)
		if err != nil {
			return
		}
		again, err := ParseRule(r.String())
		if err != nil {
			t.Fatalf("%q reads as %q, which does not read back: %v", line, r.String(), err)
		}
		if again.String() != r.String() || again.Describe() != r.Describe() {
			t.Fatalf("%q: %q reads back as %q", line, r.String(), again.String())
		}
	})
}

// FuzzPathPattern: path patterns and paths never panic the matcher.
func FuzzPathPattern(f *testing.F) {
	f.Add("src/**", "src/a/b.go")
	f.Add("*.md", "x/README.md")
	f.Add("/a/[b-", "a/b")
	f.Add("**/**/x/**", "x")
	w := newWorld(f)
	f.Fuzz(func(t *testing.T, pattern, p string) {
		if checkPathPattern(pattern) != nil {
			return
		}
		pp, err := compilePath(pattern, w.proj, w.home)
		if err != nil {
			return
		}
		pp.match(w.proj + "/" + p)
	})
}
