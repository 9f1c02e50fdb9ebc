package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"text/tabwriter"
	"time"

	xterm "github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"

	"github.com/asktui/asktui/agent/acp"
	"github.com/asktui/asktui/agent/script"
	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/tui"
	"github.com/asktui/asktui/tui/cast"
)

// defaultScenario is the one `asktui demo` plays without an argument: it
// shows agents working, the inbox filling up and a withdrawn question, and
// puts its first question on screen within seconds (see
// TestDefaultDemoAsksAtOnce). The recordings play "parallel", the same
// agents on the timings their tapes were cut to.
const defaultScenario = "intro"

// demoOptions are the flags of `asktui demo`.
type demoOptions struct {
	speed    float64
	list     bool
	autoplay bool
	record   string
	acp      bool
	theme    themeFlag
	alerts   tui.Alerts
}

func newDemoCmd(e env) *cobra.Command {
	o := &demoOptions{}
	cmd := &cobra.Command{
		Use:   "demo [NAME | FILE]",
		Short: "Watch scripted agents work and ask, and answer them",
		Long: `Play a scenario: scripted agents say what they do, think, call tools and
ask you questions in the full-screen session view, exactly as real agents
would. Answer them in any order from the inbox.

NAME is a built-in scenario (see --list); FILE is a scenario of your own
(YAML or JSON; the format is in agent/script/SCENARIOS.md). Without an argument
the "` + defaultScenario + `" scenario plays.

With --autoplay asktui also plays your side, pressing the keys the
scenario scripts at a human pace, and exits when the scenario ends: for
recordings and unattended runs. Otherwise quit with ctrl+c when you are
done.`,
		Example: `  # Three agents at once, one withdraws its question
  asktui demo

  # A batch of setup questions, twice as fast
  asktui demo setup --speed 2

  # Record a demo that plays itself
  asktui demo deploy --autoplay --record deploy.cast`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runDemo(cmd.Context(), args, *o, e)
		},
	}
	f := cmd.Flags()
	f.Float64Var(&o.speed, "speed", 1, "play the scenario this many times faster (0.25 to 20)")
	f.BoolVar(&o.list, "list", false, "list the built-in scenarios and exit")
	f.BoolVar(&o.autoplay, "autoplay", false, "also play the human's side, then exit when the scenario ends")
	f.StringVar(&o.record, "record", "", "record what asktui draws to this asciinema v2 .cast file")
	f.BoolVar(&o.acp, "acp", false, "be the scenario as an ACP agent on standard input and output, for asktui run -- asktui demo --acp NAME")
	addThemeFlag(cmd, &o.theme)
	addAlertFlags(cmd, &o.alerts)
	cmd.ValidArgsFunction = func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		var names []string
		for _, sc := range script.Builtin() {
			names = append(names, sc.Name+"\t"+sc.Title)
		}
		return names, cobra.ShellCompDirectiveDefault
	}
	return cmd
}

// listScenarios prints the built-in scenarios.
func listScenarios(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, sc := range script.Builtin() {
		if _, err := fmt.Fprintf(tw, "%s\t%s\n", sc.Name, sc.Title); err != nil {
			return err
		}
	}
	return tw.Flush()
}

func runDemo(ctx context.Context, args []string, o demoOptions, e env) (err error) {
	if o.list {
		return listScenarios(e.stdout)
	}
	if o.speed < 0.25 || o.speed > 20 {
		return fmt.Errorf("invalid --speed %g: use a factor from 0.25 to 20", o.speed)
	}
	theme, err := o.theme.theme(e)
	if err != nil {
		return err
	}
	name := defaultScenario
	if len(args) == 1 {
		name = args[0]
	}
	sc, err := script.Lookup(name)
	if err != nil {
		return interaction.WrapError(interaction.CodeInvalidRequest, err, "%v", err)
	}
	if o.acp {
		ver := e.build.version()
		return acp.ServeScenario(ctx, sc, e.stdin, e.stdout, acp.ScenarioOptions{Speed: o.speed, Version: ver})
	}

	in, out, err := e.openTTY()
	if err != nil {
		return interaction.WrapError(interaction.CodeNoTTY, err,
			"no terminal to play the demo on (%v): run asktui demo from a terminal", err)
	}
	var output io.Writer = out
	if o.record != "" {
		rec, stop, err := startRecording(o.record, out, e)
		if err != nil {
			return err
		}
		defer func() {
			if cerr := stop(); cerr != nil && err == nil {
				err = interaction.WrapError(interaction.CodeInternal, cerr, "recording to %s failed: %v", o.record, cerr)
			}
		}()
		output = rec
	}

	p := tui.New(tui.Options{
		Input:   in,
		Output:  output,
		Theme:   theme,
		Session: true,
		Alerts:  o.alerts,
		Environ: e.environ,
	})
	_, err = playDemo(ctx, p, sc, o)
	return err
}

