package rules

import (
	"fmt"
	"path"
	"reflect"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"
)

// A shell command line is read twice, for two different questions.
//
// [analyze] answers "may an allow rule answer this?": it is an allow-list
// of what it fully understands. It accepts a node of the parser only in
// the shapes listed in the vocabulary (every other field of the node zero, so
// a field a later parser adds is refused until it is read here), a word
// only made of literals, quotes and plain $NAME or ${NAME}, and a command
// that runs another only as the vocabulary's wrappers say. Anything else is
// an error, and an error means the human is asked.
//
// [sight] answers "what does this line show to a deny rule?": it walks
// everything, constructs analyze refuses included, and never fails.

// maxDepth bounds how deep subshells, substitutions and sh -c scripts
// nest before the command is left to the human.
const maxDepth = 16

// plan is what a shell command line does, every part of it read:
// [analyze] makes one only for a line it reads in full.
type plan struct {
	// cmds are the commands it runs, in the order written: those in
	// lists, pipelines, subshells, substitutions and sh -c scripts, and
	// those wrappers run. A wrapper that runs a command (env go test) is
	// not one of them: it runs nothing else. A wrapper with no command
	// after it (env alone, which prints the environment) is a command of
	// its own.
	cmds []simpleCmd
	// writes are the files its redirections write (>, >>, &>, <>),
	// resolved: edits, which an Edit rule must allow.
	writes []string
	// reads are the files its redirections read, resolved; dirs are the
	// directories its cd commands go to. Each must be inside the project
	// of every rule that allows.
	reads, dirs []string
}

// simpleCmd is one command a shell command line runs.
type simpleCmd struct {
	// key is the command's words joined by sep, a word whose value the
	// shell decides as dyn; a command that gets more words it cannot see
	// (from xargs) ends in sep+dyn.
	key string
	// cwd is the resolved directory it runs in, as far as cd goes.
	cwd string
}

// unread says why a command line cannot be read in full.
type unread string

func (u unread) Error() string { return string(u) }

func unreadf(format string, args ...any) error { return unread(fmt.Sprintf(format, args...)) }

// state is where a command runs: the directory, as cd moves it, and how
// deep in subshells and scripts.
type state struct {
	cwd   string
	depth int
	// moved: a cd changed the directory, so a command named by a
	// relative path is not the one it names where the call was asked.
	moved bool
}

// sub is the state of a subshell of st: a cd inside it stays inside.
func (st *state) sub() *state {
	return &state{cwd: st.cwd, depth: st.depth + 1, moved: st.moved}
}

// parse parses src as bash, keeping its comments.
func parse(src string) (*syntax.File, error) {
	return syntax.NewParser(syntax.Variant(syntax.LangBash), syntax.KeepComments(true)).Parse(strings.NewReader(src), "")
}

// continuations refuses a backslash that ends a line where the parser
// and bash may not agree on what it continues: in a comment (bash ends a
// comment at the new line, the parser goes on: "x # \⏎rm -rf /" hides
// the second line from it) and in a here-document or its delimiter
// (where bash joins the lines before it looks for the end, and the parser
// does not: the document ends elsewhere, and what follows it runs).
func continuations(f *syntax.File, src string) error {
	var err error
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Comment:
			if strings.Contains(n.Text, "\\") {
				err = unread("a comment holding a backslash, which bash and the parser may end in different places")
			}
		case *syntax.Redirect:
			if n.Op != syntax.Hdoc && n.Op != syntax.DashHdoc {
				break
			}
			// From the operator to the end of the body: the parser takes
			// a continuation at the start of the body as no part of it.
			if from, to := n.OpPos.Offset(), min(n.End().Offset(), uint(len(src))); from < to && strings.Contains(src[from:to], "\\\n") {
				err = unread("a here-document with a backslash at the end of a line, which bash and the parser may end in different places")
			}
		}
		return err == nil
	})
	return err
}

// analyze reads every command src runs, started in the resolved directory
// cwd, and every file it redirects to: the plan, or an error saying what
// it cannot read.
func analyze(src, cwd string) (*plan, error) {
	r := &reader{plan: &plan{}}
	if err := r.script(src, &state{cwd: cwd}); err != nil {
		return nil, err
	}
	return r.plan, nil
}

// reader builds a plan; each method returns the first thing it cannot
// read.
type reader struct {
	plan *plan
}

