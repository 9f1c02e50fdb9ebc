//go:build linux

package rules

// The execution oracle: docs/rules.md promises that "rules never answer
// more than they say". The matcher keeps that promise by reading a
// command; the oracle checks it by running the command and watching
// what really ran and what really changed. runOracle is the entry point;
// TestOracle and FuzzOracle (oracle_corpus_test.go) feed it every
// command of a corpus that the matcher allows.
//
// How it watches, and why this way:
//
//   - Programs: PATH holds only stubs, one POSIX shell script linked
//     under every name (stubScript). Each run of it appends its argv,
//     NUL-separated, to a file named by its PID, so that stubs running at
//     once never interleave, and does nothing. The stubs of programs that
//     run another command (env, xargs, nohup, timeout, nice, time,
//     stdbuf) then exec the real program, found before PATH was
//     replaced, which finds the command it runs among the stubs, so that
//     it is recorded too. sh, bash and dash become the real bash, so that
//     what their scripts run is traced (below); setsid only drops its
//     options, so that nothing leaves the process group the oracle kills
//     on a timeout.
//
//   - Builtins and everything else bash runs: xtrace. BASH_ENV, which
//     every non-interactive bash sources (the one that runs the command
//     and any bash -c or sh -c inside it), sets PS4 and sends the trace to
//     a descriptor of its own (BASH_XTRACEFD). Bash prints each simple
//     command with its words after expansion, quoted so that they read
//     back exactly (parseTrace), before it looks the name up: builtins
//     (echo, read, eval, exec, command, cd, …), keywords (for, [[, ((),
//     assignments, and names no stub stands for. That makes a
//     command_not_found_handle redundant (xtrace has already printed the
//     name with its words), and a handler's own body would show in the
//     trace. Disabling builtins with enable -n, so that stubs stand for
//     them, would change what the command does: cd would not move, exec
//     and eval have no program to stand for them.
//
//   - Files: the whole temporary root of the world (home, project,
//     outside, the temporary directory) is compared before and after,
//     content, mode and names, symbolic links not followed.
//
//   - Values: the variables the corpus expands hold code
//     (oracleHostile), so that an expansion that evaluates a value runs a
//     command the stubs record.
//
// What it cannot see: a process that no stub stands for and that is not
// bash (a program named by an absolute path, the real dash run as
// /bin/sh); what those run shows only through the files they change.
// Reads are not watched. Running sh and dash as bash means dash's own
// reading of a script is not what runs.
//
// Safety: the command runs with HOME, TMPDIR and XDG_* inside the test's
// temporary directory, PATH holding only the stubs, no standard input,
// in a session of its own (no terminal to read from), and is killed with
// its process group after oracleTimeout; the oracle waits for every
// process it started (a pipe they all inherit reads end of file). When
// the test runs as root, the command runs as nobody, so that a matcher
// broken badly enough to allow a program named by an absolute path still
// cannot touch the machine's files, and in a network namespace of its
// own when the kernel grants one.

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
	"unicode"

	"github.com/asktui/asktui/interaction"
)

// nobody is the user a command runs as when the test runs as root.
const nobody = 65534

// oracleTimeout bounds one command's run. A command of the corpus takes
// milliseconds: the stubs do nothing. A variable for TestOracleTimeout.
var oracleTimeout = 10 * time.Second

// oracleStillRunning starts the finding of a run that timed out.
const oracleStillRunning = "still running after"

// The descriptors the oracle passes to bash: the trace, and a pipe every
// process inherits, whose end of file says that all of them are gone.
// High numbers, which no command of the corpus names.
const (
	oracleTraceFD    = 214
	oracleSentinelFD = 213
)

// oracleBlinds matches a command that names the oracle's descriptors in
// a redirection: closing or writing them would blind or fool the oracle,
// so it refuses to vouch for such a command.
var oracleBlinds = regexp.MustCompile(`[<>&]\s*21[34]\b|\b21[34]\s*[<>]`)

// oracleRules are the rules the oracle's corpus runs under: those of the
// command table and of the property test together, and Edit rules for
// docs/ and sub/ so that a redirection into them is allowed and one
// anywhere else is not.
var oracleRules = func() []string {
	var lines []string
	for _, l := range slices.Concat(commandRules, propertyRules, []string{
		"allow ~/src/app Edit(./docs/**)",
		"allow ~/src/app Edit(sub/**)",
	}) {
		if !slices.Contains(lines, l) {
			lines = append(lines, l)
		}
	}
	return lines
}()

// oracleRecorders are the programs the oracle stands in for with a stub
// that records its argv and does nothing: the names the corpus uses, and
// what an attacker would reach for. A name without a stub is still seen
// when bash runs it (the trace), or when a runner is asked to (the model
// in innerCommand).
var oracleRecorders = []string{
	"go", "git", "ls", "cat", "echo", "printf", "make", "curl", "wget", "rm", "touch", "python", "python3",
	"perl", "ruby", "node", "npm", "nc", "ssh", "scp", "id", "whoami", "sudo", "doas", "su", "pkexec", "runuser",
	"zsh", "fish", "ksh", "mksh", "ash", "csh", "tcsh", "busybox", "chroot", "nsenter", "unshare", "ionice",
	"taskset", "flock", "watch", "parallel", "script", "gotest", "lsof", "test", "true", "false", "sleep",
	"head", "tail", "grep", "find", "sed", "awk", "tee", "mkdir", "cp", "mv", "ln", "chmod", "chown", "dd",
	"install", "truncate", "pwd", "date", "uname", "kill", "yes", "sort", "wc", "tr", "cut", "vi", "less",
}

// oracleRunners are the programs that run the command after their
// options; their stubs exec the real one.
var oracleRunners = []string{"env", "xargs", "nohup", "timeout", "nice", "time", "stdbuf"}

// oracleShells are run as the real bash, traced like the command itself.
var oracleShells = []string{"sh", "bash", "dash"}

// oracleEnv is what the oracle runs with: the tools, found on the test's
// own PATH before a command's PATH becomes the stubs, and how to start
// them.
type oracleEnv struct {
	bash, stubShell string
	real            map[string]string // a runner's real program
	nobody          bool              // run as nobody (65534), not as the test's own user
	cloneflags      uintptr
	missing         string // why the oracle cannot run, or ""
}

