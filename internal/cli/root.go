package cli

import (
	"context"
	"errors"
	"io"

	"charm.land/fang/v2"
	"github.com/spf13/cobra"

	"github.com/asktui/asktui/interaction"
)

// run executes the asktui command line args and returns the process exit
// code. It prints the answer on e.stdout and failures on e.stderr; see
// exit.go for the codes.
func run(ctx context.Context, args []string, e env) int {
	if args == nil {
		args = []string{} // cobra would read os.Args
	}
	root := newRootCmd(e)
	root.SetArgs(args)
	root.SetIn(e.stdin)
	root.SetOut(helpOut(e.stdout))
	root.SetErr(e.stderr)
	failed := keepCoded(root)
	// cobra adds --version (and -v) for a root with a Version; the template
	// prints it as it is. fang's own version line has the version and a
	// short commit only.
	root.Version = e.build.provenance().String()
	root.SetVersionTemplate("{{.Version}}")

	err := fang.Execute(ctx, root,
		fang.WithoutVersion(),
		fang.WithErrorHandler(errorHandler(e.stderr)),
		fang.WithoutManpage(), // newManCmd instead
	)
	if err == nil && *failed != nil {
		err = *failed
		reportError(e.stderr, coded(err), isTerminal(e.stderr))
	}
	return exitCode(err)
}

// keepCoded makes every command hand its coded failure (an
// *interaction.Error) to the returned pointer instead of to fang, which
// run reports itself. Before styling a failure, fang asks the terminal
// for its background colour whenever standard output is one, and waits up
// to 2 s for terminals that never answer: after a declined question, say.
// Usage errors still go to fang, styled.
func keepCoded(root *cobra.Command) *error {
	var failed error
	var wrap func(c *cobra.Command)
	wrap = func(c *cobra.Command) {
		if run := c.RunE; run != nil {
			c.RunE = func(cmd *cobra.Command, args []string) error {
				err := run(cmd, args)
				var ie *interaction.Error
				if errors.As(err, &ie) {
					failed = err
					return nil
				}
				return err
			}
		}
		for _, sub := range c.Commands() {
			wrap(sub)
		}
	}
	wrap(root)
	return &failed
}

// newRootCmd builds the command tree. fang adds styled help; cobra adds
// `completion`.
func newRootCmd(e env) *cobra.Command {
	root := &cobra.Command{
		Use:   "asktui",
		Short: "Answer the questions AI agents ask, in your terminal",
		Long: `asktui puts the questions an AI agent asks in front of you, in the terminal,
and hands your answers back as JSON.

A request is one or more questions; each is single-select, multi-select or
free text, and every option list also takes free "Other" text. The UI draws
on the terminal, never on standard output, so asktui fits in pipes and shell
scripts: standard output carries only the answer, and the exit code says
whether you answered (0), declined (1), or the request was bad (2).`,
		Example: `  # Ask the questions in a request file
  asktui ask examples/setup.json

  # Pipe a request in and the answer out
  cat examples/setup.json | asktui ask |
    jq -r '.answers[0].selected[0]'

  # Build a question from flags
  asktui ask "Deploy now?" \
    --option "Yes (Recommended)" --option No`,
		Args: noArgs,
		// With no subcommand, show the help (and exit 0).
		RunE: func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	root.SuggestionsMinimumDistance = 2 // cobra's default, which noArgs asks for itself
	root.AddCommand(newManCmd())
	root.AddCommand(newAskCmd(e), newDemoCmd(e), newServeCmd(e), newHistoryCmd(e), newMCPCmd(e), newHookCmd(e), newRunCmd(e), newSetupCmd(e), newRulesCmd(e))
	return root
}

// errorHandler prints a failure on stderr, every failure the same way:
// usage errors too are one line, "asktui: CODE: message" on a terminal (in
// the flag's own spelling: fang's styled error would capitalise the first
// word, and ask the terminal for its colours first), else exactly one line
// of JSON, {"error":{"code":…,"message":…}}, for the program reading it.
func errorHandler(stderr io.Writer) fang.ErrorHandler {
	return func(_ io.Writer, _ fang.Styles, err error) {
		reportError(stderr, coded(err), isTerminal(stderr))
	}
}

// helpOut is where cobra and fang write (help, usage, version, completion
// scripts, the man page; asktui's own output goes to e.stdout itself):
// w, and when w is not a terminal, w without the spaces that end lines.
// fang lays help out in blocks as wide as the terminal (120 columns when
// there is none) and pads every line to that width, which a pipe, a file
// or a pager only shows as trailing spaces.
func helpOut(w io.Writer) io.Writer {
	if isTerminal(w) {
		return w
	}
	return &trimLines{w: w}
}

// trimLines writes to w without the spaces that end each line: it holds
// spaces back until it sees what follows them, and drops those that a
// line break (or the end) follows.
type trimLines struct {
	w      io.Writer
	spaces int
}

func (t *trimLines) Write(p []byte) (int, error) {
	out := make([]byte, 0, len(p))
	for _, c := range p {
		switch c {
		case ' ':
			t.spaces++
			continue
		case '\n':
			t.spaces = 0
		default:
			for ; t.spaces > 0; t.spaces-- {
				out = append(out, ' ')
			}
		}
		out = append(out, c)
	}
	if _, err := t.w.Write(out); err != nil {
		return 0, err
	}
	return len(p), nil
}