// script parses src and reads its statements in st.
func (r *reader) script(src string, st *state) error {
	if st.depth > maxDepth {
		return unread("commands nested too deeply")
	}
	if !utf8.ValidString(src) {
		return unread("a command that is not valid UTF-8")
	}
	for _, c := range src {
		if unsafeRune(c) && c != '\n' && c != '\t' {
			// Besides hiding what runs where it is shown, a control
			// character can make the parser and bash disagree: the
			// parser takes a carriage return as a blank, bash as part of
			// a word, so "x\r#; rm -rf /" is a comment to one and a
			// command to the other.
			return unreadf("a command holding the control or invisible character %U", c)
		}
	}
	f, err := parse(src)
	if err != nil {
		return unreadf("a command the shell parser cannot read: %v", err)
	}
	if err := continuations(f, src); err != nil {
		return err
	}
	if err := only(f); err != nil {
		return err
	}
	return r.stmts(f.Stmts, st)
}

// stmts reads statements run one after the other in st.
func (r *reader) stmts(list []*syntax.Stmt, st *state) error {
	if st.depth > maxDepth {
		return unread("commands nested too deeply")
	}
	for _, s := range list {
		if err := r.stmt(s, st); err != nil {
			return err
		}
	}
	return nil
}

func (r *reader) stmt(s *syntax.Stmt, st *state) error {
	if err := only(s); err != nil {
		return err
	}
	if s.Background {
		st = st.sub() // runs in a subshell
	}
	for _, rd := range s.Redirs {
		if err := r.redirect(rd, st); err != nil {
			return err
		}
	}
	if s.Cmd == nil {
		return nil
	}
	return r.command(s.Cmd, st)
}

func (r *reader) command(cmd syntax.Command, st *state) error {
	switch c := cmd.(type) {
	case *syntax.CallExpr:
		return r.call(c, st)
	case *syntax.BinaryCmd:
		return r.binary(c, st)
	case *syntax.Subshell:
		if err := only(c); err != nil {
			return err
		}
		return r.stmts(c.Stmts, st.sub())
	case *syntax.Block:
		if err := only(c); err != nil {
			return err
		}
		return r.stmts(c.Stmts, st)
	case *syntax.TimeClause:
		if err := only(c); err != nil {
			return err
		}
		if c.Stmt == nil { // time alone: a command of its own
			words := []string{"time"}
			if c.PosixFormat {
				words = append(words, "-p")
			}
			r.record(words, st, false)
			return nil
		}
		return r.stmt(c.Stmt, st)
	default:
		// if, while, for, case, functions, [[ ]], (( )), declare, let,
		// coproc, and whatever a later parser adds: control flow and
		// state rules do not read.
		return unreadf("%s, a shell construct rules do not read", constructName(cmd))
	}
}

// call reads a simple command: its words, and the command it runs.
func (r *reader) call(c *syntax.CallExpr, st *state) error {
	if len(c.Assigns) > 0 {
		return unread("a variable assignment, which can change what a command does (GOFLAGS=, LD_PRELOAD=)")
	}
	if err := only(c); err != nil {
		return err
	}
	words := make([]string, len(c.Args))
	for i, w := range c.Args {
		v, err := r.word(w, st)
		if err != nil {
			return err
		}
		words[i] = v
	}
	return r.simple(words, st, false)
}

// binary reads a list (&&, ||) or a pipeline, whose sides run in
// subshells.
func (r *reader) binary(c *syntax.BinaryCmd, st *state) error {
	if err := only(c); err != nil {
		return err
	}
	x, y := st, st
	switch c.Op {
	case syntax.AndStmt, syntax.OrStmt:
	case syntax.Pipe, syntax.PipeAll:
		x, y = st.sub(), st.sub()
	default:
		return unreadf("the operator %s, which rules do not read", c.Op)
	}
	if err := r.stmt(c.X, x); err != nil {
		return err
	}
	return r.stmt(c.Y, y)
}