// findOracle looks the tools up once per test binary.
var findOracle = sync.OnceValue(func() *oracleEnv {
	e := &oracleEnv{real: map[string]string{}}
	var err error
	if e.bash, err = exec.LookPath("bash"); err != nil {
		e.missing = "no bash on PATH"
		return e
	}
	if e.stubShell, err = exec.LookPath("dash"); err != nil {
		if e.stubShell, err = exec.LookPath("sh"); err != nil {
			e.missing = "no POSIX sh on PATH for the stubs"
			return e
		}
	}
	for _, name := range oracleRunners {
		if p, err := exec.LookPath(name); err == nil {
			e.real[name] = p
		}
	}
	if os.Geteuid() == 0 {
		e.nobody = true
		// A network namespace of its own, when the kernel grants one.
		probe := exec.CommandContext(context.Background(), e.bash, "--norc", "--noprofile", "-c", ":") //nolint:gosec // the test's own command
		probe.SysProcAttr = &syscall.SysProcAttr{Cloneflags: syscall.CLONE_NEWNET}
		if probe.Run() == nil {
			e.cloneflags = syscall.CLONE_NEWNET
		}
	}
	return e
})

// needOracle skips tb when the oracle cannot run here, or under -short
// (it starts a few processes for every command), and keeps the stubs
// until tb ends.
func needOracle(tb testing.TB) {
	tb.Helper()
	if e := findOracle(); e.missing != "" {
		tb.Skip("the rules oracle cannot run: " + e.missing)
	}
	if testing.Short() {
		tb.Skip("the rules oracle runs commands; not under -short")
	}
	if _, err := acquireStubs(tb, findOracle()); err != nil {
		tb.Fatal(err)
	}
}

// oracleOnTmpfs moves tb's temporary directories (the worlds, one for
// each command the oracle runs) to /dev/shm when the test can write
// there: on a disk, making and removing a few dozen files for each
// command costs more than running it. Not for parallel tests (Setenv).
func oracleOnTmpfs(tb testing.TB) {
	const shm = "/dev/shm"
	if dir, err := os.MkdirTemp(shm, "asktui-oracle-"); err == nil {
		_ = os.Remove(dir)
		tb.Setenv("TMPDIR", shm)
	}
}

// record is one command that ran, as a stub recorded it or bash traced
// it.
type record struct {
	traced bool     // from bash's trace; else a stub ran
	cwd    string   // the directory it ran in, symbolic links resolved
	argv   []string // its words; for a stub, argv[0] is the stub's name
}

func (r record) String() string {
	how := "ran"
	if r.traced {
		how = "bash ran"
	}
	return fmt.Sprintf("%s %q in %s", how, r.argv, r.cwd)
}

// finding is one thing a run did that the rules do not allow.
type finding struct {
	kind string // one of the find* kinds, to group findings by
	what string
}

func (f finding) String() string { return f.kind + ": " + f.what }

// The kinds of findings.
const (
	findUncovered = "ran a command no allow rule covers"
	findBare      = "ran a wrapper or shell with no command after it"
	findOpaque    = "ran a wrapper or shell with options or variables the oracle does not read"
	findXargs     = "xargs ran a wrapper or shell, whose command comes from its input"
	findDenied    = "ran a command a deny rule matches"
	findControl   = "ran a command with a control character in a word"
	findFile      = "changed a file no Edit rule covers"
	findProtected = "changed .git/ or the rules file"
	findWatch     = "could not be watched"
)

// oracleError is what runOracle found: the command did something the
// rules do not allow, or could not be watched.
type oracleError struct {
	cmd      string
	findings []finding
}

func (e *oracleError) Error() string {
	lines := make([]string, len(e.findings))
	for i, f := range e.findings {
		lines[i] = "\t" + f.String()
	}
	return fmt.Sprintf("the oracle ran %q and saw what the rules do not allow:\n%s", e.cmd, strings.Join(lines, "\n"))
}

// kinds returns the kinds of e's findings, sorted, each once.
func (e *oracleError) kinds() []string {
	var ks []string
	for _, f := range e.findings {
		if !slices.Contains(ks, f.kind) {
			ks = append(ks, f.kind)
		}
	}
	sort.Strings(ks)
	return ks
}

// runOracle runs cmd with bash in w's project, whatever the rules say
// (callers run what s.Decide allows), and checks what ran and what
// changed against s: every command that ran must be covered by an allow
// rule of s whose directory holds where it ran (a wrapper such as
// timeout 60 or env needs none when a command follows it), no deny rule
// may match one, and every file that changed anywhere under w's
// temporary root must be covered by an Edit rule (never .git/ nor the
// rules file). ran is what ran, changed the files that changed; err is
// an *oracleError listing what the rules do not allow, or the reason the
// run failed. Safe to call from several goroutines, with distinct
// worlds.
//
// cmd must name no path outside w's root but /dev/null (oracleLocal
// rewrites /tmp/): the command runs for real.
func runOracle(t testing.TB, s *Set, w world, cmd string) (ran []record, changed []string, err error) {
	t.Helper()
	e := findOracle()
	if e.missing != "" {
		return nil, nil, errors.New("the rules oracle cannot run: " + e.missing)
	}
	if oracleBlinds.MatchString(cmd) {
		return nil, nil, &oracleError{cmd, []finding{{findWatch, "the command redirects the oracle's own descriptors"}}}
	}
	bin, err := acquireStubs(t, e)
	if err != nil {
		return nil, nil, err
	}
	root := filepath.Dir(w.home)
	o, err := e.prepare(bin, root, s, w)
	if err != nil {
		return nil, nil, err
	}
	skip := func(p string) bool { return p == o.log }
	before, err := snapshot(root, skip)
	if err != nil {
		return nil, nil, err
	}
	var found []finding
	timedOut, err := o.run(cmd, w.proj)
	if err != nil {
		return nil, nil, err
	}
	if timedOut {
		found = append(found, finding{findWatch, fmt.Sprintf("%s %v; killed", oracleStillRunning, oracleTimeout)})
	}
	after, err := snapshot(root, skip)
	if err != nil {
		return nil, nil, err
	}
	changed = diffSnapshots(before, after)
	ran, err = o.records(timedOut)
	if err != nil {
		found = append(found, finding{findWatch, err.Error()})
	}
	found = append(found, oracleCheck(s, w, ran, changed)...)
	if len(found) > 0 {
		return ran, changed, &oracleError{cmd, found}
	}
	return ran, changed, nil
}

