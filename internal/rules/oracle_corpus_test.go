//go:build linux

package rules

import (
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"math/rand"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"
)

// oracleAttacks are the bypasses an attacker found in the matcher: each
// runs something no rule names.
var oracleAttacks = []string{
	// A wrapper with nothing after it is a command of its own.
	"go test; env", "go test; nohup", "go test; command", "go test; exec",
	// Commands read from standard input.
	`go test; xargs env <<< "touch pwn"`, "git status; xargs nohup < docs/payload", "xargs -r env < docs/payload",
	// Prompt expansion runs command substitutions.
	"go test '$(touch pwn)'; go test ${_@P}", `go test "${x@P}"`,
	// Arithmetic inside a parameter expansion.
	"go test ${X:-$((Y))}",
	// A redirection writes a file no Edit rule covers.
	"go test ./... > .git/hooks/pre-commit",
	// A control character in an argument.
	"go test ./...\x1b[2K",
	// Where the parser and bash disagree, found by running them: a
	// carriage return is a blank to one and part of a word to the
	// other; a comment ending in a backslash goes on to the next line
	// for one only; a here-document's continued lines end it in
	// different places.
	"echo x\r#; touch pwn", "echo x # \\\ntouch pwn", "echo $(echo x # \\\ntouch pwn\n)",
	"cat <<EOF\n\\\nEOF\ntouch pwn\nEOF", "cat <<E'O'F\n\\\nEOF\ntouch pwn\nEOF",
	"cat <<EOF\n\\\n\\\nEOF\ntouch pwn\nEOF", "cat <<EOF\nEO\\\nF\ntouch pwn\nEOF", "cat <<EOF\n$x\\\nEOF\ntouch pwn\nEOF",
	// Escapes of $'…' that make a control character.
	"go test $'\\e[2K'", "echo $'\\e]0;title\\a'",
}

// oracleCase is a command of the corpus, and where it comes from.
type oracleCase struct {
	cmd, from string
}

// oracleCorpus returns every command the oracle tries, each once: the
// command table's, the property test's parts and a fixed sample of its
// compounds, the attacks, and the generated ones.
func oracleCorpus(t testing.TB) []oracleCase {
	var out []oracleCase
	seen := map[string]bool{}
	add := func(from string, cmds ...string) {
		for _, c := range cmds {
			if !seen[c] {
				seen[c] = true
				out = append(out, oracleCase{c, from})
			}
		}
	}
	add("TestCommands", commandTable(t)...)
	add("property parts", slices.Concat(allowedParts, otherParts, deniedParts)...)
	r := rand.New(rand.NewSource(1)) //nolint:gosec // a fixed sample: genCompound takes a math/rand source
	for range 100 {
		add("property compounds", genCompound(r, 1+r.Intn(4)).src)
	}
	add("attacks", oracleAttacks...)
	add("wrappers", oracleWrapperRows()...)
	add("expansions", oracleExpansionRows()...)
	add("xargs", oracleXargsRows()...)
	add("redirections", oracleRedirectRows()...)
	return out
}

// commandTable returns the commands of TestCommands' table, read from
// decide_test.go's source: the oracle runs every row the table has,
// without a second copy of it.
func commandTable(t testing.TB) []string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "decide_test.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var cmds []string
	for _, d := range f.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || fn.Name.Name != "TestCommands" {
			continue
		}
		ast.Inspect(fn.Body, func(n ast.Node) bool {
			row, ok := n.(*ast.CompositeLit)
			if !ok || len(row.Elts) != 2 {
				return true
			}
			if lit, ok := row.Elts[0].(*ast.BasicLit); ok && lit.Kind == token.STRING {
				if s, err := strconv.Unquote(lit.Value); err == nil {
					cmds = append(cmds, s)
				}
			}
			return true
		})
	}
	if len(cmds) < 50 {
		t.Fatalf("found %d commands in TestCommands' table in decide_test.go; has it moved?", len(cmds))
	}
	return cmds
}