// constructName names a construct rules do not read, for the reason given.
func constructName(cmd syntax.Command) string {
	switch cmd.(type) {
	case *syntax.IfClause:
		return "if"
	case *syntax.WhileClause:
		return "while or until"
	case *syntax.ForClause:
		return "for or select"
	case *syntax.CaseClause:
		return "case"
	case *syntax.FuncDecl:
		return "a function"
	case *syntax.TestClause:
		return "[[ ]]"
	case *syntax.ArithmCmd:
		return "(( ))"
	case *syntax.DeclClause:
		return "declare, local, export or readonly"
	case *syntax.LetClause:
		return "let"
	case *syntax.CoprocClause:
		return "coproc"
	}
	return strings.TrimPrefix(reflect.TypeOf(cmd).String(), "*syntax.")
}

// runner is a command that runs the command its arguments name.
type runner struct {
	// opts are the options rules read, with how many arguments each
	// takes; any other option is not read. "--" ends the options.
	opts map[string]int
	// number: an option of digits alone is read (nice -5).
	number bool
	// operands are the arguments between the options and the command,
	// each checked by operand (timeout's duration).
	operands int
	operand  func(string) bool
	// assigns: NAME=VALUE words may come before the command (env); rules
	// do not read them.
	assigns bool
	// xargs: the command gets more arguments from standard input. It
	// must be written out and be no wrapper, shell or builtin; its added
	// words are words only a rule's * covers.
	xargs bool
}

// vocabulary is what the reader knows of commands and of the parser's
// nodes, built on first use: a program that never decides a shell
// command allocates nothing for it.
type vocabulary struct {
	// wrappers are the commands that run another command in a way rules
	// read: each with the options it may have. A wrapper is known by its
	// bare name only (docs/nohup is a program of the project's).
	wrappers map[string]runner
	// opaque are the commands that run another command in a way rules do
	// not read (as another user, from a string, from a file, in another
	// root, on a schedule): never allowed, whatever follows them.
	opaque map[string]bool
	// namers are bash's builtins that take the names of variables, in
	// which a subscript (a[$(cmd)]) is arithmetic that runs commands:
	// their words must be written out, without "[".
	namers map[string]bool
	// shells are the shells whose -c script is read as a command line of
	// its own; others' syntax is not bash's.
	shells map[string]bool
	// otherShells are shells whose -c script is shown to the deny rules
	// as far as bash's parser reads it, though analyze never reads it.
	otherShells map[string]bool
	// shapes lists, for each node the reader accepts, the fields it
	// reads: [only] refuses a node with any other field set (positions
	// and comments aside), so a field the parser gains in a later
	// version, or one this reader forgot, fails closed.
	shapes map[reflect.Type][]string
}

var vocab = sync.OnceValue(func() *vocabulary {
	set := func(names ...string) map[string]bool {
		m := make(map[string]bool, len(names))
		for _, n := range names {
			m[n] = true
		}
		return m
	}
	return &vocabulary{
		wrappers: map[string]runner{
			"nohup":   {},
			"exec":    {},
			"command": {},
			"env":     {assigns: true},
			"time":    {opts: map[string]int{"-p": 0}},
			"nice":    {opts: map[string]int{"-n": 1}, number: true},
			"timeout": {opts: map[string]int{"-s": 1, "-k": 1, "--preserve-status": 0, "--foreground": 0, "-v": 0, "--verbose": 0}, operands: 1, operand: isDuration},
			"xargs":   {opts: map[string]int{"-0": 0, "-r": 0, "-t": 0, "--null": 0, "--no-run-if-empty": 0, "--verbose": 0}, xargs: true},
		},
		opaque: set("sudo", "doas", "su", "runuser", "pkexec",
			"eval", "source", ".", "builtin", "trap", "enable",
			"stdbuf", "setsid", "chroot", "nsenter", "unshare",
			"ionice", "taskset", "flock", "watch", "script",
			"parallel", "busybox", "fish", "csh", "tcsh",
			"zsh", "ksh", "mksh", "ash", "pushd", "popd",
			"alias", "coproc", "fc", "bind", "complete",
			"shopt", "set", "hash"),
		namers: set("test", "[", "printf", "read", "mapfile", "readarray",
			"unset", "wait", "getopts", "declare", "typeset",
			"local", "export", "readonly", "let", "shift",
			"kill", "ulimit", "return", "exit", "break", "continue"),
		shells:      set("sh", "bash", "dash"),
		otherShells: set("zsh", "ksh", "mksh", "ash", "fish", "busybox"),
		shapes: map[reflect.Type][]string{
			typeOf[syntax.File]():       {"Name", "Stmts"},
			typeOf[syntax.Stmt]():       {"Cmd", "Negated", "Background", "Redirs"},
			typeOf[syntax.CallExpr]():   {"Args"},
			typeOf[syntax.BinaryCmd]():  {"Op", "X", "Y"},
			typeOf[syntax.Subshell]():   {"Stmts"},
			typeOf[syntax.Block]():      {"Stmts"},
			typeOf[syntax.TimeClause](): {"PosixFormat", "Stmt"},
			typeOf[syntax.Redirect]():   {"Op", "N", "Word", "Hdoc"},
			typeOf[syntax.Word]():       {"Parts"},
			typeOf[syntax.Lit]():        {"Value"},
			typeOf[syntax.SglQuoted]():  {"Dollar", "Value"},
			typeOf[syntax.DblQuoted]():  {"Dollar", "Parts"},
			typeOf[syntax.CmdSubst]():   {"Stmts", "Backquotes"},
			typeOf[syntax.ProcSubst]():  {"Op", "Stmts"},
			typeOf[syntax.ParamExp]():   {"Short", "Param"},
		},
	}
})

