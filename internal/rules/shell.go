package rules

import (
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// maxDepth bounds how deep subshells, substitutions and sh -c scripts
// nest before the command is left to the human.
const maxDepth = 16

// simpleCmd is one command a shell command line runs.
type simpleCmd struct {
	// key is the command's words joined by sep, a word whose value the
	// shell decides as dyn.
	key string
	// cwd is the resolved directory it runs in, as far as cd goes.
	cwd string
	// wrapper marks a command that runs another (env, sh -c, sudo, …):
	// only deny rules look at it; the command it runs is a simpleCmd of
	// its own when it can be read.
	wrapper bool
	// builtin marks cd, which needs no rule: where it goes is checked.
	builtin bool
}

// analysis is what a shell command line does, as far as rules can tell.
type analysis struct {
	// cmds are the commands it runs, in the order written, those inside
	// substitutions, subshells, pipelines and sh -c scripts included.
	cmds []simpleCmd
	// paths are the files its redirections name and the directories its
	// cd commands go to, resolved: each must be inside the project of
	// every rule that allows it.
	paths []string
	// closed says why no allow rule may answer for it (a construct rules
	// do not read, a dynamic command name, a wrapper whose command cannot
	// be read), or is "" when every command in cmds can be matched.
	// Deny rules still look at cmds.
	closed string
}

// close notes why no allow rule may answer; the first reason is kept.
func (a *analysis) close(why string) {
	if a.closed == "" {
		a.closed = why
	}
}

// state is where a command runs: the directory, as cd moves it, and how
// deep in subshells and scripts.
type state struct {
	cwd   string
	depth int
}

// sub is the state of a subshell of st: a cd inside it stays inside.
func (st *state) sub() *state {
	return &state{cwd: st.cwd, depth: st.depth + 1}
}

// analyze parses src as bash and reads every command it runs, starting in
// the resolved directory cwd.
func analyze(src, cwd string) *analysis {
	a := &analysis{}
	a.script(src, &state{cwd: cwd})
	return a
}

// script parses src and reads its statements in st.
func (a *analysis) script(src string, st *state) {
	if st.depth > maxDepth {
		a.close("commands nested too deeply")
		return
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
	if err != nil {
		a.close("a command the shell parser cannot read: " + err.Error())
		return
	}
	a.stmts(f.Stmts, st)
}

// stmts reads statements run one after the other in st.
func (a *analysis) stmts(list []*syntax.Stmt, st *state) {
	if st.depth > maxDepth {
		a.close("commands nested too deeply")
		return
	}
	for _, s := range list {
		a.stmt(s, st)
	}
}

func (a *analysis) stmt(s *syntax.Stmt, st *state) {
	if s.Coprocess || s.Disown {
		a.close("a coprocess or disowned job")
	}
	if s.Background {
		st = st.sub() // runs in a subshell
	}
	for _, r := range s.Redirs {
		a.redirect(r, st)
	}
	if s.Cmd != nil {
		a.command(s.Cmd, st)
	}
}

func (a *analysis) command(cmd syntax.Command, st *state) {
	switch c := cmd.(type) {
	case *syntax.CallExpr:
		a.call(c, st)
	case *syntax.BinaryCmd:
		switch c.Op {
		case syntax.AndStmt, syntax.OrStmt:
			a.stmt(c.X, st)
			a.stmt(c.Y, st)
		default: // | and |&: each side in a subshell
			a.stmt(c.X, st.sub())
			a.stmt(c.Y, st.sub())
		}
	case *syntax.Subshell:
		a.stmts(c.Stmts, st.sub())
	case *syntax.Block:
		a.stmts(c.Stmts, st)
	case *syntax.TimeClause:
		if c.Stmt != nil {
			a.stmt(c.Stmt, st)
		}
	default:
		// if, while, for, case, functions, [[ ]], (( )), declare, let,
		// coproc: control flow and state rules do not read. The
		// commands inside still meet the deny rules.
		a.close("a shell construct rules do not read (if, for, while, case, a function, [[ ]], (( )), declare, let)")
		a.nested(cmd, st)
	}
}

// nested reads, for the deny rules only, the commands inside a construct
// the analysis does not follow.
func (a *analysis) nested(n syntax.Node, st *state) {
	syntax.Walk(n, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.CallExpr:
			a.call(n, st.sub())
			return false
		case *syntax.CmdSubst:
			a.stmts(n.Stmts, st.sub())
			return false
		case *syntax.ProcSubst:
			a.stmts(n.Stmts, st.sub())
			return false
		}
		return true
	})
}

