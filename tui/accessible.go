package tui

import (
	"context"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"charm.land/huh/v2"
	"github.com/charmbracelet/colorprofile"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/interaction/inbox"
	"github.com/asktui/asktui/styles"
	"github.com/asktui/asktui/tui/field"
	"github.com/asktui/asktui/tui/internal/cell"
	"github.com/asktui/asktui/tui/internal/keys"
	"github.com/asktui/asktui/tui/internal/request"
)

// accessibleProvider asks with huh's accessible mode: plain, linear prompts
// a screen reader can follow, one request at a time, options chosen by
// number. The answers are the same as in the full-screen UI. Ctrl+D at
// any prompt declines the request; Ctrl+C quits asktui.
type accessibleProvider struct {
	in     *field.LineReader
	keys   keys.Accessible
	out    io.Writer
	styles *styles.Styles
	turn   chan struct{} // one request at a time holds the terminal
	done   <-chan struct{}
}

func newAccessibleProvider(opts Options, done <-chan struct{}) *accessibleProvider {
	in := opts.Input
	if in == nil {
		in = os.Stdin
	}
	a := &accessibleProvider{in: field.NewLineReader(in), keys: keys.Default().Accessible, out: opts.Output, turn: make(chan struct{}, 1), done: done}
	if a.out == nil {
		a.out = os.Stdout
	}
	environ := opts.Environ
	if environ == nil {
		environ = os.Environ()
	}
	// Plain text only: a screen reader reads escape sequences aloud.
	plain := colorprofile.NewWriter(a.out, environ)
	plain.Profile = colorprofile.NoTTY
	// The prompts and Ask (saying a request ended) both write.
	a.out = &lockedWriter{w: plain}
	a.styles = styles.For(styles.ThemeMono, true)
	return a
}

// Ask prompts for each question in turn. A prompt blocked reading the
// terminal cannot be interrupted: when ctx ends, Ask returns at once and
// the prompt's answer, if one still comes, is discarded. Like the inbox,
// it refuses an invalid request before prompting.
func (a *accessibleProvider) Ask(ctx context.Context, req interaction.Request) (interaction.Answer, error) {
	if err := req.Validate(); err != nil {
		return interaction.Answer{}, err
	}
	select {
	case a.turn <- struct{}{}:
	case <-ctx.Done():
		return interaction.Answer{}, a.ended(ctx)
	case <-a.done:
		return interaction.Answer{}, errClosed()
	}
	result := make(chan inbox.Settlement, 1)
	go func() {
		defer func() { <-a.turn }()
		ans, err := a.prompt(ctx, req)
		result <- inbox.Settlement{Answer: ans, Err: err}
	}()
	stop := a.countdown(ctx)
	defer stop()
	select {
	case r := <-result:
		return r.Answer, r.Err
	case <-ctx.Done():
		return interaction.Answer{}, a.ended(ctx)
	case <-a.done:
		return interaction.Answer{}, errClosed()
	}
}

// countdown says, when the request has a deadline, how long is left: a
// minute and ten seconds before it ends (if it lasts longer), as a line a
// screen reader reads out. stop ends it.
func (a *accessibleProvider) countdown(ctx context.Context) (stop func()) {
	deadline, ok := ctx.Deadline()
	if !ok {
		return func() {}
	}
	done := make(chan struct{})
	go func() {
		for _, left := range []time.Duration{time.Minute, 10 * time.Second} {
			wait := time.Until(deadline) - left
			if wait <= 0 {
				continue
			}
			t := time.NewTimer(wait)
			select {
			case <-t.C:
				_, _ = fmt.Fprintf(a.out, "\n(%s left to answer)\n", formatLeft(left))
			case <-done:
				t.Stop()
				return
			case <-ctx.Done():
				t.Stop()
				return
			}
		}
	}()
	return sync.OnceFunc(func() { close(done) })
}

// formatLeft says a time left in words: "1 minute", "10 seconds".
func formatLeft(d time.Duration) string {
	if d >= time.Minute {
		return cell.Plural(int(d/time.Minute), "minute", "minutes")
	}
	return cell.Plural(int(d/time.Second), "second", "seconds")
}

// ended says why the request ended before it was answered, and returns
// the error for the caller.
func (a *accessibleProvider) ended(ctx context.Context) error {
	err := interaction.ContextError(ctx)
	if interaction.CodeOf(err) == interaction.CodeTimeout {
		_, _ = fmt.Fprintln(a.out, "\nThe question timed out; no answer was sent.")
	} else {
		// In accessible mode the terminal's Ctrl+C ends the context: the
		// human quit.
		_, _ = fmt.Fprintln(a.out, "\nQuit: no answer was sent.")
	}
	return err
}

func (a *accessibleProvider) prompt(ctx context.Context, req interaction.Request) (interaction.Answer, error) {
	r := request.New(&inbox.Request{Request: req})
	_, _ = fmt.Fprintf(a.out, "%s asks %s. Press %s at any prompt to decline.\n", r.Agent, cell.Plural(len(r.Questions), "question", "questions"), keys.Name(a.keys.Decline))
	if deadline, ok := ctx.Deadline(); ok {
		_, _ = fmt.Fprintf(a.out, "You have %s to answer; it then times out with no answer sent.\n", cell.Duration(time.Until(deadline)))
	}
	for i, q := range r.Questions {
		r.Tab = i
		_, _ = fmt.Fprintf(a.out, "\nQuestion %d of %d", i+1, len(r.Questions))
		if q.Header != "" {
			_, _ = fmt.Fprintf(a.out, " (%s)", q.Header)
		}
		_, _ = fmt.Fprintf(a.out, ":\n%s\n", q.Text)
		err := a.form(q).Run()
		if a.in.Ended() || err != nil {
			_, _ = fmt.Fprintln(a.out, "Declined: no answer was sent.")
			return interaction.Answer{}, interaction.Declined()
		}
		if !q.Answered() {
			_, _ = fmt.Fprintln(a.out, "(skipped)")
		}
	}
	return r.Answer(), nil
}

// form is question q as a huh form in accessible mode, which huh draws
// and drives: the option list (field.Choice, a huh.Field, which asks by
// number through huh's own prompts) or huh's Text.
func (a *accessibleProvider) form(q *request.Question) *huh.Form {
	var f huh.Field
	if q.Free() {
		f = huh.NewText().
			Value(&q.Typed).
			Title("Your answer (" + keys.Name(a.keys.Skip) + " to skip):").
			CharLimit(interaction.MaxCustomLen).
			ExternalEditor(false)
	} else {
		f = field.NewChoice(field.ChoiceConfig{
			Label: q.Label, LabelCount: len(q.Raw.Options), Descriptions: q.Descs, Multi: q.Raw.MultiSelect, NoOther: q.Raw.NoOther || q.PlanReview(),
			Draft: q.Draft, Styles: a.styles,
		})
	}
	return huh.NewForm(huh.NewGroup(f)).
		WithShowHelp(false).
		WithTheme(a.styles.HuhTheme()).
		WithAccessible(true).
		WithInput(a.in).
		WithOutput(a.out)
}

// lockedWriter serializes writes to w.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func errClosed() error {
	return interaction.Errorf(interaction.CodeProviderClosed, "the asktui window was closed before the question was answered")
}
