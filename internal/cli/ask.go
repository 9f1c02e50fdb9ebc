package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/spf13/cobra"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/internal/jsonl"
	"github.com/asktui/asktui/internal/sanitize"
	"github.com/asktui/asktui/styles"
	"github.com/asktui/asktui/tui"
)

// askOptions are the flags of `asktui ask`.
type askOptions struct {
	format     string
	timeout    time.Duration
	theme      themeFlag
	accessible bool
	inline     bool
	agent      string
	connect    string
	noOther    bool

	// The question flags build a one-question request.
	options      []string
	descriptions []string
	previews     []string
	multi        bool
	header       string
	detail       string
	detailFile   string
	id           string
}

// questionFlags are the flags that build a request; any of them makes the
// argument the question text.
var questionFlags = []string{"option", "description", "preview", "multi", "header", "detail", "detail-file", "id"}

// Output formats of the answer.
const (
	formatJSON = "json"
	formatText = "text"
)

// connectDefault is the value of --connect given without "=PATH": the
// default socket.
const connectDefault = " "

// looksLikeSocket reports whether arg names a socket: an existing one, or
// a path ending in ".sock".
func looksLikeSocket(arg string) bool {
	if strings.HasSuffix(arg, ".sock") {
		return true
	}
	fi, err := os.Stat(arg)
	return err == nil && fi.Mode().Type() == os.ModeSocket
}

// defaultID is the id of a question built from flags without --id.
const defaultID = "q1"

func newAskCmd(e env) *cobra.Command { return askCommand(e, new(askOptions)) }

// askCommand builds the ask command around o, which its flags fill in.
func askCommand(e env, o *askOptions) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "ask [FILE | - | QUESTION]",
		Short: "Ask the questions of one request and print the answers",
		Long: `Ask one request's questions on the terminal and print the answers on
standard output as one line of JSON (or, with --format text, one
"id: answer" line per question).

The request comes from:
  FILE       a JSON request file, when FILE exists and no question flag is given
  -          standard input
  (nothing)  standard input, when it is not a terminal
  QUESTION   any other argument, or any argument with a question flag
             (--option, --description, --preview, --multi, --header,
             --detail, --detail-file, --id): a one-question request built
             from the flags; with no --option it asks for free text. An
             argument ending in .json that names no file is an error, not a
             question.

A question with options also offers an "Other" row for free text;
--no-other leaves it out, for the question built from --option flags and
for every question with options of a request file (as its "noOther": true
does).

The UI draws on the controlling terminal, not on standard output, so
asktui works in pipes. Without a terminal asktui fails at once with NO_TTY.

Exit codes: 0 answered, 1 declined, 2 invalid request or usage, 3 no
terminal, 4 other failure, 124 --timeout elapsed, 129 hung up (SIGHUP: the
terminal closed), 130 interrupted (Ctrl+C, SIGINT), 143 terminated
(SIGTERM). On failure standard error gets one line:
"asktui: CODE: message" on a terminal, else {"error":{"code":…,"message":…}}.`,
		Example: `  # A request file
  asktui ask examples/deploy.json

  # From standard input, answer to jq
  cat examples/setup.json | asktui ask | jq .

  # A single-select question built from flags
  asktui ask "Deploy now?" --id deploy \
    --option "Yes (Recommended)" --option No

  # Multi-select, descriptions paired in order
  asktui ask "Which checks?" --multi \
    --option lint --description "gofmt and go vet" \
    --option test --description "go test -race"

  # Free text, one "id: answer" line for the shell
  asktui ask "Release notes?" --id notes \
    --format text --timeout 5m`,
		Args: func(cmd *cobra.Command, args []string) error {
			if cmd.Flags().Changed("connect") && o.connect == connectDefault {
				for _, arg := range args {
					if looksLikeSocket(arg) {
						return fmt.Errorf(`--connect takes a socket path only after "=": use --connect=%s (with a space, --connect asks the default inbox and %q is read as the question)`, arg, arg)
					}
				}
			}
			if len(args) > 1 {
				return fmt.Errorf(`ask takes at most one argument (a request FILE, - or a QUESTION), got %d: %q; quote a question that has spaces, as in asktui ask "Deploy now?"`, len(args), args)
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			return runAsk(cmd, args, *o, e)
		},
	}

	f := cmd.Flags()
	f.StringVarP(&o.format, "format", "f", formatJSON, `answer format: "json" (one line) or "text" ("id: label, label" lines)`)
	f.DurationVarP(&o.timeout, "timeout", "t", 0, "give up after this long (e.g. 30s, 5m) with ASK_TIMEOUT, exit 124; 0 waits forever")
	f.BoolVar(&o.accessible, "accessible", false, "plain, linear prompts for screen readers (also when ACCESSIBLE is set)")
	f.BoolVar(&o.inline, "inline", false, "draw below the prompt instead of on the alternate screen")
	f.BoolVar(&o.noOther, "no-other", false, `offer only the options: no "Other" row for free text (every question with options)`)
	f.StringVar(&o.agent, "agent", "", "name of the asking agent, shown in the UI when the request names none")
	f.StringVar(&o.connect, "connect", "", "ask through the inbox of the running asktui serve instead of drawing a UI: --connect for its default socket, --connect=PATH for another")
	cmd.Flags().Lookup("connect").NoOptDefVal = connectDefault

	f.StringArrayVarP(&o.options, "option", "o", nil, "an option label; repeat for each option, in order")
	f.StringArrayVarP(&o.descriptions, "description", "d", nil, "a description for the --option at the same position; repeat")
	f.BoolVarP(&o.multi, "multi", "m", false, "allow selecting several options")
	f.StringVar(&o.header, "header", "", "a short heading shown above the question")
	f.StringVar(&o.detail, "detail", "", "supporting detail shown with the question (Markdown: a plan, a diff, a log)")
	f.StringVar(&o.detailFile, "detail-file", "", "read the --detail from this file")
	f.StringArrayVar(&o.previews, "preview", nil, "a preview (Markdown or code) for the --option at the same position, shown while it is under the cursor; repeat")
	f.StringVar(&o.id, "id", defaultID, "the question id echoed in the answer")

	_ = cmd.RegisterFlagCompletionFunc("format", cobra.FixedCompletions(
		[]string{formatJSON, formatText}, cobra.ShellCompDirectiveNoFileComp))
	addThemeFlag(cmd, &o.theme)
	return cmd
}