// command returns the command w runs, after the options and operands of
// args, which must all be written out; ok is false for an option rules
// do not read.
func (w runner) command(args []string) (rest []string, ok bool) {
	for len(args) > 0 && strings.HasPrefix(args[0], "-") && args[0] != "-" {
		a := args[0]
		if a == "--" {
			args = args[1:]
			break
		}
		n, known := w.opts[a]
		switch {
		case known:
			if len(args) < n+1 || slices.Contains(args[1:n+1], dyn) {
				return nil, false
			}
			args = args[n+1:]
		case w.number && isNumber(a[1:]):
			args = args[1:]
		default:
			return nil, false
		}
	}
	if len(args) == 0 {
		return nil, true
	}
	if len(args) < w.operands {
		return nil, false
	}
	for _, o := range args[:w.operands] {
		if !w.operand(o) {
			return nil, false
		}
	}
	return args[w.operands:], true
}

// simple reads the command of words run in st; tail says that xargs
// gives it more words.
func (r *reader) simple(words []string, st *state, tail bool) error {
	name := words[0]
	switch {
	case name == dyn:
		return unread("a command name the shell decides when it runs (a variable, a substitution, a glob)")
	case strings.Contains(name, "/") && !path.IsAbs(name) && st.moved:
		return unreadf("%s, named by a relative path after cd", name)
	}
	if tail && (name == "cd" || vocab().namers[name] || isWrapper(name)) {
		return unreadf("xargs running %s, which rules do not read", name)
	}
	if w, ok := vocab().wrappers[name]; ok {
		rest, ok := w.command(words[1:])
		switch {
		case !ok:
			return unreadf("%s with options rules do not read", name)
		case len(rest) == 0:
			r.record(words, st, tail) // a command of its own
			return nil
		case w.assigns && strings.Contains(rest[0], "="):
			return unreadf("%s with variables, which rules do not read", name)
		case w.xargs:
			if rest[0] == dyn {
				return unread("xargs running a command that is not written out")
			}
			return r.simple(rest, st, true)
		default:
			return r.simple(rest, st, tail)
		}
	}
	switch {
	case name == "cd":
		return r.cd(words[1:], st)
	case vocab().shells[name]:
		return r.shell(name, words[1:], st)
	case vocab().opaque[name]:
		return unreadf("%s runs a command in a way rules do not read", name)
	case vocab().namers[name]:
		for _, w := range words[1:] {
			if w == dyn || strings.Contains(w, "[") {
				return unreadf("%s with a word that is not written out or holds \"[\" (a subscript it would evaluate)", name)
			}
		}
	}
	r.record(words, st, tail)
	return nil
}

// isWrapper reports whether name runs other commands, in a way rules read
// or not.
func isWrapper(name string) bool {
	v := vocab()
	_, ok := v.wrappers[name]
	return ok || v.opaque[name] || v.shells[name]
}

// record adds the command of words, run in st, to the plan.
func (r *reader) record(words []string, st *state, tail bool) {
	key := strings.Join(words, sep)
	if tail {
		key += sep + dyn
	}
	r.plan.cmds = append(r.plan.cmds, simpleCmd{key: key, cwd: st.cwd})
}