// call reads a simple command: its assignments, its words, and the
// command it runs.
func (a *analysis) call(c *syntax.CallExpr, st *state) {
	if len(c.Assigns) > 0 {
		a.close("a variable assignment, which can change what a command does (GOFLAGS=, LD_PRELOAD=)")
		for _, as := range c.Assigns {
			a.nested(as, st)
		}
	}
	if len(c.Args) == 0 {
		return
	}
	words := make([]string, len(c.Args))
	for i, w := range c.Args {
		words[i] = a.word(w, st)
	}
	a.simple(words, st, false)
}

// wrapped lists the commands that run another command in a way rules do
// not read: they are never allowed, whatever follows them.
var wrapped = map[string]bool{
	"sudo": true, "doas": true, "su": true, "runuser": true, "pkexec": true,
	"eval": true, "source": true, ".": true, "builtin": true, "trap": true,
	"stdbuf": true, "setsid": true, "chroot": true, "nsenter": true, "unshare": true,
	"ionice": true, "taskset": true, "flock": true, "watch": true, "script": true,
	"parallel": true, "busybox": true, "fish": true, "csh": true, "tcsh": true,
	"zsh": true, "pushd": true, "popd": true, "alias": true, "coproc": true,
}

// shells are the shells whose -c script is read as a command line of its
// own (zsh is not: its syntax is not bash's).
var shells = map[string]bool{"sh": true, "bash": true, "dash": true, "ksh": true, "mksh": true, "ash": true}

// simple reads the command of words run in st; tail says that more
// arguments whose values are not known follow (xargs).
func (a *analysis) simple(words []string, st *state, tail bool) {
	if words[0] == dyn {
		a.close("a command name the shell decides when it runs (a variable, a substitution, a glob)")
		return
	}
	name := path.Base(words[0])
	rec := func(wrapper, builtin bool) {
		for _, w := range words {
			if w != dyn && strings.ContainsAny(w, sep+dyn) {
				a.close("a command whose words hold control characters")
			}
		}
		key := strings.Join(words, sep)
		if tail {
			key += sep + dyn
		}
		a.cmds = append(a.cmds, simpleCmd{key: key, cwd: st.cwd, wrapper: wrapper, builtin: builtin})
	}
	// opaque is a wrapper whose command rules cannot read: never
	// allowed, but the deny rules still see what it runs, as far as it
	// shows.
	opaque := func(why string) {
		a.close(why)
		rest := words[1:]
		for len(rest) > 0 && strings.HasPrefix(rest[0], "-") {
			rest = rest[1:]
		}
		if len(rest) > 0 {
			a.simple(rest, st, tail)
		}
	}
	switch {
	case words[0] == "cd":
		rec(false, true)
		a.cd(words[1:], st)
	case name == "nohup" || name == "exec" || name == "command" || name == "env":
		rec(true, false)
		rest := words[1:]
		switch {
		case len(rest) == 0:
		case strings.HasPrefix(rest[0], "-") || (name == "env" && strings.Contains(rest[0], "=")):
			opaque(name + " with options or variables, which rules do not read")
		default:
			a.simple(rest, st, tail)
		}
	case name == "nice" || name == "timeout" || name == "time" || name == "xargs":
		rec(true, false)
		rest, ok := skipOptions(name, words[1:])
		if !ok || len(rest) == 0 {
			opaque(name + " with options rules do not read, or without a command")
			return
		}
		a.simple(rest, st, tail || name == "xargs")
	case shells[name]:
		rec(true, false)
		a.shell(name, words[1:], st)
	case wrapped[name]:
		rec(true, false)
		opaque(name + " runs a command in a way rules do not read")
	default:
		rec(false, false)
	}
}