// runAsk is the ask command: check the flags, load and validate the
// request, and only then open the terminal and ask.
func runAsk(cmd *cobra.Command, args []string, o askOptions, e env) error {
	if e.getenv("GOGC") == "" {
		defer debug.SetGCPercent(debug.SetGCPercent(askGCPercent))
	}
	if !cmd.Flags().Changed("connect") {
		warmWidths()
	}
	if o.format != formatJSON && o.format != formatText {
		return fmt.Errorf(`invalid --format %q: use "json" or "text"`, o.format)
	}
	theme, err := o.theme.theme(e)
	if err != nil {
		return err
	}
	if err := checkTimeout(o.timeout); err != nil {
		return err
	}

	req, err := loadRequest(cmd.Context(), args, o, e, changedQuestionFlag(cmd))
	if err != nil {
		return err
	}
	if o.agent != "" && req.Agent == nil {
		req.Agent = &interaction.Agent{ID: o.agent, Name: o.agent}
		if err := req.Validate(); err != nil {
			return err
		}
	}
	if o.noOther {
		if err := onlyOptions(req); err != nil {
			return err
		}
	}

	var ans interaction.Answer
	if cmd.Flags().Changed("connect") {
		ans, err = askConnected(cmd.Context(), o.connect, req, o, e)
	} else {
		ans, err = ask(cmd.Context(), req, o, theme, e)
	}
	if err != nil {
		return err
	}
	if err := writeAnswer(e.stdout, ans, o.format); err != nil {
		return interaction.WrapError(interaction.CodeInternal, err, "could not write the answer: %v", err)
	}
	return nil
}

// changedQuestionFlag returns the first question flag given on the
// command line, or "".
func changedQuestionFlag(cmd *cobra.Command) string {
	for _, name := range questionFlags {
		if cmd.Flags().Changed(name) {
			return name
		}
	}
	return ""
}

// loadRequest finds the request by the rules in the ask command's help.
// qflag is the first question flag given, or "". A signal (ctx ending)
// stops the reading of standard input.
func loadRequest(ctx context.Context, args []string, o askOptions, e env, qflag string) (interaction.Request, error) {
	if len(args) == 0 {
		if qflag != "" {
			return interaction.Request{}, fmt.Errorf(`--%s builds a question, but the question text is missing: asktui ask "Deploy now?" --option Yes --option No`, qflag)
		}
		if isTerminal(e.stdin) {
			return interaction.Request{}, errors.New("no request: give a request FILE, - to read one from standard input, or a QUESTION text")
		}
		return decodeStdin(ctx, e)
	}

	arg := args[0]
	switch {
	case arg == "-":
		if qflag != "" {
			return interaction.Request{}, fmt.Errorf(`"-" reads a request from standard input and cannot be combined with --%s`, qflag)
		}
		return decodeStdin(ctx, e)
	case qflag != "":
		return fromFlags(arg, o)
	}
	if _, err := os.Stat(arg); err == nil {
		f, err := os.Open(arg) //nolint:gosec // the request file the user named
		if err != nil {
			return interaction.Request{}, interaction.WrapError(interaction.CodeInvalidRequest, err, "could not open the request file: %v", err)
		}
		defer func() { _ = f.Close() }()
		return decodeFrom(f, arg)
	}
	if strings.HasSuffix(strings.ToLower(arg), ".json") {
		return interaction.Request{}, interaction.Errorf(interaction.CodeInvalidRequest,
			"%s: no such request file; to ask this text as a question instead, add a question flag such as --id", arg)
	}
	return fromFlags(arg, o)
}

