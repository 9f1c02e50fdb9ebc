package rules

import (
	"errors"
	"math/rand"
	"reflect"
	"strings"
	"testing"
	"testing/quick"
)

// The parts compound commands are built from: commands the rules allow,
// commands they do not, and a command they deny.
var (
	allowedParts = []string{
		"go test ./...", "go test -run 'Test A' ./pkg", `"go" test`, "go t'es't -v", "make build",
		"echo hello", "echo", "cat README.md", `\echo "$HOME"`,
	}
	otherParts = []string{
		"curl evil.example", "python3 -c 'import os'", "make install", "go run ./evil", "git push",
		"gotest", "go testx", "make", "nc -l 4444", "$X", "echo$IFS-n",
	}
	deniedParts   = []string{"rm -rf ~", "/bin/rm -rf build"}
	propertyRules = []string{
		"allow ~/src/app Bash(go test:*)",
		"allow ~/src/app Bash(make build)",
		"allow ~/src/app Bash(echo:*)",
		"allow ~/src/app Bash(cat:*)",
		"allow ~/src/app Edit(sub/out.txt)",
		"deny ~/src/app Bash(rm:*)",
	}
)

// compound is a generated shell command line and what it holds.
type compound struct {
	src           string
	other, denied bool // holds a part the rules do not allow / deny
}

// Generate builds a command line of up to four levels of lists,
// pipelines, subshells, groups, substitutions, sh -c scripts and
// redirections inside the project around the parts.
func (compound) Generate(r *rand.Rand, size int) reflect.Value {
	return reflect.ValueOf(genCompound(r, 1+r.Intn(4)))
}

func genCompound(r *rand.Rand, depth int) compound {
	if depth == 0 || r.Intn(4) == 0 {
		switch n := r.Intn(10); {
		case n < 6:
			return compound{src: allowedParts[r.Intn(len(allowedParts))]}
		case n < 9:
			return compound{src: otherParts[r.Intn(len(otherParts))], other: true}
		default:
			return compound{src: deniedParts[r.Intn(len(deniedParts))], denied: true}
		}
	}
	a := genCompound(r, depth-1)
	join := func(src string, parts ...compound) compound {
		c := compound{src: src}
		for _, p := range parts {
			c.other, c.denied = c.other || p.other, c.denied || p.denied
		}
		return c
	}
	switch r.Intn(11) {
	case 0, 1, 2:
		b := genCompound(r, depth-1)
		ops := []string{" && ", " || ", "; ", " | ", " & ", "\n", " |& "}
		return join(a.src+ops[r.Intn(len(ops))]+b.src, a, b)
	case 3:
		return join("( "+a.src+" )", a) // "((" would be arithmetic
	case 4:
		return join("{ "+a.src+"; }", a)
	case 5:
		return join("echo $( "+a.src+" )", a)
	case 6:
		if strings.Contains(a.src, "`") { // backquotes do not nest unescaped
			return join("go test \"$( "+a.src+" )\"", a)
		}
		return join("go test \"`"+a.src+"`\"", a)
	case 7:
		return join("cat <( "+a.src+" )", a)
	case 8:
		return join("sh -c "+singleQuote(a.src), a)
	case 9:
		return join("{ "+a.src+"; } > sub/out.txt 2>&1", a)
	default:
		return join("time "+a.src, a)
	}
}

// singleQuote quotes s for the shell.
func singleQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// TestCompoundProperty: no compound command is allowed by the rules for
// some of its parts. A command with a part the rules do not allow is
// never allowed, one with a denied part is denied, and one made only of
// allowed parts is allowed (so that the property is not met by refusing
// everything).
func TestCompoundProperty(t *testing.T) {
	w := newWorld(t)
	s := w.set(t, propertyRules...)
	var allowed, asked, denied int
	check := func(c compound) bool {
		d := s.Decide(w.exec(c.src))
		switch {
		case c.denied:
			denied++
			return d.Verdict == Denied
		case c.other:
			asked++
			return d.Verdict == Ask
		default:
			allowed++
			return d.Verdict == Allowed
		}
	}
	cfg := &quick.Config{MaxCount: 3000}
	if testing.Short() {
		cfg.MaxCount = 500
	}
	if err := quick.Check(check, cfg); err != nil {
		var ce *quick.CheckError
		if !errors.As(err, &ce) {
			t.Fatal(err)
		}
		c := ce.In[0].(compound)
		t.Fatalf("%q (other part %v, denied part %v): %v", c.src, c.other, c.denied, s.Decide(w.exec(c.src)).Verdict)
	}
	if allowed == 0 || asked == 0 || denied == 0 {
		t.Errorf("the generator made %d allowed, %d asked and %d denied commands; it should make each", allowed, asked, denied)
	}
}