// cd follows cd's arguments: one directory, written out, which the shell
// moves to (and which must be inside the project).
func (r *reader) cd(args []string, st *state) error {
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	}
	if len(args) != 1 || args[0] == dyn || args[0] == "-" || strings.HasPrefix(args[0], "-") || args[0] == "" {
		return unread("cd without exactly one directory written out")
	}
	dir, err := resolveFrom(st.cwd, args[0])
	if err != nil {
		return unread("cd to a directory that cannot be resolved")
	}
	r.plan.dirs = append(r.plan.dirs, dir)
	st.cwd, st.moved = dir, true
	return nil
}

// isNumber reports whether s is digits alone.
func isNumber(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}

// isDuration reports whether s is a duration timeout reads: a number,
// perhaps with a fraction, and perhaps a unit.
func isDuration(s string) bool {
	s = strings.TrimRight(s, "smhd")
	whole, frac, dot := strings.Cut(s, ".")
	return isNumber(whole) && (!dot || isNumber(frac))
}

// shell reads sh -c SCRIPT (bash, dash): the script, when it is written
// out, is read as a command line of its own, in a subshell. Any other use
// of a shell (a script file, standard input, extra arguments, other
// options) cannot be read.
func (r *reader) shell(name string, args []string, st *state) error {
	i, withC := 0, false
	for ; i < len(args) && strings.HasPrefix(args[i], "-") && len(args[i]) > 1; i++ {
		flags := args[i][1:]
		if strings.Trim(flags, "euxvc") != "" {
			return unreadf("%s with options rules do not read", name)
		}
		withC = withC || strings.Contains(flags, "c")
	}
	if !withC || len(args) != i+1 || args[i] == dyn {
		return unreadf("%s without -c and one script written out (a script file, standard input, arguments)", name)
	}
	return r.script(args[i], st.sub())
}

// word returns w as the shell will pass it, quotes removed ($'…' decoded
// as far as ansiC does), or dyn when the shell decides its value (a
// variable, a substitution, a glob). Substitutions in it are read as
// commands of their own. A word may hold literals, quotes, $NAME and
// ${NAME}, and substitutions; anything else (an operator in ${…},
// arithmetic, an extended glob) cannot be read.
func (r *reader) word(w *syntax.Word, st *state) (string, error) {
	if err := only(w); err != nil {
		return "", err
	}
	var b strings.Builder
	dynamic := false
	for i, part := range w.Parts {
		d, err := r.part(part, i == 0, st, &b)
		if err != nil {
			return "", err
		}
		dynamic = dynamic || d
	}
	if dynamic {
		return dyn, nil
	}
	return b.String(), nil
}

// part reads one part of a word, the first when first, writing its value
// to b; dynamic says the shell decides it.
func (r *reader) part(part syntax.WordPart, first bool, st *state, b *strings.Builder) (dynamic bool, err error) {
	switch p := part.(type) {
	case *syntax.Lit:
		if err := only(p); err != nil {
			return false, err
		}
		s, globbing := unquoted(p.Value, first)
		b.WriteString(s)
		return globbing, nil
	case *syntax.SglQuoted:
		if err := only(p); err != nil {
			return false, err
		}
		v := p.Value
		if p.Dollar {
			if v, err = ansiC(v); err != nil {
				return false, err
			}
		}
		b.WriteString(v)
		return false, nil
	case *syntax.DblQuoted:
		return r.doubleQuoted(p, st, b)
	default:
		return true, r.expansion(part, st)
	}
}

// doubleQuoted reads a double-quoted part of a word: its literals, and
// the expansions inside it.
func (r *reader) doubleQuoted(p *syntax.DblQuoted, st *state, b *strings.Builder) (dynamic bool, err error) {
	if err := only(p); err != nil {
		return false, err
	}
	dynamic = p.Dollar // $"…": translated by the locale
	for _, dp := range p.Parts {
		l, ok := dp.(*syntax.Lit)
		if !ok {
			if err := r.expansion(dp, st); err != nil {
				return false, err
			}
			dynamic = true
			continue
		}
		if err := only(l); err != nil {
			return false, err
		}
		b.WriteString(doubleQuoted(l.Value))
	}
	return dynamic, nil
}