// oracleRun is one prepared run: BASH_ENV and the directory the records
// go to, in a directory of their own under the world's root.
type oracleRun struct {
	e                          *oracleEnv
	bin, dir, log, trace, out  string
	nonce, bashEnv, root, home string
}

// prepare makes the run's directory and the world's fixtures.
func (e *oracleEnv) prepare(bin, root string, s *Set, w world) (*oracleRun, error) {
	dir, err := os.MkdirTemp(root, ".oracle-")
	if err != nil {
		return nil, err
	}
	if err := os.Chmod(dir, 0o755); err != nil { //nolint:gosec // the command reads BASH_ENV from it
		return nil, err
	}
	var nonce [6]byte
	if _, err := rand.Read(nonce[:]); err != nil {
		return nil, err
	}
	o := &oracleRun{e: e, bin: bin, dir: dir, log: filepath.Join(dir, "log"), root: root, home: w.home,
		nonce: "oracle" + hex.EncodeToString(nonce[:]), bashEnv: filepath.Join(dir, "bashenv")}
	o.trace, o.out = filepath.Join(o.log, "trace"), filepath.Join(o.log, "out")
	if err := os.Mkdir(o.log, 0o755); err != nil { //nolint:gosec // the stubs write to it
		return nil, err
	}
	if err := os.WriteFile(o.bashEnv, []byte(o.bashEnvScript()), 0o644); err != nil { //nolint:gosec // read by the command
		return nil, err
	}
	if err := oracleFixtures(s, w); err != nil {
		return nil, err
	}
	if e.nobody {
		if err := handOver(root, dir, o.bashEnv); err != nil {
			return nil, err
		}
	}
	return o, nil
}

// oracleStubs is the directory of stubs, shared by the runs of a test:
// made when the first test that runs the oracle needs it, removed when
// the last one ends. It stays the test's (the command can run the stubs,
// not change them). Creating a hundred links for every run would cost
// more than the run.
var oracleStubs struct {
	sync.Mutex
	dir, bin string
	users    int
}

// acquireStubs returns the stubs' directory, made if need be, and keeps
// it until tb ends.
func acquireStubs(tb testing.TB, e *oracleEnv) (string, error) {
	oracleStubs.Lock()
	defer oracleStubs.Unlock()
	if oracleStubs.users == 0 {
		dir, err := makeStubs(e)
		if err != nil {
			return "", err
		}
		oracleStubs.dir, oracleStubs.bin = dir, filepath.Join(dir, "bin")
	}
	oracleStubs.users++
	bin := oracleStubs.bin
	tb.Cleanup(func() {
		oracleStubs.Lock()
		defer oracleStubs.Unlock()
		if oracleStubs.users--; oracleStubs.users == 0 {
			_ = os.RemoveAll(oracleStubs.dir) // a test's clean-up
			oracleStubs.dir, oracleStubs.bin = "", ""
		}
	})
	return bin, nil
}

// makeStubs writes the stub and links every name to it, in a new
// directory named after the test process, and removes those of processes
// that are gone (a fuzzing worker is stopped without its clean-up).
func makeStubs(e *oracleEnv) (dir string, err error) {
	old, _ := filepath.Glob(filepath.Join(os.TempDir(), "asktui-oracle-*-*"))
	for _, d := range old {
		pid, _, _ := strings.Cut(strings.TrimPrefix(filepath.Base(d), "asktui-oracle-"), "-")
		if _, err := os.Stat(filepath.Join("/proc", pid)); errors.Is(err, fs.ErrNotExist) {
			_ = os.RemoveAll(d)
		}
	}
	dir, err = os.MkdirTemp("", "asktui-oracle-"+strconv.Itoa(os.Getpid())+"-")
	if err != nil {
		return "", err
	}
	defer func() {
		if err != nil {
			_ = os.RemoveAll(dir)
		}
	}()
	if err := os.Chmod(dir, 0o755); err != nil { //nolint:gosec // the command runs the stubs
		return "", err
	}
	stub := filepath.Join(dir, "stub")
	if err := os.WriteFile(stub, []byte(e.stubScript()), 0o755); err != nil { //nolint:gosec // a program
		return "", err
	}
	bin := filepath.Join(dir, "bin")
	if err := os.Mkdir(bin, 0o755); err != nil { //nolint:gosec // the command's PATH
		return "", err
	}
	for _, name := range slices.Concat(oracleRecorders, oracleRunners, oracleShells, []string{"setsid"}) {
		if err := os.Symlink(stub, filepath.Join(bin, name)); err != nil {
			return "", err
		}
	}
	return dir, nil
}

// stubScript is the one stub every name on PATH links to: it records
// that the name ran (argument count, directory, name, arguments, each
// ending in a NUL) to a file named by its PID in the run's log directory,
// which ASKTUI_ORACLE_LOG names, then runs what a runner runs, or
// nothing. A command can only take that variable away with env -i, env
// -u, an assignment or unset, which are findings of their own; without
// it the stub runs nothing.
func (e *oracleEnv) stubScript() string {
	var b strings.Builder
	b.WriteString("#!" + e.stubShell + "\n" +
		"# asktui's rules oracle (oracle_test.go): every name on PATH is a link to this stub.\n" +
		"name=${0##*/}\n" +
		"[ -d \"$ASKTUI_ORACLE_LOG\" ] || exit 126\n" +
		"cd -P . 2>/dev/null\n" +
		"printf '%s\\0' \"$#\" \"$PWD\" \"$name\" \"$@\" >>\"$ASKTUI_ORACLE_LOG/$$\" || exit 126\n" +
		"case $name in\n")
	for _, name := range oracleRunners {
		prog, ok := e.real[name]
		switch {
		case !ok: // innerCommand still checks what it was asked to run
		case name == "timeout":
			// --foreground: GNU timeout would otherwise put itself in a
			// process group of its own, out of the oracle's reach.
			b.WriteString(name + ") exec " + shQuote(prog) + " --foreground \"$@\" ;;\n")
		default:
			b.WriteString(name + ") exec " + shQuote(prog) + " \"$@\" ;;\n")
		}
	}
	// A shell with options beyond -c, -e, -u, -x and -v (a login shell
	// reads /etc/profile, which resets PATH) is a finding already: it is
	// recorded and not run.
	b.WriteString(strings.Join(oracleShells, "|") + ")\n" +
		"\tfor a; do case $a in --*|-*[!euxvc]*|+*) exit 126 ;; -*) ;; *) break ;; esac; done\n" +
		"\texec " + shQuote(e.bash) + " \"$@\" ;;\n")
	// setsid would leave the process group; running the command without
	// a new session changes nothing the oracle checks.
	b.WriteString("setsid)\n" +
		"\twhile :; do case $1 in -c|-f|-w|--ctty|--fork|--wait) shift ;; --) shift; break ;; *) break ;; esac; done\n" +
		"\texec \"$@\" ;;\n" +
		"esac\n")
	return b.String()
}