// cd follows cd's arguments: one literal directory, which the shell
// moves to (and which must be inside the project).
func (a *analysis) cd(args []string, st *state) {
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	}
	if len(args) != 1 || args[0] == dyn || args[0] == "-" || strings.HasPrefix(args[0], "-") || args[0] == "" {
		a.close("cd without exactly one literal directory")
		return
	}
	dir, err := resolveFrom(st.cwd, args[0])
	if err != nil {
		a.close("cd to a directory that cannot be resolved")
		return
	}
	a.paths = append(a.paths, dir)
	st.cwd = dir
}

// skipOptions returns the command that nice, timeout, time or xargs runs,
// after the options rules know for it, and false for any other option.
func skipOptions(name string, args []string) ([]string, bool) {
	flags := map[string]map[string]bool{ // option: takes a value
		"nice":    {"-n": true},
		"timeout": {"-s": true, "-k": true, "--preserve-status": false, "--foreground": false, "-v": false, "--verbose": false},
		"time":    {"-p": false},
		"xargs":   {"-0": false, "-r": false, "-t": false, "--null": false, "--no-run-if-empty": false, "--verbose": false},
	}[name]
	for len(args) > 0 && strings.HasPrefix(args[0], "-") {
		takes, known := flags[args[0]]
		switch {
		case args[0] == "--":
			return args[1:], true
		case !known:
			if name == "nice" && isNumber(strings.TrimPrefix(args[0], "-")) {
				args = args[1:]
				continue
			}
			return nil, false
		case takes:
			if len(args) < 2 || args[1] == dyn {
				return nil, false
			}
			args = args[2:]
		default:
			args = args[1:]
		}
	}
	if name == "timeout" {
		if len(args) == 0 || args[0] == dyn {
			return nil, false
		}
		args = args[1:] // the duration
	}
	return args, true
}

func isNumber(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}

// shell reads sh -c SCRIPT (bash, dash …): the script, when it is a
// literal, is read as a command line of its own, in a subshell. Any other
// use of a shell (a script file, standard input, extra arguments) cannot
// be read.
func (a *analysis) shell(name string, args []string, st *state) {
	i, withC := 0, false
	for ; i < len(args) && strings.HasPrefix(args[i], "-") && len(args[i]) > 1; i++ {
		flags := args[i][1:]
		if strings.Trim(flags, "euxvc") != "" {
			a.close(name + " with options rules do not read")
			return
		}
		withC = withC || strings.Contains(flags, "c")
	}
	if !withC || len(args) != i+1 || args[i] == dyn {
		a.close(name + " without -c and one literal script (a script file, standard input, arguments)")
		return
	}
	a.script(args[i], st.sub())
}

// word returns w as the shell will pass it, quotes removed, or dyn when
// the shell decides its value (an expansion or a glob). Substitutions in
// it are read as commands of their own.
func (a *analysis) word(w *syntax.Word, st *state) string {
	var b strings.Builder
	dynamic := false
	for i, part := range w.Parts {
		switch p := part.(type) {
		case *syntax.Lit:
			s, globbing := unquoted(p.Value, i == 0)
			dynamic = dynamic || globbing
			b.WriteString(s)
		case *syntax.SglQuoted:
			dynamic = dynamic || p.Dollar // $'…': escapes rules do not decode
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			dynamic = dynamic || p.Dollar
			for _, dp := range p.Parts {
				if l, ok := dp.(*syntax.Lit); ok {
					b.WriteString(doubleQuoted(l.Value))
					continue
				}
				a.expansion(dp, st)
				dynamic = true
			}
		default:
			a.expansion(part, st)
			dynamic = true
		}
	}
	if dynamic {
		return dyn
	}
	return b.String()
}