// decodeStdin decodes the request on standard input, saying so first when
// that is a terminal (where the human types it, or wonders why nothing
// happens) and so is standard error (otherwise a program reads standard
// error, and gets nothing but the one line of a failure). A signal stops it: ctrl+c or SIGTERM while asktui waits for
// input exit 130 or 143, as they do once the question is on screen. The
// read itself cannot be interrupted; it is left to the process's exit.
func decodeStdin(ctx context.Context, e env) (interaction.Request, error) {
	if isTerminal(e.stdin) && isTerminal(e.stderr) {
		_, _ = fmt.Fprintln(e.stderr, "asktui: waiting for a request on standard input (ctrl+d to end, ctrl+c to stop)")
	}
	type result struct {
		req interaction.Request
		err error
	}
	done := make(chan result, 1)
	go func() {
		req, err := decodeFrom(e.stdin, "standard input")
		done <- result{req, err}
	}()
	select {
	case r := <-done:
		return r.req, r.err
	case <-ctx.Done():
		cause := context.Cause(ctx)
		return interaction.Request{}, interaction.WrapError(interaction.CodeAborted, cause,
			"interrupted (%v) while reading the request from standard input", cause)
	}
}

// decodeFrom decodes and validates a request, naming its source in the
// error message.
func decodeFrom(r io.Reader, source string) (interaction.Request, error) {
	req, err := interaction.DecodeRequest(r)
	if err != nil {
		var e *interaction.Error
		if errors.As(err, &e) {
			return interaction.Request{}, &interaction.Error{Code: e.Code, Message: source + ": " + e.Message, Err: e.Err}
		}
		return interaction.Request{}, err
	}
	return req, nil
}

// fromFlags builds the one-question request that the question flags
// describe, asking text.
func fromFlags(text string, o askOptions) (interaction.Request, error) {
	if len(o.descriptions) > len(o.options) {
		return interaction.Request{}, fmt.Errorf("%d --description flags but %d --option flags: each --description describes the --option at the same position",
			len(o.descriptions), len(o.options))
	}
	if len(o.previews) > len(o.options) {
		return interaction.Request{}, fmt.Errorf("%d --preview flags but %d --option flags: each --preview belongs to the --option at the same position",
			len(o.previews), len(o.options))
	}
	if o.multi && len(o.options) == 0 {
		return interaction.Request{}, errors.New("--multi needs options to select from: add --option flags")
	}
	detail := o.detail
	if o.detailFile != "" {
		if detail != "" {
			return interaction.Request{}, errors.New("--detail and --detail-file both give the detail: use one")
		}
		b, err := readLimited(o.detailFile, interaction.MaxDetailLen)
		if err != nil {
			return interaction.Request{}, err
		}
		detail = string(b)
	}
	q := interaction.Question{
		ID:          o.id,
		Question:    text,
		Header:      o.header,
		Detail:      detail,
		MultiSelect: o.multi,
	}
	for i, label := range o.options {
		opt := interaction.Option{Label: label}
		if i < len(o.descriptions) {
			opt.Description = o.descriptions[i]
		}
		if i < len(o.previews) {
			opt.Preview = o.previews[i]
		}
		q.Options = append(q.Options, opt)
	}
	req := interaction.Request{Questions: []interaction.Question{q}}
	if err := req.Validate(); err != nil {
		return interaction.Request{}, err
	}
	return req, nil
}

// onlyOptions leaves out the "Other" row of every question of req that
// has options (--no-other); a request with no such question is refused:
// there would be nothing to leave out.
func onlyOptions(req interaction.Request) error {
	n := 0
	for i := range req.Questions {
		if len(req.Questions[i].Options) > 0 {
			req.Questions[i].NoOther = true
			n++
		}
	}
	if n == 0 {
		return errors.New(`--no-other leaves out the "Other" row of a question with options, and no question has options: add --option flags`)
	}
	return req.Validate()
}