// expansion reads a part of a word the shell expands when it runs:
// substitutions are commands of their own, and a parameter is read only
// as $NAME or ${NAME}.
func (r *reader) expansion(part syntax.WordPart, st *state) error {
	switch p := part.(type) {
	case *syntax.CmdSubst:
		if err := only(p); err != nil {
			return err
		}
		return r.stmts(p.Stmts, st.sub())
	case *syntax.ProcSubst:
		if err := only(p); err != nil {
			return err
		}
		return r.stmts(p.Stmts, st.sub())
	case *syntax.ParamExp:
		if only(p) != nil || p.Param == nil || only(p.Param) != nil {
			// ${x@P} runs the substitutions its value holds; ${!x},
			// ${x[i]}, ${x:i} and arithmetic inside ${x:-…} evaluate it.
			return unread("a parameter expansion other than $NAME or ${NAME}")
		}
		return nil
	default: // arithmetic, extended globs, and whatever a later parser adds
		return unreadf("%s, an expansion rules do not read", strings.TrimPrefix(reflect.TypeOf(part).String(), "*syntax."))
	}
}

// ansiC decodes the text of a $'…' word, as far as its escapes stand
// for characters a person sees: \n, \t, \\, \' and \". Any other escape
// (\e, \x1b, \u202e, \c[ …) could put a control or invisible character
// in the word, and fails closed.
func ansiC(s string) (string, error) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' {
			b.WriteByte(c)
			continue
		}
		if i+1 == len(s) {
			return "", unread("$'…' ending in a backslash")
		}
		i++
		switch s[i] {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case '\\', '\'', '"':
			b.WriteByte(s[i])
		default:
			return "", unreadf("$'…' with the escape \\%c, which rules do not decode", s[i])
		}
	}
	return b.String(), nil
}

// unquoted removes the backslashes of an unquoted literal and reports
// whether the shell would expand it further: a glob (* ? [), a brace
// expansion, or a tilde at the start or after = or :.
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

// isDevice reports whether p is one of the files a redirection may name
// anywhere.
func isDevice(p string) bool {
	switch p {
	case "/dev/null", "/dev/stdin", "/dev/stdout", "/dev/stderr":
		return true
	}
	return false
}

// redirect reads a redirection: a file it names must be written out and
// is resolved, a write among the plan's writes and a read among its
// reads; a here-document's substitutions are commands of their own.
func (r *reader) redirect(rd *syntax.Redirect, st *state) error {
	if err := only(rd); err != nil {
		return err
	}
	if rd.N != nil && (only(rd.N) != nil || !isNumber(rd.N.Value)) {
		return unread("a redirection that assigns a file descriptor")
	}
	var into *[]string
	switch rd.Op {
	case syntax.Hdoc, syntax.DashHdoc:
		if _, err := r.word(rd.Word, st); err != nil {
			return err
		}
		if rd.Hdoc != nil {
			return r.hereDoc(rd.Hdoc, st)
		}
		return nil
	case syntax.WordHdoc:
		_, err := r.word(rd.Word, st)
		return err
	case syntax.DplIn, syntax.DplOut:
		target, err := r.word(rd.Word, st)
		if err != nil {
			return err
		}
		if target != "-" && !isNumber(target) {
			return unread("a duplication to a file (>&file), which rules do not read")
		}
		return nil
	case syntax.RdrIn:
		into = &r.plan.reads
	case syntax.RdrOut, syntax.AppOut, syntax.RdrClob, syntax.RdrAll, syntax.AppAll, syntax.RdrInOut:
		into = &r.plan.writes
	default:
		return unreadf("the redirection %s, which rules do not read", rd.Op)
	}
	target, err := r.word(rd.Word, st)
	switch {
	case err != nil:
		return err
	case target == dyn || target == "":
		return unread("a redirection to a file named by an expansion")
	case isDevice(target):
		return nil
	}
	p, err := resolveFrom(st.cwd, target)
	switch {
	case err != nil:
		return unread("a redirection to a file that cannot be resolved")
	case isDevice(p):
		return nil
	}
	*into = append(*into, p)
	return nil
}

// hereDoc reads a here-document's body: its text is data, whatever it
// holds, but its substitutions are commands and its parameters are read
// as in any word.
func (r *reader) hereDoc(w *syntax.Word, st *state) error {
	if err := only(w); err != nil {
		return err
	}
	for _, part := range w.Parts {
		if l, ok := part.(*syntax.Lit); ok {
			if err := only(l); err != nil {
				return err
			}
			continue
		}
		if err := r.expansion(part, st); err != nil {
			return err
		}
	}
	return nil
}