// expansion reads a part of a word the shell expands when it runs:
// substitutions are commands of their own; arithmetic, extended globs and
// parameter expansions that evaluate arithmetic cannot be read.
func (a *analysis) expansion(part syntax.WordPart, st *state) {
	switch p := part.(type) {
	case *syntax.CmdSubst:
		if p.TempFile || p.ReplyVar {
			a.close("a mksh substitution")
		}
		a.stmts(p.Stmts, st.sub())
	case *syntax.ProcSubst:
		a.stmts(p.Stmts, st.sub())
	case *syntax.ParamExp:
		if !plainParam(p) {
			// Indirection, subscripts and slices evaluate arithmetic,
			// which runs the substitutions a variable's value holds.
			a.close("a parameter expansion that evaluates its value (${!x}, ${x[i]}, ${x:i})")
		}
		a.nested(p, st)
	case *syntax.BraceExp:
		a.nested(p, st)
	default: // arithmetic, extended globs (zsh's glob qualifiers run code)
		a.close("arithmetic or an extended glob")
		a.nested(part, st)
	}
}

// plainParam reports whether p expands a variable without evaluating
// anything: $x, ${x}, ${#x}, ${x:-word}, ${x/a/b}.
func plainParam(p *syntax.ParamExp) bool {
	return p.Param != nil && p.Flags == nil && !p.Excl && !p.Width && !p.IsSet &&
		p.Split == syntax.OptUnset && p.GlobSubst == syntax.OptUnset && p.RcExpand == syntax.OptUnset &&
		p.NestedParam == nil && p.Index == nil && len(p.Modifiers) == 0 && p.Slice == nil && p.Names == 0
}

// unquoted removes the backslashes of an unquoted literal and reports
// whether the shell would expand it further: a glob (* ? [), a brace
// expansion, or a leading tilde.
func unquoted(s string, first bool) (string, bool) {
	var b strings.Builder
	expands := false
	brace := -1 // where an unescaped "{" was written, if one was
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\\' && i+1 < len(s) {
			i++
			b.WriteByte(s[i])
			continue
		}
		switch c {
		case '*', '?', '[':
			expands = true
		case '~':
			// At the start, and after = or : in words bash reads as
			// assignments.
			expands = expands || (b.Len() == 0 && first) || (i > 0 && (s[i-1] == '=' || s[i-1] == ':'))
		case '{':
			brace = b.Len()
		case '}':
			if brace >= 0 {
				inner := b.String()[brace:]
				expands = expands || strings.Contains(inner, ",") || strings.Contains(inner, "..")
			}
		}
		b.WriteByte(c)
	}
	return b.String(), expands
}

// doubleQuoted removes the backslashes that escape a character inside
// double quotes: before $, `, ", \ and a newline.
func doubleQuoted(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("$`\"\\\n", s[i+1]) >= 0 {
			i++
			if s[i] == '\n' {
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// devices are the files a redirection may name anywhere.
var devices = map[string]bool{"/dev/null": true, "/dev/stdin": true, "/dev/stdout": true, "/dev/stderr": true}

// redirect reads a redirection: a file it names must be a literal and is
// resolved; a here-document's substitutions are commands of their own.
func (a *analysis) redirect(r *syntax.Redirect, st *state) {
	if r.N != nil && strings.HasPrefix(r.N.Value, "{") {
		a.close("a redirection that assigns a file descriptor")
	}
	switch r.Op {
	case syntax.Hdoc, syntax.DashHdoc:
		if r.Hdoc != nil {
			a.word(r.Hdoc, st)
		}
		return
	case syntax.WordHdoc:
		a.word(r.Word, st)
		return
	default: // redirections to and from files and descriptors
	}
	target := a.word(r.Word, st)
	if (r.Op == syntax.DplIn || r.Op == syntax.DplOut) && (target == "-" || isNumber(target)) {
		return
	}
	switch {
	case target == dyn || target == "":
		a.close("a redirection to a file named by an expansion")
	case devices[target]:
	default:
		p, err := resolveFrom(st.cwd, target)
		if err != nil {
			a.close("a redirection to a file that cannot be resolved")
			return
		}
		a.paths = append(a.paths, p)
	}
}