// bashEnvScript is the file BASH_ENV names: it turns xtrace on, into the
// trace file, with a PS4 that starts each record with a byte and a nonce
// the command does not know in advance, and the directory it runs in.
// Limits keep a runaway command from eating the machine. BASH_XTRACEFD
// is set last: under bash -x the lines before it go to standard error,
// never into the records.
func (o *oracleRun) bashEnvScript() string {
	return "# asktui's rules oracle (oracle_test.go): trace every command bash runs.\n" +
		"ulimit -v 2097152 -f 65536 2>/dev/null\n" +
		"PS4=$'\\036'" + o.nonce + "' ${PWD@Q} '\n" +
		"exec " + strconv.Itoa(oracleTraceFD) + ">>" + shQuote(o.trace) + "\n" +
		"set -x\n" +
		"BASH_XTRACEFD=" + strconv.Itoa(oracleTraceFD) + "\n"
}

// oracleHostile are the variables the corpus's commands expand, with
// values that run a recorded command (touch) wherever bash evaluates a
// value as code: arithmetic, indirection, subscripts and prompt
// expansion all expand the $(…) in q[…]. X is empty, so that ${X:-…}
// takes its default.
var oracleHostile = []string{"Y", "Z", "P", "Q", "N", "PKG", "OUT", "CMD", "GO", "FOO", "x", "y", "z", "p", "i", "n"}

// env is the command's whole environment.
func (o *oracleRun) env() []string {
	env := []string{
		"PATH=" + o.bin, "HOME=" + o.home, "TMPDIR=" + filepath.Join(o.root, "tmp"),
		"XDG_CONFIG_HOME=" + filepath.Join(o.home, ".config"), "XDG_CACHE_HOME=" + filepath.Join(o.home, ".cache"),
		"XDG_DATA_HOME=" + filepath.Join(o.home, ".local", "share"), "XDG_STATE_HOME=" + filepath.Join(o.home, ".local", "state"),
		"XDG_RUNTIME_DIR=" + filepath.Join(o.root, "run"), "BASH_ENV=" + o.bashEnv, "ASKTUI_ORACLE_LOG=" + o.log,
		"LC_ALL=C", "X=",
	}
	for _, v := range oracleHostile {
		env = append(env, v+"=q[$(touch pwned-by-"+v+")]")
	}
	return env
}

// run runs cmd with bash in dir and waits until every process it started
// is gone (the sentinel pipe reads end of file), or kills its process
// group after oracleTimeout.
func (o *oracleRun) run(cmd, dir string) (timedOut bool, err error) {
	out, err := os.OpenFile(o.out, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return false, err
	}
	defer func() { _ = out.Close() }()
	r, wr, err := os.Pipe()
	if err != nil {
		return false, err
	}
	defer func() { _ = r.Close() }()
	ctx, cancel := context.WithTimeout(context.Background(), oracleTimeout)
	defer cancel()
	c := exec.CommandContext(ctx, o.e.bash, "--norc", "--noprofile", "-c", cmd)      //nolint:gosec // running it is the point
	c.Cancel = func() error { return syscall.Kill(-c.Process.Pid, syscall.SIGKILL) } // the whole group
	c.Dir, c.Env, c.Stdout, c.Stderr = dir, o.env(), out, out
	c.ExtraFiles = make([]*os.File, oracleSentinelFD-2) // nil entries: closed in the child
	c.ExtraFiles[oracleSentinelFD-3] = wr
	c.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Cloneflags: o.e.cloneflags}
	if o.e.nobody {
		c.SysProcAttr.Credential = &syscall.Credential{Uid: nobody, Gid: nobody, Groups: []uint32{}}
	}
	err = c.Start()
	_ = wr.Close() // the processes hold it now
	if err != nil {
		return false, err
	}
	gone := make(chan struct{})
	go func() {
		_, _ = io.Copy(io.Discard, r) // end of file: every process is gone
		close(gone)
	}()
	select {
	case <-gone:
	case <-ctx.Done():
		timedOut = true
		_ = syscall.Kill(-c.Process.Pid, syscall.SIGKILL)
		_ = r.Close() // a process that left the group may still hold the pipe
		<-gone
	}
	_ = c.Wait() // its exit status is the command's business
	return timedOut, nil
}

// records reads what the stubs recorded and what bash traced.
func (o *oracleRun) records(partial bool) ([]record, error) {
	entries, err := os.ReadDir(o.log)
	if err != nil {
		return nil, err
	}
	var recs []record
	var problems []string
	for _, ent := range entries {
		data, err := os.ReadFile(filepath.Join(o.log, ent.Name()))
		if err != nil {
			return nil, err
		}
		var rs []record
		switch ent.Name() {
		case "out": // what the command printed
		case "trace":
			rs, err = parseTrace(data, o.nonce, partial)
		default:
			rs, err = parseStubLog(data, partial)
		}
		if err != nil {
			problems = append(problems, ent.Name()+": "+err.Error())
		}
		recs = append(recs, rs...)
	}
	resolved := map[string]string{}
	for i := range recs {
		cwd := recs[i].cwd
		if _, ok := resolved[cwd]; !ok {
			resolved[cwd] = cwd
			if r, err := filepath.EvalSymlinks(cwd); err == nil {
				resolved[cwd] = r
			}
		}
		recs[i].cwd = resolved[cwd]
	}
	if len(problems) > 0 {
		return recs, fmt.Errorf("the records cannot be read: %s", strings.Join(problems, "; "))
	}
	return recs, nil
}

