package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode"

	"github.com/spf13/cobra"
	"go.uber.org/goleak"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/internal/sanitize"
	"github.com/asktui/asktui/tui"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m,
		// The UI's timers (the once-a-second countdown, a notice clearing
		// after 4s) are bubbletea Tick commands, whose goroutines sleep out
		// their timer even after the program has ended; they are
		// bubbletea's, bounded, and gone with the process. A batch of
		// commands waits for its ticks in execBatchMsg.
		goleak.IgnoreTopFunction("charm.land/bubbletea/v2.Tick.func1"),
		// A text field's cursor blinks the same way.
		goleak.IgnoreTopFunction("charm.land/bubbles/v2/cursor.(*Model).Blink.func1"),
		goleak.IgnoreAnyFunction("charm.land/bubbletea/v2.(*Program).execBatchMsg"),
		// Syntax highlighting in a conversation's Markdown (chroma) uses
		// regexp2, whose timeout clock runs on a goroutine of its own
		// that stops after a quiet spell.
		goleak.IgnoreAnyFunction("github.com/dlclark/regexp2.runClock"),
	)
}

// outcome is what one run of the CLI left behind.
type outcome struct {
	code           int
	stdout, stderr string
}

// runCLI runs asktui with args, stdin and openTTY, and waits for it with a
// generous deadline: a run that never returns fails the test instead of
// hanging it.
func runCLI(t *testing.T, ctx context.Context, stdin io.Reader, openTTY func() (*os.File, *os.File, error), args ...string) outcome {
	t.Helper()
	var stdout, stderr bytes.Buffer
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, args, env{
			stdin:   stdin,
			stdout:  &stdout,
			stderr:  &stderr,
			environ: []string{"TERM=xterm-256color"},
			openTTY: openTTY,
		})
	}()
	select {
	case code := <-done:
		return outcome{code: code, stdout: stdout.String(), stderr: stderr.String()}
	case <-time.After(time.Minute):
		t.Fatalf("asktui %s did not return", strings.Join(args, " "))
		return outcome{}
	}
}

// noTTY is an openTTY for a process without a controlling terminal.
func noTTY() (*os.File, *os.File, error) {
	return nil, nil, &os.PathError{Op: "open", Path: "/dev/tty", Err: syscall.ENXIO}
}

// mustNotOpenTTY fails the test if the CLI gets as far as the terminal.
func mustNotOpenTTY(t *testing.T) func() (*os.File, *os.File, error) {
	return func() (*os.File, *os.File, error) {
		t.Error("the terminal was opened, but the run should have failed before")
		return noTTY()
	}
}

// envelope decodes stderr as exactly one line of {"error":{…}}.
func envelope(t *testing.T, stderr string) *interaction.Error {
	t.Helper()
	if strings.Count(stderr, "\n") != 1 || !strings.HasSuffix(stderr, "\n") {
		t.Fatalf("stderr is not exactly one line:\n%s", stderr)
	}
	var env struct {
		Error *interaction.Error `json:"error"`
	}
	dec := json.NewDecoder(strings.NewReader(stderr))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&env); err != nil || env.Error == nil {
		t.Fatalf("stderr is not an error envelope (%v):\n%s", err, stderr)
	}
	return env.Error
}