// playDemo runs the scenario's agents against the program's provider, and
// with autoplay the scripted human too, until the program ends (or, with
// autoplay, the scenario does). Every goroutine it starts has ended when
// it returns.
func playDemo(ctx context.Context, p *tui.Program, sc *script.Scenario, o demoOptions) (*script.Result, error) {
	svc := interaction.NewService()
	unregister, err := svc.Register(p.Provider())
	if err != nil {
		return nil, err
	}
	defer unregister()

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	runner := &script.Runner{Asker: svc, Reporter: svc, Speed: o.speed}
	var wg sync.WaitGroup
	if o.autoplay {
		player := &script.Player{Keyboard: p, Speed: o.speed}
		runner.OnAsk = player.Enqueue
		wg.Go(func() { _ = player.Run(ctx) })
	}
	var (
		res    *script.Result
		runErr error
	)
	wg.Go(func() {
		res, runErr = runner.Run(ctx, sc)
		if !o.autoplay {
			// The human looks around, then quits.
			p.SetStatus("The demo has finished: every agent is done. ctrl+c leaves.")
			return
		}
		// Leave the last screen up for a moment, then end the demo.
		t := time.NewTimer(time.Duration(float64(3*time.Second) / o.speed))
		defer t.Stop()
		select {
		case <-t.C:
		case <-ctx.Done():
		}
		p.Quit()
	})
	uiErr := p.Run(ctx)
	cancel()
	wg.Wait()
	switch {
	case errors.Is(uiErr, tui.ErrInterrupted):
		return res, interruptedErr(uiErr)
	case uiErr != nil:
		return res, interaction.WrapError(interaction.CodeInternal, uiErr, "the terminal UI failed: %v", uiErr)
	case o.autoplay && runErr != nil:
		switch interaction.CodeOf(runErr) {
		case interaction.CodeAborted, interaction.CodeProviderClosed:
		default:
			return res, runErr // the scenario itself failed
		}
	}
	return res, nil
}

// startRecording records everything drawn on tty to an asciinema v2 file
// at path. The returned terminal is what the UI draws on: it is the tty
// (bubbletea still sees a terminal, its size and colours) and it copies
// every byte into the recording. stop flushes and closes the file.
func startRecording(path string, tty *os.File, e env) (*cast.Terminal, func() error, error) {
	w, h, err := xterm.GetSize(tty.Fd())
	if err != nil || w <= 0 || h <= 0 {
		return nil, nil, interaction.Errorf(interaction.CodeNoTTY, "--record needs the terminal's size: %v", err)
	}
	f, err := os.Create(path) //nolint:gosec // the recording the user named
	if err != nil {
		return nil, nil, interaction.WrapError(interaction.CodeInvalidRequest, err, "--record: %v", err)
	}
	hdr := cast.Header{Width: w, Height: h, Title: "asktui demo", Env: map[string]string{"TERM": e.getenv("TERM"), "SHELL": "/bin/bash"}}
	// Long idle stretches (a human reading) are capped so the recording
	// stays watchable.
	cw, err := cast.NewWriter(f, hdr, cast.WithMaxIdle(2*time.Second))
	if err != nil {
		_ = f.Close()
		return nil, nil, interaction.WrapError(interaction.CodeInternal, err, "--record: %v", err)
	}
	stop := func() error {
		return errors.Join(cw.Close(), f.Close())
	}
	return cast.NewTerminal(tty, cw), stop, nil
}