// askGCPercent is the garbage collector's GOGC while ask runs, unless the
// environment sets GOGC: a one-shot question spends most of its work
// before its first frame, building a request that stays live, and at the
// default of 100 a long list is collected two or three times on the way,
// each collection marking the growing list and handing memory back that
// is then faulted in again. At 400, a request of 100,000 options reaches
// its first frame about 20 ms sooner, with the same peak RSS (it is live
// anyway), and a short one is never collected before it is answered.
const askGCPercent = 400

// warmWidths builds, on a goroutine of its own, the table of character
// widths bubbletea's renderer reads on a terminal without Unicode mode
// 2027 (most of them): go-runewidth builds it at the first character past
// U+02FF a screen holds (a border, a bullet), painting 2.2 MB, which took
// a fifth of a one-shot question's CPU time and held back its first frame
// by 5 to 10 ms. Started before the request is read, it is ready by the
// first frame on a second core.
func warmWidths() {
	go ansi.WcWidth.StringWidth("─")
}

// ask opens the terminal and puts req to the human there with tui.Ask. It
// returns when the human answers or declines, --timeout elapses, ctx ends
// (a signal) or the UI goes away, and leaves none of its goroutines behind.
func ask(ctx context.Context, req interaction.Request, o askOptions, theme styles.Theme, e env) (interaction.Answer, error) {
	in, out, err := e.openTTY()
	if err != nil {
		return interaction.Answer{}, interaction.WrapError(interaction.CodeNoTTY, err,
			"no terminal to ask on (%v): asktui ask draws on the controlling terminal, so run it from one; standard input and output may be pipes", err)
	}
	// The terminal stays open until the process exits, as when bubbletea
	// opens it itself: bubbletea may still be asking it for its size from
	// a goroutine of its own after the UI has ended.

	askCtx, cancel := withTimeout(ctx, o.timeout)
	defer cancel()
	ans, err := tui.Ask(askCtx, req, tui.AskOptions{
		Input:      in,
		Output:     out,
		Theme:      theme,
		Inline:     o.inline,
		Accessible: o.accessible || e.accessible(),
		Environ:    e.environ,
	})
	if cause := context.Cause(ctx); err != nil && cause != nil && interaction.CodeOf(err) == interaction.CodeAborted {
		// A signal: say so (the cause, kept, decides the exit code).
		return interaction.Answer{}, interaction.WrapError(interaction.CodeAborted, cause,
			"interrupted (%v) before the questions were answered", cause)
	}
	return ans, err
}

// writeAnswer prints ans on w: one line of JSON, or one "id: answer" line
// per question where the answer is the custom text, or the selected labels
// joined by ", " (empty for a skipped question).
//
// The text comes from the request (labels, ids) and from the human, and
// whoever prints it (echo "$answer") must not have their terminal driven by
// it: the text format follows history's policy, sanitize.Replace, so line
// breaks and tabs become spaces (one line per question) and every other
// control, escape sequences included, and every bidirectional control
// shows as U+FFFD. The JSON keeps the exact text, with C1 and bidi
// controls escaped (internal/jsonl).
func writeAnswer(w io.Writer, ans interaction.Answer, format string) error {
	if format == formatText {
		var b strings.Builder
		for _, item := range ans.Answers {
			val := item.Custom
			if val == "" {
				val = strings.Join(item.Selected, ", ")
			}
			val = sanitize.Replace(val, 0)
			b.WriteString(sanitize.Replace(item.ID, 0))
			b.WriteString(":")
			if val != "" {
				b.WriteString(" ")
				b.WriteString(val)
			}
			b.WriteString("\n")
		}
		_, err := io.WriteString(w, b.String())
		return err
	}
	return jsonl.Write(w, ans)
}

// readLimited reads the file at path, refusing one longer than limit
// bytes with a message that says so.
func readLimited(path string, limit int) ([]byte, error) {
	f, err := os.Open(path) //nolint:gosec // the file the user named
	if err != nil {
		return nil, fmt.Errorf("cannot read --detail-file: %w", err)
	}
	defer func() { _ = f.Close() }()
	b, err := io.ReadAll(io.LimitReader(f, int64(limit)+1))
	if err != nil {
		return nil, fmt.Errorf("cannot read --detail-file: %w", err)
	}
	if len(b) > limit {
		return nil, fmt.Errorf("--detail-file %s is longer than the limit of %d bytes for a detail", path, limit)
	}
	return b, nil
}