func TestFailuresBeforeTheTerminal(t *testing.T) {
	tests := []struct {
		name  string
		stdin string
		args  []string
		code  interaction.Code
		want  []string // in the message
	}{
		{
			name:  "invalid JSON",
			stdin: `{"questions": [`,
			args:  []string{"ask"},
			code:  interaction.CodeInvalidRequest,
			want:  []string{"standard input:", "not valid JSON"},
		},
		{
			name:  "invalid JSON from -",
			stdin: `{"questions": [{"id": "a", "question": "ok"},]}`,
			args:  []string{"ask", "-"},
			code:  interaction.CodeInvalidRequest,
			want:  []string{"standard input:", "line 1"},
		},
		{
			name:  "empty questions",
			stdin: `{"questions": []}`,
			args:  []string{"ask"},
			code:  interaction.CodeEmptyQuestions,
			want:  []string{"no questions"},
		},
		{
			name:  "empty stdin",
			stdin: "",
			args:  []string{"ask"},
			code:  interaction.CodeInvalidRequest,
			want:  []string{"empty"},
		},
		{
			name:  "invalid question",
			stdin: `{"questions": [{"id": "db", "question": "Which?", "options": [{"label": "a"}, {"label": ""}]}]}`,
			args:  []string{"ask"},
			code:  interaction.CodeInvalidRequest,
			want:  []string{`question 1 (id "db")`, "option 2", "empty label"},
		},
		{
			name: "missing request file",
			args: []string{"ask", "../../examples/nope.json"},
			code: interaction.CodeInvalidRequest,
			want: []string{"../../examples/nope.json", "no such request file"},
		},
		{
			name: "empty question text from flags",
			args: []string{"ask", " ", "--option", "Yes"},
			code: interaction.CodeInvalidRequest,
			want: []string{`"question" text`},
		},
		{
			name: "duplicate labels from flags",
			args: []string{"ask", "Deploy?", "--option", "Yes", "--option", "Yes"},
			code: interaction.CodeInvalidRequest,
			want: []string{"share the label"},
		},
		{
			name: "unknown flag",
			args: []string{"ask", "--bogus"},
			code: interaction.CodeInvalidRequest,
			want: []string{"unknown flag: --bogus", "--help"},
		},
		{
			name: "unknown command",
			args: []string{"tell"},
			code: interaction.CodeInvalidRequest,
			want: []string{"unknown command"},
		},
		{
			name: "two arguments",
			args: []string{"ask", "a", "b"},
			code: interaction.CodeInvalidRequest,
			want: []string{"at most one argument", "got 2", "quote"},
		},
		{
			name: "bad format",
			args: []string{"ask", "../../examples/deploy.json", "--format", "yaml"},
			code: interaction.CodeInvalidRequest,
			want: []string{`invalid --format "yaml"`},
		},
		{
			name: "bad theme",
			args: []string{"ask", "../../examples/deploy.json", "--theme", "neon"},
			code: interaction.CodeInvalidRequest,
			want: []string{`invalid --theme "neon"`, "dark"},
		},
		{
			name: "negative timeout",
			args: []string{"ask", "../../examples/deploy.json", "--timeout", "-1s"},
			code: interaction.CodeInvalidRequest,
			want: []string{"invalid --timeout"},
		},
		{
			name: "bad timeout",
			args: []string{"ask", "../../examples/deploy.json", "--timeout", "soon"},
			code: interaction.CodeInvalidRequest,
			want: []string{"--timeout"},
		},
		{
			name: "too many descriptions",
			args: []string{"ask", "Deploy?", "--option", "Yes", "--description", "a", "--description", "b"},
			code: interaction.CodeInvalidRequest,
			want: []string{"2 --description flags but 1 --option flags"},
		},
		{
			name: "multi without options",
			args: []string{"ask", "Deploy?", "--multi"},
			code: interaction.CodeInvalidRequest,
			want: []string{"--multi needs options"},
		},
		{
			name: "question flags without text",
			args: []string{"ask", "--option", "Yes"},
			code: interaction.CodeInvalidRequest,
			want: []string{"question text is missing"},
		},
		{
			name:  "dash with question flags",
			stdin: `{"questions": [{"id": "a", "question": "ok"}]}`,
			args:  []string{"ask", "-", "--option", "Yes"},
			code:  interaction.CodeInvalidRequest,
			want:  []string{"cannot be combined with --option"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := runCLI(t, context.Background(), strings.NewReader(tt.stdin), mustNotOpenTTY(t), tt.args...)
			if got.code != exitUsage {
				t.Errorf("exit code = %d, want %d", got.code, exitUsage)
			}
			if got.stdout != "" {
				t.Errorf("stdout = %q, want nothing", got.stdout)
			}
			e := envelope(t, got.stderr)
			if e.Code != tt.code {
				t.Errorf("code = %s, want %s (message %q)", e.Code, tt.code, e.Message)
			}
			for _, w := range tt.want {
				if !strings.Contains(e.Message, w) {
					t.Errorf("message %q does not contain %q", e.Message, w)
				}
			}
		})
	}
}