// oracleWrapperRows wraps allowed commands in each wrapper, with none,
// one or two of its options, with nothing after it, after an allowed
// command, nested two deep, and under shells.
func oracleWrapperRows() []string {
	var rows []string
	bases := []string{"go test ./...", "git status", "echo hi"}
	wrappers := []struct {
		name string
		opts []string
	}{
		{"env", []string{"", "--", "-i", "-u X", "FOO=1", "-S 'touch pwn'", "-C sub", "-0"}},
		{"nohup", []string{"", "--"}},
		{"exec", []string{"", "--", "-a x", "-c"}},
		{"command", []string{"", "--", "-p", "-v"}},
		{"time", []string{"", "-p", "-o docs/t.txt"}},
		{"nice", []string{"", "-n 5", "-5", "--adjustment=5", "-n"}},
		{"timeout", []string{"60", "-k 5 60", "--foreground 60", "-s KILL 5", "--signal=KILL 5", ""}},
		{"xargs", []string{"", "-0", "-r", "-t", "-I{}", "-n 1", "-a docs/payload"}},
		{"stdbuf", []string{"", "-oL", "-o L", "-i0 -e0"}},
		{"setsid", []string{"", "-f", "-w"}},
		{"sudo", []string{""}}, {"ionice", []string{"", "-c3"}}, {"taskset", []string{"1"}}, {"flock", []string{"x"}},
		{"chroot", []string{"."}}, {"builtin", []string{""}}, {"eval", []string{""}}, {"source", []string{""}},
	}
	for _, w := range wrappers {
		for _, opt := range w.opts {
			pre := strings.TrimSpace(w.name + " " + opt)
			for i, b := range bases {
				if opt == "" || i == 0 {
					rows = append(rows, pre+" "+b)
				}
			}
			rows = append(rows, pre, "go test; "+pre, pre+"; go test")
		}
	}
	simple := []string{"env", "nohup", "exec", "command", "time", "nice", "timeout 5", "xargs", "stdbuf -oL", "setsid", "sh -c"}
	for _, a := range simple {
		for _, b := range []string{"env", "xargs", "sh -c"} {
			inner := "go test"
			if b == "sh -c" {
				inner = "'go test'"
			}
			rows = append(rows, a+" "+b+" "+inner)
		}
		rows = append(rows, "go test; "+a+" env")
	}
	for _, sh := range []string{"sh", "bash", "dash"} {
		for _, opt := range []string{"-c", "-ec", "-e -c", "-xc", "-lc", "-ic", "-o posix -c", "+e -c"} {
			rows = append(rows, sh+" "+opt+" 'go test ./...'", "go test; "+sh+" "+opt)
		}
		rows = append(rows, sh, "go test; "+sh, "echo go test | "+sh, sh+" < docs/payload", sh+" docs/payload",
			sh+" -s < docs/payload", sh+" -c 'go test' x '$(touch pwn)'")
	}
	// What the script of a shell runs is a command line of its own.
	for _, script := range []string{"go test; env", `go test "${x@P}"`, "echo hi | xargs env", "go test > new.txt", "xargs nohup"} {
		rows = append(rows, "sh -c "+singleQuote(script), "go test | bash -ec "+singleQuote(script))
	}
	return rows
}