// parseStubLog reads a stub's records: the argument count, the
// directory, the stub's name and the arguments, each ending in a NUL.
// partial tolerates a last record cut short by a kill.
func parseStubLog(data []byte, partial bool) ([]record, error) {
	fields := strings.Split(string(data), "\x00")
	if fields[len(fields)-1] != "" && !partial {
		return nil, errors.New("a stub's record does not end in a NUL")
	}
	fields = fields[:len(fields)-1]
	var recs []record
	for len(fields) > 0 {
		n, err := strconv.Atoi(fields[0])
		if err != nil || n < 0 || len(fields) < 3+n {
			if partial {
				break
			}
			return recs, fmt.Errorf("a stub's record is malformed at %q", fields[0])
		}
		recs = append(recs, record{cwd: fields[1], argv: fields[2 : 3+n]})
		fields = fields[3+n:]
	}
	return recs, nil
}

// parseTrace reads bash's xtrace: each record is one or more \036 (PS4's
// first byte, repeated for each level of nesting), the nonce, the
// directory and the command's words, quoted as bash quotes them
// (traceWords), up to an unquoted newline. Anything else means the trace
// was tampered with, and is an error: the oracle then cannot vouch for
// the command.
func parseTrace(data []byte, nonce string, partial bool) ([]record, error) {
	s := string(data)
	var recs []record
	for s != "" {
		rest := strings.TrimLeft(s, "\x1e")
		if len(rest) == len(s) || !strings.HasPrefix(rest, nonce+" ") {
			return recs, fmt.Errorf("the trace holds something that is not a record: %q", clip(s))
		}
		words, n, err := traceWords(rest[len(nonce)+1:])
		if err != nil {
			if partial {
				break
			}
			return recs, fmt.Errorf("%w in %q", err, clip(rest))
		}
		if len(words) > 1 {
			recs = append(recs, record{traced: true, cwd: words[0], argv: words[1:]})
		}
		s = rest[len(nonce)+1+n:]
	}
	return recs, nil
}

// traceWords reads one xtrace line's words from s up to an unquoted
// newline, and returns how many bytes it read. Bash writes a word bare
// when it holds no character special to the shell, in single quotes
// ('\” for a quote) when it does, and as $'…' with escapes when it holds
// a character that does not print; ” is the empty word.
func traceWords(s string) (words []string, n int, err error) {
	var cur strings.Builder
	in := false
	end := func() {
		if in {
			words = append(words, cur.String())
			cur.Reset()
			in = false
		}
	}
	for i := 0; i < len(s); {
		switch c := s[i]; {
		case c == '\n':
			end()
			return words, i + 1, nil
		case c == ' ':
			end()
			i++
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, 0, errors.New("an unterminated quote")
			}
			cur.WriteString(s[i+1 : i+1+j])
			i, in = i+j+2, true
		case c == '$' && strings.HasPrefix(s[i:], "$'"):
			k, err := traceANSIC(s[i+2:], &cur)
			if err != nil {
				return nil, 0, err
			}
			i, in = i+2+k, true
		case c == '\\' && i+1 < len(s):
			cur.WriteByte(s[i+1])
			i, in = i+2, true
		default:
			cur.WriteByte(c)
			i, in = i+1, true
		}
	}
	return nil, 0, errors.New("a record without its newline")
}

// traceANSIC decodes the inside of $'…' from s into b, up to and including
// the closing quote, and returns how many bytes it read. It knows the
// escapes bash's ansic_quote writes, and the common others.
func traceANSIC(s string, b *strings.Builder) (int, error) {
	simple := map[byte]byte{'a': 7, 'b': 8, 'e': 27, 'E': 27, 'f': 12, 'n': 10, 'r': 13, 't': 9, 'v': 11,
		'\\': '\\', '\'': '\'', '"': '"', '?': '?'}
	for i := 0; i < len(s); {
		switch {
		case s[i] == '\'':
			return i + 1, nil
		case s[i] != '\\':
			b.WriteByte(s[i])
			i++
		case i+1 >= len(s):
			return 0, errors.New("an unterminated $'…'")
		case simple[s[i+1]] != 0:
			b.WriteByte(simple[s[i+1]])
			i += 2
		case s[i+1] >= '0' && s[i+1] <= '7':
			j := i + 1
			for j < len(s) && j < i+4 && s[j] >= '0' && s[j] <= '7' {
				j++
			}
			v, _ := strconv.ParseUint(s[i+1:j], 8, 8)
			b.WriteByte(byte(v))
			i = j
		case s[i+1] == 'x':
			j := i + 2
			for j < len(s) && j < i+4 && strings.IndexByte("0123456789abcdefABCDEF", s[j]) >= 0 {
				j++
			}
			v, err := strconv.ParseUint(s[i+2:j], 16, 8)
			if err != nil {
				return 0, errors.New("a bad \\x escape in $'…'")
			}
			b.WriteByte(byte(v))
			i = j
		default:
			return 0, fmt.Errorf("an escape \\%c the oracle does not read in $'…'", s[i+1])
		}
	}
	return 0, errors.New("an unterminated $'…'")
}

// clip shortens s for a message.
func clip(s string) string {
	if len(s) > 120 {
		return s[:120] + "…"
	}
	return s
}

// oracleCheck returns what ran and what changed that the rules of s, in
// w's project, do not allow.
func oracleCheck(s *Set, w world, ran []record, changed []string) []finding {
	c := newChecker(s, w)
	var found []finding
	seen := map[string]bool{}
	add := func(f finding) {
		if !seen[f.String()] {
			seen[f.String()] = true
			found = append(found, f)
		}
	}
	checked := map[string]bool{} // a loop runs the same command many times
	for _, r := range ran {
		if k := r.String(); !checked[k] {
			checked[k] = true
			for _, f := range c.command(r.argv, r.cwd, false, k) {
				add(f)
			}
		}
	}
	for _, p := range changed {
		switch {
		case within(p, filepath.Join(w.proj, ".git")) || p == oracleRulesFile(w):
			add(finding{findProtected, p})
		case !c.edits(p):
			add(finding{findFile, p})
		}
	}
	return found
}