func TestAgentFlagIsValidated(t *testing.T) {
	long := strings.Repeat("x", interaction.MaxIDLen+1)
	got := runCLI(t, context.Background(), nil, mustNotOpenTTY(t),
		"ask", "Deploy?", "--agent", long)
	if got.code != exitUsage {
		t.Fatalf("exit code = %d, want %d; stderr %s", got.code, exitUsage, got.stderr)
	}
	if e := envelope(t, got.stderr); !strings.Contains(e.Message, "agent") {
		t.Errorf("message %q does not name the agent", e.Message)
	}
}

func TestNoTTY(t *testing.T) {
	for _, args := range [][]string{
		{"ask", "../../examples/deploy.json"},
		{"ask", "Deploy now?", "--option", "Yes", "--option", "No"},
		{"ask", "../../examples/setup.json", "--accessible"},
	} {
		t.Run(strings.Join(args[1:], " "), func(t *testing.T) {
			got := runCLI(t, context.Background(), nil, noTTY, args...)
			if got.code != exitNoTTY {
				t.Fatalf("exit code = %d, want %d; stderr %s", got.code, exitNoTTY, got.stderr)
			}
			if got.stdout != "" {
				t.Errorf("stdout = %q, want nothing", got.stdout)
			}
			e := envelope(t, got.stderr)
			if e.Code != interaction.CodeNoTTY || !strings.Contains(e.Message, "/dev/tty") {
				t.Errorf("error = %v, want NO_TTY naming /dev/tty", e)
			}
		})
	}
}

func TestNoTTYWithStdinRequest(t *testing.T) {
	req, err := os.ReadFile("../../examples/freetext.json")
	if err != nil {
		t.Fatal(err)
	}
	got := runCLI(t, context.Background(), bytes.NewReader(req), noTTY, "ask")
	if got.code != exitNoTTY || envelope(t, got.stderr).Code != interaction.CodeNoTTY {
		t.Fatalf("got %+v, want exit %d with NO_TTY", got, exitNoTTY)
	}
}

// parseAsk parses an ask command line and loads its request.
func parseAsk(t *testing.T, e env, args ...string) (interaction.Request, error) {
	t.Helper()
	var o askOptions
	cmd := askCommand(e, &o)
	if err := cmd.ParseFlags(args); err != nil {
		t.Fatalf("parsing %q: %v", args, err)
	}
	return loadRequest(context.Background(), cmd.Flags().Args(), o, e, changedQuestionFlag(cmd))
}

func TestRequestFromFlags(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want interaction.Question
	}{
		{
			name: "free text",
			args: []string{"What is the service called?"},
			want: interaction.Question{ID: defaultID, Question: "What is the service called?"},
		},
		{
			name: "single select",
			args: []string{"Deploy now?", "--option", "Yes (Recommended)", "--option", "No"},
			want: interaction.Question{ID: defaultID, Question: "Deploy now?", Options: []interaction.Option{
				{Label: "Yes (Recommended)"}, {Label: "No"},
			}},
		},
		{
			name: "header and id",
			args: []string{"Deploy now?", "-o", "Yes", "-o", "No", "--header", "Deploy", "--id", "deploy"},
			want: interaction.Question{ID: "deploy", Question: "Deploy now?", Header: "Deploy", Options: []interaction.Option{
				{Label: "Yes"}, {Label: "No"},
			}},
		},
		{
			name: "multi with descriptions",
			args: []string{"Which checks?", "--multi", "--option", "lint", "--description", "gofmt and vet",
				"--option", "test", "--option", "fuzz", "--description", "go test -race"},
			want: interaction.Question{ID: defaultID, Question: "Which checks?", MultiSelect: true, Options: []interaction.Option{
				{Label: "lint", Description: "gofmt and vet"},
				{Label: "test", Description: "go test -race"},
				{Label: "fuzz"},
			}},
		},
		{
			name: "detail and previews",
			args: []string{"Apply the plan?", "--detail", "## Plan\n1. migrate", "-o", "Apply", "--preview", "```sql\nALTER TABLE\n```", "-o", "Skip"},
			want: interaction.Question{ID: defaultID, Question: "Apply the plan?", Detail: "## Plan\n1. migrate", Options: []interaction.Option{
				{Label: "Apply", Preview: "```sql\nALTER TABLE\n```"}, {Label: "Skip"},
			}},
		},
		{
			name: "labels with commas are one option each",
			args: []string{"Pick", "-m", "-o", "a, b", "-o", "c"},
			want: interaction.Question{ID: defaultID, Question: "Pick", MultiSelect: true, Options: []interaction.Option{
				{Label: "a, b"}, {Label: "c"},
			}},
		},
		{
			name: "an existing file with a question flag is the question text",
			args: []string{"../../examples/deploy.json", "--id", "path"},
			want: interaction.Question{ID: "path", Question: "../../examples/deploy.json"},
		},
		{
			name: "text that is no file",
			args: []string{"Ship it?"},
			want: interaction.Question{ID: defaultID, Question: "Ship it?"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, err := parseAsk(t, env{stdin: strings.NewReader("")}, tt.args...)
			if err != nil {
				t.Fatal(err)
			}
			if req.Agent != nil || len(req.Questions) != 1 {
				t.Fatalf("request = %+v, want one question and no agent", req)
			}
			assertQuestion(t, req.Questions[0], tt.want)
		})
	}
}