// oracleExpansionRows puts each parameter expansion operator, on a
// hostile variable (x) and an empty one (X), in an argument; those that
// evaluate a value as code, or hold a word that can, also in quotes, a
// here-string and a here-document.
func oracleExpansionRows() []string {
	plain := []string{
		"${V:-w}", "${V:=w}", "${V:?w}", "${V:+w}", "${V#p}", "${V##p}", "${V%p}", "${V%%p}", "${V/a/b}", "${V//a/b}",
		"${V^}", "${V^^}", "${V,}", "${V,,}", "${V@Q}", "${V@E}", "${V@A}", "${V@a}", "${V@U}", "${V@u}", "${V@L}",
		"${#V}", "${!V*}", "${!V@}", "${V[@]}", "${V:1:2}", "${V: -1}", "$V", "${V}",
	}
	code := []string{
		"${V@P}", "${!V}", "${V[i]}", "${V:N}", "$((V))", "$[V]", "${V:-$((Y))}", "${V:-${x@P}}", "${V/a/${x@P}}",
		`${V:-"${x@P}"}`, "${V:-$(echo ./...)}", "${V:-`echo ./...`}", "${V[$(echo 0)]}", "${V:-${X:-${Z@P}}}",
		"${V#${x@P}}", "${V:${N}}",
	}
	var rows []string
	for _, op := range slices.Concat(plain, code) {
		rows = append(rows, "go test "+strings.ReplaceAll(op, "V", "x"), "go test "+strings.ReplaceAll(op, "V", "X"))
	}
	for _, op := range code {
		e := strings.ReplaceAll(op, "V", "x")
		rows = append(rows, `go test "`+e+`"`, "go test <<< "+e, "cat <<EOF\n"+e+"\nEOF")
	}
	// Words that hold a control character, however it is written.
	return append(rows, "go test ./...\r", "go test $'\\e[2K'", "go test \"\x1b[2K\"", "go test ./...\u202e", "go test $'\\x1f'x",
		"go test a\x1fb", "echo $'\\e]0;title\\a'")
}

// oracleXargsRows feeds xargs commands to run from a pipe, a file and a
// here-string, with and without options.
func oracleXargsRows() []string {
	cmds := []string{"go test", "env", "nohup", "sh -c 'go test'", "bash", "sh", "git status", "echo", "time", "nice",
		"timeout 5", "command", "exec", "env go test", "nohup go test", "xargs go test", "setsid", "stdbuf -oL", ""}
	var rows []string
	for _, c := range cmds {
		x := strings.TrimSpace("xargs " + c)
		rows = append(rows, "echo ./... | "+x, x+" < docs/payload", x+` <<< "touch pwn"`,
			"go test; "+strings.Replace(x, "xargs", "xargs -r", 1)+" < docs/payload")
	}
	return rows
}

// oracleRedirectRows redirects allowed commands to and from files into
// the project, docs/ and sub/ (which Edit rules cover), .git/, a link
// out, the home directory, out of the project, and /dev/null: every
// operator to a file of each kind, the others with > and <.
func oracleRedirectRows() []string {
	ops := []string{">", ">>", "&>", "&>>", ">|", "<>", ">&", "2>", "2>>", "<", "1>", "3>"}
	each := []string{"docs/out.txt", "new.txt", ".git/hooks/pre-commit"}
	targets := []string{"sub/out.txt", "docs/payload", ".git/config", "/dev/null", "README.md", "out.txt", "link/x", "../x",
		"../../../outside/x", "/tmp/oracle-x", "~/x", "$HOME/x", "sub/../docs/y", "sub", "/dev/stderr"}
	var rows []string
	for _, tg := range each {
		for _, op := range ops {
			rows = append(rows, "go test ./... "+op+tg)
		}
	}
	for _, tg := range slices.Concat(each, targets) {
		rows = append(rows, "go test ./... > "+tg, "go test ./... <"+tg, "echo hi >> "+tg, "{ go test; } 2>&1 > "+tg)
	}
	return rows
}