// checker holds the rules of a set that stand in a world's project.
type checker struct {
	allowCmd, denyCmd, allowEdit, denyEdit []Rule
}

func newChecker(s *Set, w world) *checker {
	c := &checker{}
	session := w.exec("").Session
	for _, r := range s.rules {
		if !r.ok || (r.Session != "" && r.Session != session) || !within(w.proj, r.dir) {
			continue
		}
		switch {
		case r.Spec.Kind == interaction.KindExecute && r.Action == Allow:
			c.allowCmd = append(c.allowCmd, r)
		case r.Spec.Kind == interaction.KindExecute:
			c.denyCmd = append(c.denyCmd, r)
		case r.Spec.Kind == interaction.KindEdit && r.Action == Allow:
			c.allowEdit = append(c.allowEdit, r)
		case r.Spec.Kind == interaction.KindEdit:
			c.denyEdit = append(c.denyEdit, r)
		}
	}
	return c
}

// command checks one command that ran (or that a wrapper was asked to
// run) in cwd; tail says that xargs adds words of its input after argv.
// A command is allowed when an allow rule whose directory holds cwd
// covers its words, no deny rule matches them (or them with the
// command's base name), and no word holds a control character. A
// wrapper needs no rule of its own when a command the oracle can read
// follows it: that command must then be allowed (it is also recorded
// when it runs, with its real words). A wrapper with nothing after it
// is a command of its own.
func (c *checker) command(argv []string, cwd string, tail bool, what string) []finding {
	if len(argv) == 0 {
		return nil
	}
	var found []finding
	for _, w := range argv {
		if i := strings.IndexFunc(w, controlRune); i >= 0 {
			found = append(found, finding{findControl, fmt.Sprintf("%s: %U in %q", what, []rune(w[i:])[0], w)})
			break
		}
	}
	key := strings.Join(argv, sep)
	if tail {
		key += sep + dyn
	}
	base := append([]string{path.Base(argv[0])}, argv[1:]...)
	baseKey := strings.Join(base, sep)
	for _, r := range c.denyCmd {
		if r.Spec.cmd.match(key) || r.Spec.cmd.match(baseKey) {
			found = append(found, finding{findDenied, fmt.Sprintf("%s: denied by %s", what, r)})
		}
	}
	if argv[0] == "cd" {
		return found // a builtin that moves; what runs after it is checked where it runs
	}
	for _, r := range c.allowCmd {
		if within(cwd, r.dir) && r.Spec.cmd.match(key) {
			return found
		}
	}
	inner, kind := innerCommand(argv)
	switch kind {
	case notWrapper:
		return append(found, finding{findUncovered, what})
	case bareWrapper:
		return append(found, finding{findBare, what})
	case opaqueWrapper:
		return append(found, finding{findOpaque, what})
	case shellScript:
		return found // the script's commands are traced
	default:
	}
	xargs := path.Base(argv[0]) == "xargs"
	if xargs {
		if _, k := innerCommand(inner); k != notWrapper {
			return append(found, finding{findXargs, what})
		}
	}
	return append(found, c.command(inner, cwd, tail || xargs, fmt.Sprintf("%s, which runs %q", what, inner))...)
}

// edits reports whether the Edit rules allow a change to the resolved
// path p.
func (c *checker) edits(p string) bool {
	for _, r := range c.denyEdit {
		if r.path.any || r.path.match(p) {
			return false
		}
	}
	for _, r := range c.allowEdit {
		if (r.path.any && within(p, r.dir)) || (!r.path.any && r.path.match(p)) {
			return true
		}
	}
	return false
}

// controlRune reports whether r, in a word of a command, could hide from
// the human what runs: a control character (ESC rewrites the terminal,
// CR returns over the line) other than tab and newline, or an invisible
// format character.
func controlRune(r rune) bool {
	return r != '\t' && r != '\n' && (unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == '\u2028' || r == '\u2029' || r == unicode.ReplacementChar)
}

// The kinds of command innerCommand tells apart.
const (
	notWrapper    = iota // runs no other command
	wrapsCommand         // runs the command it returns
	bareWrapper          // a wrapper or shell with nothing to run: a command of its own
	opaqueWrapper        // options or variables the oracle does not read
	shellScript          // sh -c SCRIPT: the script is traced
)

// innerCommand returns the command a wrapper runs, by the oracle's own
// reading of the real programs' options (not the matcher's): only the
// plain forms, anything else is opaque, a command of its own.
func innerCommand(argv []string) ([]string, int) {
	if len(argv) == 0 {
		return nil, notWrapper
	}
	name, args := path.Base(argv[0]), argv[1:]
	// flags: the options name takes, and whether each takes a value.
	flags := map[string]map[string]bool{
		"env": {}, "nohup": {}, "exec": {}, "command": {},
		"time":    {"-p": false},
		"nice":    {"-n": true},
		"timeout": {"-k": true, "-s": true, "--foreground": false, "--preserve-status": false, "-v": false, "--verbose": false},
		"xargs": {"-0": false, "--null": false, "-r": false, "--no-run-if-empty": false, "-t": false, "--verbose": false,
			"-x": false, "--exit": false, "-n": true, "-L": true, "-P": true, "-s": true, "-d": true, "-I": true, "-E": true, "-a": true},
		"stdbuf": {"-i": true, "-o": true, "-e": true},
		"setsid": {"-c": false, "-f": false, "-w": false, "--ctty": false, "--fork": false, "--wait": false},
	}
	if slices.Contains(oracleShells, name) {
		return shellInner(args)
	}
	known, ok := flags[name]
	if !ok {
		return nil, notWrapper
	}
	for len(args) > 0 && strings.HasPrefix(args[0], "-") && args[0] != "-" {
		opt := args[0]
		if opt == "--" {
			args = args[1:]
			break
		}
		if o, v, eq := strings.Cut(opt, "="); eq && strings.HasPrefix(o, "--") && v != "" {
			opt = o // --kill-after=5, --adjustment=5: the value is attached
			if _, ok := map[string]bool{"--kill-after": true, "--signal": true, "--adjustment": true,
				"--input": true, "--output": true, "--error": true, "--max-args": true}[opt]; ok {
				args = args[1:]
				continue
			}
		}
		takes, ok := known[opt]
		switch {
		case ok && takes:
			if len(args) < 2 {
				return nil, bareWrapper
			}
			args = args[2:]
		case ok:
			args = args[1:]
		case len(opt) > 2 && known[opt[:2]]: // -n5, -oL, -I{}: the value attached
			args = args[1:]
		case name == "nice" && isNumber(opt[1:]): // nice -5
			args = args[1:]
		default:
			return nil, opaqueWrapper
		}
	}
	if name == "env" && len(args) > 0 && strings.Contains(args[0], "=") {
		return nil, opaqueWrapper
	}
	if name == "timeout" {
		if len(args) == 0 {
			return nil, bareWrapper
		}
		args = args[1:] // the duration
	}
	if len(args) == 0 {
		return nil, bareWrapper
	}
	return args, wrapsCommand
}

