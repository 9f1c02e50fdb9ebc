//go:build linux

package rules

import (
	"regexp"
	"slices"
)

// The bypasses of the matcher as it is today, which the oracle catches.
// The rewrite of the shell matcher removes them: when it lands, empty
// knownBypasses and knownBypassKinds and set knownBypassSyntax to nil.
// TestOracle then fails on any command of the corpus that the new
// matcher still lets through, and FuzzOracle looks at every input.

// knownBypasses are the commands of the oracle's corpus that the current
// matcher allows (under oracleRules) and the oracle catches, grouped by
// what the oracle saw. TestOracle fails on a command of the list that is
// no longer allowed or no longer caught, so that the list stays true.
var knownBypasses = []string{
	// A redirection writes into .git/ (a hook runs at the next commit), whichever operator
	// writes it.
	"go test ./... > .git/hooks/pre-commit",
	"go test ./... >.git/hooks/pre-commit",
	"go test ./... >>.git/hooks/pre-commit",
	"go test ./... &>.git/hooks/pre-commit",
	"go test ./... &>>.git/hooks/pre-commit",
	"go test ./... >|.git/hooks/pre-commit",
	"go test ./... <>.git/hooks/pre-commit",
	"go test ./... >&.git/hooks/pre-commit",
	"go test ./... 2>.git/hooks/pre-commit",
	"go test ./... 2>>.git/hooks/pre-commit",
	"go test ./... 1>.git/hooks/pre-commit",
	"go test ./... 3>.git/hooks/pre-commit",
	"echo hi >> .git/hooks/pre-commit",
	"{ go test; } 2>&1 > .git/hooks/pre-commit",
	"go test ./... > .git/config",
	"echo hi >> .git/config",
	"{ go test; } 2>&1 > .git/config",

	// A redirection writes a file of the project that no Edit rule covers, whichever
	// operator writes it, also inside sh -c.
	"go test ./... >> new-file.txt",
	"sh -c 'go test > new.txt'",
	"go test | bash -ec 'go test > new.txt'",
	"go test ./... >new.txt",
	"go test ./... >>new.txt",
	"go test ./... &>new.txt",
	"go test ./... &>>new.txt",
	"go test ./... >|new.txt",
	"go test ./... <>new.txt",
	"go test ./... >&new.txt",
	"go test ./... 2>new.txt",
	"go test ./... 2>>new.txt",
	"go test ./... 1>new.txt",
	"go test ./... 3>new.txt",
	"go test ./... > new.txt",
	"echo hi >> new.txt",
	"{ go test; } 2>&1 > new.txt",
	"go test ./... > README.md",
	"echo hi >> README.md",
	"{ go test; } 2>&1 > README.md",

	// Prompt expansion (${x@P}, also ${_@P}, nested in another expansion, in a
	// here-string or a here-document, inside sh -c) and arithmetic nested in an
	// expansion (${X:-$((Y))}) run the $(…) a value holds: touch ran.
	"go test '$(touch pwn)'; go test ${_@P}",
	"go test \"${x@P}\"",
	"go test ${X:-$((Y))}",
	"sh -c 'go test \"${x@P}\"'",
	"go test | bash -ec 'go test \"${x@P}\"'",
	"go test ${x@P}",
	"go test ${X:-${x@P}}",
	"go test ${x/a/${x@P}}",
	"go test ${X/a/${x@P}}",
	"go test ${X:-\"${x@P}\"}",
	"go test ${X:-${X:-${Z@P}}}",
	"go test ${x#${x@P}}",
	"go test <<< ${x@P}",
	"cat <<EOF\n${x@P}\nEOF",
	"go test \"${x/a/${x@P}}\"",
	"go test <<< ${x/a/${x@P}}",
	"cat <<EOF\n${x/a/${x@P}}\nEOF",
	"go test \"${x#${x@P}}\"",
	"go test <<< ${x#${x@P}}",
	"cat <<EOF\n${x#${x@P}}\nEOF",

	// xargs runs a wrapper, which runs what xargs reads: touch ran.
	"go test; xargs env <<< \"touch pwn\"",
	"git status; xargs nohup < docs/payload",
	"sh -c 'echo hi | xargs env'",
	"go test | bash -ec 'echo hi | xargs env'",
	"echo ./... | xargs env",
	"go test; xargs -r env < docs/payload",
	"echo ./... | xargs nohup",
	"go test; xargs -r nohup < docs/payload",

	// A control or invisible format character in a word (ESC [2K erases the line the
	// human reads, CR returns over it, U+202E reverses it), however it is written.
	"go test ./...\x1b[2K",
	"go test ./...\r",
	"go test $'\\e[2K'",
	"go test \"\x1b[2K\"",
	"go test ./...\u202e",
	"go test $'\\x1f'x",
	"echo $'\\e]0;title\\a'",

	// A wrapper with nothing after it is a command of its own (env prints the
	// environment), also nested and inside sh -c.
	"go test; env",
	"go test; nohup",
	"go test; command",
	"go test; exec",
	"env; go test",
	"nohup; go test",
	"exec; go test",
	"command; go test",
	"go test; env env",
	"go test; nohup env",
	"go test; exec env",
	"go test; command env",
	"go test; time env",
	"go test; nice env",
	"go test; timeout 5 env",
	"go test; sh -c env",
	"sh -c 'go test; env'",
	"go test | bash -ec 'go test; env'",

	// xargs with a wrapper and nothing after it: the wrapper runs what xargs reads.
	"go test; xargs env",
	"go test | bash -ec 'xargs nohup'",

	// xargs runs a wrapper or a shell, so the command it runs is not the one written
	// out (xargs env go test < f runs env go test WORDS…, harmless here, but xargs
	// env < f runs f; xargs command and xargs exec name no program at all).
	"xargs env go test",
	"xargs xargs go test",
	"xargs sh -c 'go test'",
	"echo ./... | xargs sh -c 'go test'",
	"xargs sh -c 'go test' < docs/payload",
	"xargs sh -c 'go test' <<< \"touch pwn\"",
	"go test; xargs -r sh -c 'go test' < docs/payload",
	"echo ./... | xargs command",
	"go test; xargs -r command < docs/payload",
	"echo ./... | xargs exec",
	"go test; xargs -r exec < docs/payload",
	"echo ./... | xargs env go test",
	"xargs env go test < docs/payload",
	"xargs env go test <<< \"touch pwn\"",
	"go test; xargs -r env go test < docs/payload",
	"echo ./... | xargs nohup go test",
	"xargs nohup go test < docs/payload",
	"xargs nohup go test <<< \"touch pwn\"",
	"go test; xargs -r nohup go test < docs/payload",
	"echo ./... | xargs xargs go test",
	"xargs xargs go test < docs/payload",
	"xargs xargs go test <<< \"touch pwn\"",
	"go test; xargs -r xargs go test < docs/payload",
}

// knownBypassKinds are the kinds of finding that the current matcher lets
// through in forms the fuzzer finds at once (any wrapper left bare, any
// redirection into the project, any control character): FuzzOracle
// passes over a run whose findings are all of these kinds.
var knownBypassKinds = []string{findBare, findXargs, findControl, findFile, findProtected}

// knownBypassSyntax matches the inputs that hold a construct through
// which the current matcher lets a value run code, or a command come
// from xargs's input: prompt expansion, arithmetic (nested in another
// expansion), xargs. FuzzOracle passes over them.
var knownBypassSyntax = regexp.MustCompile(`@P|\$\(\(|\$\[|xargs`)

// knownBypass reports whether FuzzOracle passes over cmd, or over a run
// of it whose findings are of kinds (none: before it runs).
func knownBypass(cmd string, kinds []string) bool {
	if knownBypassSyntax != nil && knownBypassSyntax.MatchString(cmd) || slices.Contains(knownBypasses, cmd) {
		return true
	}
	for _, k := range kinds {
		if !slices.Contains(knownBypassKinds, k) {
			return false
		}
	}
	return len(kinds) > 0
}