// TestOracle runs every command of the corpus that the rules allow, and
// checks with the oracle that it runs nothing and changes nothing the
// rules do not allow. The commands the current matcher is known to let
// through are listed in knownBypasses; one of them that is no longer
// allowed, or no longer caught, is an error too, so that the list stays
// true.
func TestOracle(t *testing.T) {
	oracleOnTmpfs(t)
	needOracle(t)
	start := time.Now()
	corpus := oracleCorpus(t)
	type job struct {
		c   oracleCase
		w   world
		s   *Set
		cmd string
	}
	var jobs []job
	w0 := newWorld(t)
	s0 := w0.set(t, oracleRules...)
	for _, c := range corpus {
		if s0.Decide(w0.exec(oracleLocal(c.cmd, w0))).Verdict != Allowed {
			continue
		}
		w := newWorld(t) // a world of its own: nothing one command writes meets another
		jobs = append(jobs, job{c, w, w.set(t, oracleRules...), oracleLocal(c.cmd, w)})
	}
	errs := make([]error, len(jobs))
	next := make(chan int)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for i := range next {
				_, _, errs[i] = runOracle(t, jobs[i].s, jobs[i].w, jobs[i].cmd)
			}
		})
	}
	for i := range jobs {
		next <- i
	}
	close(next)
	wg.Wait()

	known := map[string]bool{}
	for _, c := range knownBypasses {
		known[c] = true
	}
	caught := 0
	for i, j := range jobs {
		var oe *oracleError
		switch err := errs[i]; {
		case err == nil && known[j.c.cmd]:
			t.Errorf("%s: %q is in knownBypasses, but the oracle finds nothing wrong with it now: remove it from the list", j.c.from, j.c.cmd)
			delete(known, j.c.cmd)
		case err == nil:
		case !errors.As(err, &oe):
			t.Errorf("%s: %q: %v", j.c.from, j.c.cmd, err)
		case known[j.c.cmd]:
			caught++
			delete(known, j.c.cmd)
		default:
			d := j.s.Decide(j.w.exec(j.cmd))
			t.Errorf("%s: %q is allowed by %v, and %v", j.c.from, j.c.cmd, d.Rules, err)
		}
	}
	for c := range known {
		t.Errorf("%q is in knownBypasses, but the rules no longer allow it (or it left the corpus): remove it from the list", c)
	}
	t.Logf("%d commands in the corpus, %d allowed and run by the oracle, %d of them known bypasses caught; %v",
		len(corpus), len(jobs), caught, time.Since(start).Round(time.Millisecond))
}

// FuzzOracle runs command lines the rules allow and checks them with the
// oracle, starting from the attacks and the command table. Inputs are
// short: a long one says no more, and only slows the shell down. A run
// that is still going at the oracle's timeout is no finding by itself (a
// command can be slow without running anything the rules do not allow);
// what it ran until then is checked.
func FuzzOracle(f *testing.F) {
	oracleOnTmpfs(f)
	needOracle(f)
	for _, c := range slices.Concat(oracleAttacks, commandTable(f), []string{
		"go test ./...", "echo ./... | xargs go test", "cd sub && go test > ../docs/x 2>&1", "sh -c 'go test \"$P\"'",
		"timeout -k 5 60 nice -n 5 go test", "go test ${X:-./...} <<< \"$P\"", "cat <<EOF\n$(echo hi) ${x}\nEOF",
	}) {
		f.Add(c)
	}
	f.Fuzz(func(t *testing.T, cmd string) {
		if len(cmd) > 256 || !utf8.ValidString(cmd) || strings.ContainsRune(cmd, 0) {
			return
		}
		w := newWorld(t)
		s := w.set(t, oracleRules...)
		local := oracleLocal(cmd, w)
		d := s.Decide(w.exec(local))
		if d.Verdict != Allowed || knownBypass(cmd, nil) || oracleBlinds.MatchString(local) {
			return
		}
		_, _, err := runOracle(t, s, w, local)
		var oe *oracleError
		if errors.As(err, &oe) {
			oe.findings = slices.DeleteFunc(oe.findings, func(f finding) bool { return strings.HasPrefix(f.what, oracleStillRunning) })
			if len(oe.findings) == 0 || knownBypass(cmd, oe.kinds()) {
				return
			}
		}
		if err != nil {
			t.Fatalf("%q is allowed by %v, and %v", cmd, d.Rules, err)
		}
	})
}