// shellInner reads sh, bash or dash's arguments: -c SCRIPT, with only
// -e, -u, -x and -v besides, runs a script bash traces; a script file,
// standard input (no -c) or other options are the shell's own.
func shellInner(args []string) ([]string, int) {
	withC := false
	i := 0
	for ; i < len(args) && len(args[i]) > 1 && args[i][0] == '-'; i++ {
		if strings.Trim(args[i][1:], "euxvc") != "" {
			return nil, opaqueWrapper
		}
		withC = withC || strings.Contains(args[i], "c")
	}
	switch {
	case !withC && i == len(args):
		return nil, bareWrapper // commands from standard input
	case !withC:
		return nil, opaqueWrapper // a script file
	case i == len(args):
		return nil, bareWrapper // -c without a script
	default:
		return nil, shellScript
	}
}

// fileState is what the oracle compares of a file: its mode and type,
// and its content's hash or its link's target.
type fileState struct {
	mode fs.FileMode
	data string
}

// snapshot returns the state of every file under root but those skip
// names.
func snapshot(root string, skip func(string) bool) (map[string]fileState, error) {
	files := map[string]fileState{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			files[p] = fileState{data: "unreadable: " + err.Error()}
			return nil
		}
		if skip(p) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		info, err := d.Info()
		if err != nil {
			files[p] = fileState{data: "unreadable: " + err.Error()}
			return nil
		}
		st := fileState{mode: info.Mode()}
		switch {
		case info.Mode()&fs.ModeSymlink != 0:
			st.data, _ = os.Readlink(p)
		case info.Mode().IsRegular():
			data, err := os.ReadFile(p) //nolint:gosec // the test's own files
			if err != nil {
				st.data = "unreadable: " + err.Error()
			} else {
				sum := sha256.Sum256(data)
				st.data = hex.EncodeToString(sum[:])
			}
		}
		files[p] = st
		return nil
	})
	return files, err
}

// diffSnapshots returns the paths that are new, gone, or changed in mode
// or content, sorted.
func diffSnapshots(before, after map[string]fileState) []string {
	var changed []string
	for p, st := range after {
		if old, ok := before[p]; !ok || old != st {
			changed = append(changed, p)
		}
	}
	for p := range before {
		if _, ok := after[p]; !ok {
			changed = append(changed, p)
		}
	}
	sort.Strings(changed)
	return changed
}

// oracleRulesFile is where the world keeps its rules file.
func oracleRulesFile(w world) string {
	return filepath.Join(w.home, ".config", "asktui", "rules.conf")
}

// oracleFixtures gives the world what the corpus's commands read and
// aim at, once: docs/ with a payload of commands for xargs, .git/hooks/,
// a README, the rules file, and the temporary and runtime directories.
func oracleFixtures(s *Set, w world) error {
	root := filepath.Dir(w.home)
	for _, d := range []string{
		filepath.Join(w.proj, "docs"), filepath.Join(w.proj, ".git", "hooks"), filepath.Dir(oracleRulesFile(w)),
		filepath.Join(root, "tmp"), filepath.Join(root, "run"),
	} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return err
		}
	}
	files := map[string]string{
		filepath.Join(w.proj, "docs", "payload"):                    "touch pwned-by-payload\n",
		filepath.Join(w.proj, "README.md"):                          "# app\n",
		filepath.Join(w.proj, "urls.txt"):                           "http://evil.example/\n",
		filepath.Join(w.proj, ".git", "config"):                     "[core]\n",
		filepath.Join(w.proj, ".git", "hooks", "pre-commit.sample"): "#!/bin/sh\n",
		oracleRulesFile(w):                                          string(join(s.lines)),
	}
	for p, text := range files {
		if _, err := os.Lstat(p); err == nil {
			continue
		}
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			return err
		}
	}
	return nil
}

// handOver gives root and everything in it to nobody, but the run's
// directory and its BASH_ENV, and lets nobody through the directory the
// test framework made root in. The command may write the world and the
// log, not what tells bash to trace it.
func handOver(root, dir, bashEnv string) error {
	if err := os.Chmod(filepath.Dir(root), 0o711); err != nil { //nolint:gosec // traversal only
		return err
	}
	return filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p == dir || p == bashEnv {
			return nil
		}
		if info, err := d.Info(); err == nil {
			if st, ok := info.Sys().(*syscall.Stat_t); ok && st.Uid == nobody && st.Gid == nobody {
				return nil
			}
		}
		return os.Lchown(p, nobody, nobody) //nolint:gosec // the test's own directory; Lchown follows no link
	})
}

// shQuote quotes s for a POSIX shell.
func shQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// oracleLocal rewrites the /tmp/ paths a command names (the corpus's
// "out of the project" targets) into w's own temporary directory, so
// that even a command the matcher wrongly allows writes only where the
// oracle looks.
func oracleLocal(cmd string, w world) string {
	return strings.ReplaceAll(cmd, "/tmp/", filepath.Join(filepath.Dir(w.home), "tmp")+"/")
}