func assertQuestion(t *testing.T, got, want interaction.Question) {
	t.Helper()
	g, _ := json.Marshal(got)
	w, _ := json.Marshal(want)
	if !bytes.Equal(g, w) {
		t.Errorf("question =\n%s\nwant\n%s", g, w)
	}
}

func TestRequestSources(t *testing.T) {
	stdinReq := `{"questions": [{"id": "from-stdin", "question": "Piped?"}]}`

	t.Run("file", func(t *testing.T) {
		req, err := parseAsk(t, env{stdin: strings.NewReader(stdinReq)}, "../../examples/deploy.json")
		if err != nil {
			t.Fatal(err)
		}
		if req.Questions[0].ID != "deploy" {
			t.Errorf("read %+v, want examples/deploy.json", req)
		}
	})
	t.Run("dash", func(t *testing.T) {
		req, err := parseAsk(t, env{stdin: strings.NewReader(stdinReq)}, "-")
		if err != nil {
			t.Fatal(err)
		}
		if req.Questions[0].ID != "from-stdin" {
			t.Errorf("read %+v, want standard input", req)
		}
	})
	t.Run("no argument", func(t *testing.T) {
		req, err := parseAsk(t, env{stdin: strings.NewReader(stdinReq)})
		if err != nil {
			t.Fatal(err)
		}
		if req.Questions[0].ID != "from-stdin" {
			t.Errorf("read %+v, want standard input", req)
		}
	})
	t.Run("a file in another directory", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "request")
		if err := os.WriteFile(path, []byte(stdinReq), 0o600); err != nil {
			t.Fatal(err)
		}
		req, err := parseAsk(t, env{stdin: strings.NewReader("")}, path)
		if err != nil {
			t.Fatal(err)
		}
		if req.Questions[0].ID != "from-stdin" {
			t.Errorf("read %+v, want %s", req, path)
		}
	})
	t.Run("directory", func(t *testing.T) {
		_, err := parseAsk(t, env{stdin: strings.NewReader("")}, "../../examples")
		if interaction.CodeOf(err) != interaction.CodeInvalidRequest || !strings.Contains(err.Error(), "examples:") {
			t.Errorf("err = %v, want INVALID_REQUEST naming examples", err)
		}
	})
	t.Run("invalid file names the file", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "bad.json")
		if err := os.WriteFile(path, []byte(`{"questions": [{"id": 1}]}`), 0o600); err != nil {
			t.Fatal(err)
		}
		_, err := parseAsk(t, env{stdin: strings.NewReader("")}, path)
		if interaction.CodeOf(err) != interaction.CodeInvalidRequest || !strings.Contains(err.Error(), path+": ") {
			t.Errorf("err = %v, want INVALID_REQUEST naming %s", err, path)
		}
	})
}