func typeOf[T any]() reflect.Type { return reflect.TypeFor[T]() }

var (
	posType      = reflect.TypeFor[syntax.Pos]()
	commentsType = reflect.TypeFor[[]syntax.Comment]()
)

// only returns an error unless n is of a type listed in shapes and every
// field of it other than its positions, its comments and the fields
// listed is the zero value.
func only(n syntax.Node) error {
	v := reflect.ValueOf(n).Elem()
	t := v.Type()
	fields, ok := vocab().shapes[t]
	if !ok {
		return unreadf("%s, which rules do not read", t.Name())
	}
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Type == posType || f.Type == commentsType || slices.Contains(fields, f.Name) {
			continue
		}
		if !v.Field(i).IsZero() {
			return unreadf("%s with %s, which rules do not read", t.Name(), f.Name)
		}
	}
	return nil
}

// sight returns the commands src shows, for the deny rules: every
// simple command the parser finds wherever it is (in constructs analyze
// refuses too), the commands wrappers run as far as their options can be
// told apart, and those of sh -c scripts. It never fails: a line the
// parser rejects shows nothing.
func sight(src string) []string {
	var keys []string
	sightScript(src, 0, &keys)
	return keys
}

func sightScript(src string, depth int, keys *[]string) {
	if depth > maxDepth {
		return
	}
	f, err := parse(src)
	if err != nil {
		return
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		if c, ok := n.(*syntax.CallExpr); ok && len(c.Args) > 0 {
			words := make([]string, len(c.Args))
			for i, w := range c.Args {
				words[i] = looseWord(w)
			}
			sightWords(words, depth, keys)
		}
		return true // substitutions inside the words are commands too
	})
}

// sightWords adds the command of words, and those it runs, to keys.
func sightWords(words []string, depth int, keys *[]string) {
	for len(words) > 0 {
		*keys = append(*keys, strings.Join(words, sep))
		name := path.Base(words[0])
		v := vocab()
		w, wrapped := v.wrappers[name]
		switch {
		case wrapped:
			rest, ok := w.command(words[1:])
			if !ok {
				rest = skipLoosely(words[1:])
			}
			words = rest
		case v.shells[name] || v.otherShells[name]:
			sightShell(words[1:], depth, keys)
			return
		case name == "eval":
			sightScript(strings.Join(words[1:], " "), depth+1, keys)
			return
		case v.opaque[name]:
			// What runs is somewhere after the name: every suffix is
			// shown (sudo -u root rm -rf / shows rm -rf /).
			for i := 1; i < len(words); i++ {
				*keys = append(*keys, strings.Join(words[i:], sep))
				if n := path.Base(words[i]); v.shells[n] || v.otherShells[n] {
					sightShell(words[i+1:], depth, keys)
				}
			}
			return
		default:
			return
		}
	}
}

// sightShell shows the deny rules the script of a shell's arguments
// when they have -c and one written out.
func sightShell(args []string, depth int, keys *[]string) {
	withC := false
	for _, a := range args {
		if strings.HasPrefix(a, "-") && len(a) > 1 {
			withC = withC || strings.Contains(a[1:], "c")
			continue
		}
		if withC && a != dyn {
			sightScript(a, depth+1, keys)
		}
		return
	}
}

// skipLoosely drops what looks like options and their values from the
// front of a wrapper's arguments: words starting with "-", a variable
// (env FOO=1), a number or duration.
func skipLoosely(args []string) []string {
	for len(args) > 0 && (strings.HasPrefix(args[0], "-") || strings.Contains(args[0], "=") || isDuration(args[0])) {
		args = args[1:]
	}
	return args
}

// looseWord is w's value when it is written out, else dyn.
func looseWord(w *syntax.Word) string {
	var b strings.Builder
	for i, part := range w.Parts {
		switch p := part.(type) {
		case *syntax.Lit:
			s, globbing := unquoted(p.Value, i == 0)
			if globbing {
				return dyn
			}
			b.WriteString(s)
		case *syntax.SglQuoted:
			if p.Dollar {
				return dyn
			}
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			for _, dp := range p.Parts {
				l, ok := dp.(*syntax.Lit)
				if !ok || p.Dollar {
					return dyn
				}
				b.WriteString(doubleQuoted(l.Value))
			}
		default:
			return dyn
		}
	}
	return b.String()
}