// TestOracleCatches runs the oracle on commands without asking the
// matcher: what each does must be found (or, for the clean ones, nothing
// must be), whatever the matcher says. It is the oracle's own test: it
// keeps its meaning when the matcher changes.
func TestOracleCatches(t *testing.T) {
	oracleOnTmpfs(t)
	needOracle(t)
	cases := []struct {
		cmd   string
		kinds []string // the kinds of finding expected; none: a clean run
	}{
		{"go test ./...", nil},
		{"go test ./... && go vet ./... | cat", nil},
		{"echo ./... | xargs go test", nil},
		{"xargs -r go test < docs/payload", nil},
		{"timeout -k 5 60 nice -n 5 nohup env go test ./...", nil},
		{"sh -c 'go test ./...'; bash -ec 'echo hi'; dash -c 'git status'", nil},
		{"exec go test", nil},
		{"command go test", nil},
		{"setsid go test", nil},
		{"stdbuf -oL go test", nil},
		{"cd sub && go test > ../docs/log.txt 2>&1", nil},
		{"go test \"$P\" ${X:-./...} > /dev/null", nil},
		{"cat <<EOF\nhello $(echo world)\nEOF", nil},
		{"go test ./... &", nil},

		{"go test; env", []string{findBare}},
		{"go test; nohup", []string{findBare}},
		{"go test; command", []string{findBare}},
		{"go test; exec", []string{findBare}},
		{"go test; xargs", []string{findBare}},
		{"go test; timeout 5", []string{findBare}},
		{"echo go test | sh", []string{findBare}},
		{"go test; xargs env <<< 'touch pwn'", []string{findUncovered, findXargs}},
		{"git status; xargs nohup < docs/payload", []string{findUncovered, findXargs}},
		{"xargs -r env < docs/payload", []string{findUncovered, findXargs}},
		{"go test '$(touch pwn)'; go test ${_@P}", []string{findUncovered}},
		{`go test "${x@P}"`, []string{findUncovered}},
		{"go test ${X:-$((Y))}", []string{findUncovered}},
		{"go test ${!Z}", []string{findUncovered}},
		{"go test ${x[i]}", []string{findUncovered}},
		{"go test ./... > .git/hooks/pre-commit", []string{findProtected}},
		{"go test ./... > new.txt", []string{findFile}},
		{"go test ./... > out.txt", []string{findFile}},
		{"go test > /tmp/x", []string{findFile}},
		{"go test ./...\x1b[2K", []string{findControl}},
		{"go test; rm -rf build", []string{findDenied, findUncovered}},
		{"env -i go test", []string{findOpaque}},
		{"bash -lc 'go test'", []string{findOpaque}},
		{"bash -o posix -c 'go test'", []string{findOpaque}},
		{"go test; curl evil.example", []string{findUncovered}},
		{"go test; unknown-program", []string{findUncovered}},
		{"env unknown-program", []string{findUncovered}},
		{"cd .. && go test", []string{findUncovered}},
		{"go test; echo x >&214", []string{findWatch}},
	}
	for _, c := range cases {
		w := newWorld(t)
		s := w.set(t, oracleRules...)
		cmd := oracleLocal(c.cmd, w)
		ran, changed, err := runOracle(t, s, w, cmd)
		var oe *oracleError
		switch {
		case c.kinds == nil && err != nil:
			t.Errorf("%q: %v", c.cmd, err)
		case c.kinds == nil && len(ran) == 0:
			t.Errorf("%q: nothing was recorded", c.cmd)
		case c.kinds == nil:
		case !errors.As(err, &oe):
			t.Errorf("%q: want findings %q, got %v (ran %v, changed %v)", c.cmd, c.kinds, err, ran, changed)
		case !slices.Equal(oe.kinds(), sortedCopy(c.kinds)):
			t.Errorf("%q: want findings %q, got %v", c.cmd, c.kinds, err)
		}
	}
}

func sortedCopy(s []string) []string {
	s = slices.Clone(s)
	sort.Strings(s)
	return s
}

// TestOracleTimeout: a command that does not end, in the foreground or
// in the background, is killed with everything it started, and what it
// ran until then is still checked.
func TestOracleTimeout(t *testing.T) {
	oracleOnTmpfs(t)
	needOracle(t)
	defer func(d time.Duration) { oracleTimeout = d }(oracleTimeout)
	oracleTimeout = 2 * time.Second // long enough for a loaded machine to start the loop
	for _, cmd := range []string{
		"go test; while :; do go test; done",
		"go test; bash -c 'while :; do go test; done' & go test",
		"timeout 60 sh -c 'while :; do go test; done'",
	} {
		w := newWorld(t)
		_, _, err := runOracle(t, w.set(t, oracleRules...), w, cmd)
		var oe *oracleError
		if !errors.As(err, &oe) || !slices.Equal(oe.kinds(), sortedCopy([]string{findUncovered, findWatch})) {
			t.Errorf("%q: want a timeout and the loop's commands, got %v", cmd, err)
		}
	}
}

// TestTraceWords: the trace reads back the words bash quoted.
func TestTraceWords(t *testing.T) {
	cases := []struct {
		in   string
		want []string
	}{
		{"go test ./...\n", []string{"go", "test", "./..."}},
		{"echo 'a b\nc' $'\\001\\E' '' 'it'\\''s'\n", []string{"echo", "a b\nc", "\x01\x1b", "", "it's"}},
		{"X='a b' $'\\320\\276'\n", []string{"X=a b", "\u043e"}},
	}
	for _, c := range cases {
		got, n, err := traceWords(c.in)
		if err != nil || n != len(c.in) || !slices.Equal(got, c.want) {
			t.Errorf("traceWords(%q) = %q, %d, %v; want %q", c.in, got, n, err, c.want)
		}
	}
	for _, bad := range []string{"'open\n", "$'\\q'\n", "no newline"} {
		if _, _, err := traceWords(bad); err == nil {
			t.Errorf("traceWords(%q) read it", bad)
		}
	}
	var buf bytes.Buffer
	buf.WriteString("\x1e\x1enonce '/p' go test\n\x1enonce '/p' echo 'a\nb'\n")
	recs, err := parseTrace(buf.Bytes(), "nonce", false)
	if err != nil || len(recs) != 2 || !slices.Equal(recs[1].argv, []string{"echo", "a\nb"}) {
		t.Errorf("parseTrace: %v, %v", recs, err)
	}
	if _, err := parseTrace([]byte("\x1eforged '/p' go test\n"), "nonce", false); err == nil {
		t.Error("parseTrace read a record without the nonce")
	}
}
