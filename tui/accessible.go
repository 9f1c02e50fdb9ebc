package tui

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/charmbracelet/colorprofile"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/styles"
)

// accessibleProvider asks with huh's accessible mode: plain, linear prompts
// a screen reader can follow, one request at a time, options chosen by
// number. The answers are the same as in the full-screen UI.
type accessibleProvider struct {
	in     io.Reader
	out    io.Writer
	styles *styles.Styles
	turn   chan struct{} // one request at a time holds the terminal
	done   <-chan struct{}
}

func newAccessibleProvider(opts Options, done <-chan struct{}) *accessibleProvider {
	a := &accessibleProvider{in: opts.Input, out: opts.Output, turn: make(chan struct{}, 1), done: done}
	if a.in == nil {
		a.in = os.Stdin
	}
	if a.out == nil {
		a.out = os.Stdout
	}
	// Plain text only: a screen reader reads escape sequences aloud.
	plain := colorprofile.NewWriter(a.out, os.Environ())
	plain.Profile = colorprofile.NoTTY
	a.out = plain
	a.styles = styles.For(styles.ThemeMono, true)
	return a
}

// Ask prompts for each question in turn. A prompt blocked reading the
// terminal cannot be interrupted: when ctx ends, Ask returns at once and
// the prompt's answer, if one still comes, is discarded with a notice.
func (a *accessibleProvider) Ask(ctx context.Context, req interaction.Request) (interaction.Answer, error) {
	select {
	case a.turn <- struct{}{}:
	case <-ctx.Done():
		return interaction.Answer{}, interaction.ContextError(ctx)
	case <-a.done:
		return interaction.Answer{}, errClosed()
	}
	result := make(chan askResult, 1)
	go func() {
		defer func() { <-a.turn }()
		ans, err := a.prompt(req)
		result <- askResult{answer: ans, err: err}
	}()
	select {
	case r := <-result:
		return r.answer, r.err
	case <-ctx.Done():
		_, _ = fmt.Fprintln(a.out, "\nThis question was withdrawn by the agent; press enter to continue.")
		return interaction.Answer{}, interaction.ContextError(ctx)
	case <-a.done:
		return interaction.Answer{}, errClosed()
	}
}

func (a *accessibleProvider) prompt(req interaction.Request) (interaction.Answer, error) {
	r := newRequest(askMsg{req: req})
	fmt.Fprintf(a.out, "%s asks %d question(s).\n", r.agent, len(r.questions))
	for i := range r.questions {
		r.tab = i
		q := r.current()
		fmt.Fprintf(a.out, "\nQuestion %d of %d", i+1, len(r.questions))
		if q.header != "" {
			fmt.Fprintf(a.out, " (%s)", q.header)
		}
		fmt.Fprintf(a.out, ":\n%s\n", q.text)
		r.buildForm(a.styles, 80, 24, true)
		form := r.form.WithAccessible(true).WithInput(a.in).WithOutput(a.out)
		if err := form.Run(); err != nil {
			return interaction.Answer{}, interaction.WrapError(interaction.CodeDeclined, err, "the user declined to answer")
		}
		if q.free() && strings.TrimSpace(q.typed) == "" {
			fmt.Fprintln(a.out, "(skipped)")
		}
	}
	return r.answer(), nil
}