func TestExitCodes(t *testing.T) {
	coded := func(c interaction.Code) error { return interaction.Errorf(c, "m") }
	tests := []struct {
		name string
		err  error
		want int
	}{
		{"answered", nil, 0},
		{"declined", coded(interaction.CodeDeclined), 1},
		{"invalid request", coded(interaction.CodeInvalidRequest), 2},
		{"empty questions", coded(interaction.CodeEmptyQuestions), 2},
		{"usage", errors.New(`unknown flag: --bogus`), 2},
		{"no tty", coded(interaction.CodeNoTTY), 3},
		{"timeout", coded(interaction.CodeTimeout), 124},
		{"aborted", coded(interaction.CodeAborted), 130},
		{"ctrl+c", interaction.WrapError(interaction.CodeProviderClosed, tui.ErrInterrupted, "m"), 130},
		{"SIGINT", interaction.WrapError(interaction.CodeAborted, signalError{os.Interrupt}, "m"), 130},
		{"SIGTERM", interaction.WrapError(interaction.CodeAborted, signalError{syscall.SIGTERM}, "m"), 143},
		{"SIGHUP", interaction.WrapError(interaction.CodeAborted, signalError{syscall.SIGHUP}, "m"), 129},
		{"provider closed", coded(interaction.CodeProviderClosed), 4},
		{"internal", coded(interaction.CodeInternal), 4},
		{"invalid answer", coded(interaction.CodeInvalidAnswer), 4},
		{"no provider", coded(interaction.CodeNoProvider), 4},
		{"duplicate provider", coded(interaction.CodeDuplicateProvider), 4},
	}
	for _, tt := range tests {
		if got := exitCode(tt.err); got != tt.want {
			t.Errorf("%s: exitCode(%v) = %d, want %d", tt.name, tt.err, got, tt.want)
		}
	}
}

func TestWriteAnswer(t *testing.T) {
	ans := interaction.Answer{Answers: []interaction.AnswerItem{
		{ID: "db", Selected: []string{"SQLite"}},
		{ID: "checks", Selected: []string{"Tests (Recommended)", "Lint"}},
		{ID: "name", Selected: []string{}, Custom: "billing <v2> & co\nsecond line"},
		interaction.Skip("later"),
	}}

	var text bytes.Buffer
	if err := writeAnswer(&text, ans, formatText); err != nil {
		t.Fatal(err)
	}
	wantText := "db: SQLite\n" +
		"checks: Tests (Recommended), Lint\n" +
		"name: billing <v2> & co second line\n" +
		"later:\n"
	if text.String() != wantText {
		t.Errorf("text =\n%q\nwant\n%q", text.String(), wantText)
	}

	var js bytes.Buffer
	if err := writeAnswer(&js, ans, formatJSON); err != nil {
		t.Fatal(err)
	}
	wantJSON := `{"answers":[{"id":"db","selected":["SQLite"]},` +
		`{"id":"checks","selected":["Tests (Recommended)","Lint"]},` +
		`{"id":"name","selected":[],"custom":"billing <v2> & co\nsecond line"},` +
		`{"id":"later","selected":[]}]}`
	if strings.Count(js.String(), "\n") != 1 || !strings.HasSuffix(js.String(), "}\n") {
		t.Errorf("json is not one line:\n%s", js.String())
	}
	// Compare values: the interaction package decides how strings escape.
	var got, want any
	if err := json.Unmarshal(js.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(wantJSON), &want); err != nil {
		t.Fatal(err)
	}
	if g, w := mustJSON(t, got), mustJSON(t, want); g != w {
		t.Errorf("json =\n%s\nwant\n%s", js.String(), wantJSON)
	}
}

// TestWriteAnswerIsInert is issue 10's clipboard attack: a label with an
// OSC 52 sequence, printed by `echo "$answer"`, would set the clipboard of
// whoever reads it. Neither format carries a raw control to stdout, and
// the JSON still decodes to the exact text.
func TestWriteAnswerIsInert(t *testing.T) {
	evil := "Yes\x1b]52;c;cm0gLXJmIH4=\x07\u009b2J\u202eon\r"
	ans := interaction.Answer{Answers: []interaction.AnswerItem{
		{ID: "q\x1b[2J", Selected: []string{evil}},
		{ID: "c", Selected: []string{}, Custom: evil},
	}}
	raw := func(s string) bool {
		for _, r := range s {
			if r != '\n' && (sanitize.IsControl(r) || sanitize.IsBidiControl(r)) {
				return true
			}
		}
		return false
	}
	var text bytes.Buffer
	if err := writeAnswer(&text, ans, formatText); err != nil {
		t.Fatal(err)
	}
	want := "q\ufffd[2J: Yes\ufffd]52;c;cm0gLXJmIH4=\ufffd\ufffd2J\ufffdon \n" +
		"c: Yes\ufffd]52;c;cm0gLXJmIH4=\ufffd\ufffd2J\ufffdon \n"
	if text.String() != want || raw(text.String()) {
		t.Errorf("text =\n%q\nwant\n%q", text.String(), want)
	}
	var js bytes.Buffer
	if err := writeAnswer(&js, ans, formatJSON); err != nil {
		t.Fatal(err)
	}
	if raw(js.String()) {
		t.Errorf("json holds a raw control: %q", js.String())
	}
	var back interaction.Answer
	if err := json.Unmarshal(js.Bytes(), &back); err != nil || back.Answers[1].Custom != evil || back.Answers[0].Selected[0] != evil {
		t.Errorf("json %q decodes to %+v, %v; want the exact text", js.String(), back, err)
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestReportError(t *testing.T) {
	e := interaction.Errorf(interaction.CodeDeclined, "the user declined to answer")
	var term, pipe bytes.Buffer
	reportError(&term, e, true)
	reportError(&pipe, e, false)
	if got, want := term.String(), "asktui: ASK_DECLINED: the user declined to answer\n"; got != want {
		t.Errorf("terminal form = %q, want %q", got, want)
	}
	if got, want := pipe.String(), `{"error":{"code":"ASK_DECLINED","message":"the user declined to answer"}}`+"\n"; got != want {
		t.Errorf("pipe form = %q, want %q", got, want)
	}
}

func TestHelpAndVersion(t *testing.T) {
	got := runCLI(t, context.Background(), nil, mustNotOpenTTY(t))
	if got.code != 0 || !strings.Contains(got.stdout, "ask") || got.stderr != "" {
		t.Errorf("asktui with no args = %+v, want help on stdout and exit 0", got)
	}
	// Every command the README names is listed (issue 18: man was hidden).
	for _, c := range []string{"ask", "demo", "serve", "history", "mcp", "hook", "run", "setup", "completion", "man"} {
		if !regexp.MustCompile(`(?m)^\s+` + c + `\b`).MatchString(got.stdout) {
			t.Errorf("asktui --help does not list %s:\n%s", c, got.stdout)
		}
	}
	got = runCLI(t, context.Background(), nil, mustNotOpenTTY(t), "ask", "--help")
	for _, w := range []string{"--option", "--format", "--timeout", "--accessible", "--theme", "--inline", "--agent"} {
		if !strings.Contains(got.stdout, w) {
			t.Errorf("ask --help does not mention %s", w)
		}
	}
	// The help's list of question flags is every one of them (issue 18:
	// it left out --preview, --detail and --detail-file).
	m := regexp.MustCompile(`question flag\s+\(([^)]*)\)`).FindStringSubmatch(newAskCmd(env{}).Long)
	if m == nil {
		t.Fatal("ask's help has no list of the question flags")
	}
	var listed []string
	for _, f := range strings.FieldsFunc(m[1], func(r rune) bool { return r == ',' || unicode.IsSpace(r) }) {
		listed = append(listed, strings.TrimPrefix(f, "--"))
	}
	if !slices.Equal(listed, questionFlags) {
		t.Errorf("ask's help lists the question flags %q, want %q", listed, questionFlags)
	}
	got = runCLI(t, context.Background(), nil, mustNotOpenTTY(t), "--version")
	ver := Build{}.version()
	if got.code != 0 || !strings.Contains(got.stdout, ver) {
		t.Errorf("--version = %+v, want %q", got, ver)
	}
	for _, sh := range []string{"bash", "zsh", "fish", "powershell"} {
		got = runCLI(t, context.Background(), nil, mustNotOpenTTY(t), "completion", sh)
		if got.code != 0 || !strings.Contains(got.stdout, "asktui") {
			t.Errorf("completion %s = exit %d, %d bytes", sh, got.code, len(got.stdout))
		}
	}
}

func TestEnvLookup(t *testing.T) {
	e := env{environ: []string{"ACCESSIBLE=", "TERM=dumb", "ACCESSIBLE=1", "NOEQUALS"}}
	if got := e.getenv("ACCESSIBLE"); got != "1" {
		t.Errorf("ACCESSIBLE = %q, want the last assignment", got)
	}
	if got := e.getenv("HOME"); got != "" {
		t.Errorf("HOME = %q, want empty", got)
	}
}

func TestExamplesDecode(t *testing.T) {
	paths, err := filepath.Glob("../../examples/*.json")
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]interaction.Request{}
	for _, path := range paths {
		f, err := os.Open(path) //nolint:gosec // a path the test made, or its testdata
		if err != nil {
			t.Fatal(err)
		}
		req, err := interaction.DecodeRequest(f)
		_ = f.Close()
		if err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		byName[filepath.Base(path)] = req
	}
	for _, name := range []string{"deploy.json", "setup.json", "features.json", "freetext.json", "long.json"} {
		if _, ok := byName[name]; !ok {
			t.Errorf("../../examples/%s is missing or invalid", name)
		}
	}

	deploy := byName["deploy.json"]
	if len(deploy.Questions) != 1 || deploy.Questions[0].MultiSelect ||
		len(deploy.Questions[0].Options) < 2 || deploy.Questions[0].Options[0].Label != "Yes (Recommended)" {
		t.Errorf("deploy.json should be one single-select question with \"Yes (Recommended)\" first: %+v", deploy)
	}
	setup := byName["setup.json"]
	var kinds []string
	for _, q := range setup.Questions {
		switch {
		case len(q.Options) == 0:
			kinds = append(kinds, "text")
		case q.MultiSelect:
			kinds = append(kinds, "multi")
		default:
			kinds = append(kinds, "single")
		}
	}
	if strings.Join(kinds, ",") != "single,multi,text" {
		t.Errorf("setup.json question kinds = %v, want single, multi, text", kinds)
	}
	if fe := byName["features.json"]; len(fe.Questions) != 1 || !fe.Questions[0].MultiSelect {
		t.Errorf("features.json should be one multi-select question")
	}
	if ft := byName["freetext.json"]; len(ft.Questions) != 1 || len(ft.Questions[0].Options) != 0 {
		t.Errorf("freetext.json should be one free-text question")
	}
	if lg := byName["long.json"]; len(lg.Questions) != 1 || len(lg.Questions[0].Options) < 200 || len(lg.Questions[0].Question) < 500 {
		t.Errorf("long.json should have a long question and at least 200 options")
	}
}

func TestCodedFailuresBypassFang(t *testing.T) {
	coded := interaction.Errorf(interaction.CodeDeclined, "no")
	usage := errors.New("bad flag")
	root := &cobra.Command{Use: "root"}
	sub := &cobra.Command{Use: "sub", RunE: func(*cobra.Command, []string) error { return coded }}
	other := &cobra.Command{Use: "other", RunE: func(*cobra.Command, []string) error { return usage }}
	root.AddCommand(sub, other)
	failed := keepCoded(root)
	if err := sub.RunE(sub, nil); err != nil || *failed != coded { //nolint:errorlint // the very error the command returned
		t.Errorf("a coded failure reached fang (%v) or was not kept (%v)", err, *failed)
	}
	*failed = nil
	if err := other.RunE(other, nil); err != usage || *failed != nil { //nolint:errorlint // the very error the command returned
		t.Errorf("a usage error was kept from fang: returned %v, kept %v", err, *failed)
	}
}
