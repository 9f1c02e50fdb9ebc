package cli

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/styles"
	"github.com/asktui/asktui/tui"
)

// themeFlag is the --theme flag of every command that draws (ask, serve,
// demo): one definition of its name, help, completion and check.
type themeFlag string

// addThemeFlag adds --theme to cmd, filling in v.
func addThemeFlag(cmd *cobra.Command, v *themeFlag) {
	cmd.Flags().StringVar((*string)(v), "theme", string(styles.ThemeAuto),
		"colours: "+themeNames()+`; NO_COLOR makes "auto" mono`)
	_ = cmd.RegisterFlagCompletionFunc("theme", cobra.FixedCompletions(themeList(), cobra.ShellCompDirectiveNoFileComp))
}

// theme checks the flag and returns the theme to draw with in e (see
// [env.theme]).
func (f themeFlag) theme(e env) (styles.Theme, error) {
	t, ok := styles.ParseTheme(string(f))
	if !ok {
		return "", fmt.Errorf("invalid --theme %q: use one of %s", string(f), themeNames())
	}
	return e.theme(t), nil
}

func themeList() []string {
	names := make([]string, len(styles.Themes))
	for i, t := range styles.Themes {
		names[i] = string(t)
	}
	return names
}

func themeNames() string { return strings.Join(themeList(), ", ") }

// addAlertFlags adds --bell, --title and --notify, the ways a session
// announces a new request, to cmd, filling in a.
func addAlertFlags(cmd *cobra.Command, a *tui.Alerts) {
	f := cmd.Flags()
	f.BoolVar(&a.Bell, "bell", true, "ring the terminal bell when a question arrives")
	f.BoolVar(&a.Title, "title", true, "show the number of waiting questions in the window title")
	f.BoolVar(&a.Notify, "notify", true, "send a desktop notification (OSC 9/777) when a question arrives")
}

// checkTimeout checks a --timeout value: 0 waits forever.
func checkTimeout(d time.Duration) error {
	if d < 0 {
		return fmt.Errorf("invalid --timeout %s: use a positive duration such as 30s or 5m, or 0 to wait forever", d)
	}
	return nil
}

// withTimeout returns a context that ends after d with an ASK_TIMEOUT
// error as its cause, so the request fails with that code; for d = 0 it is
// ctx, waiting forever.
func withTimeout(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	if d <= 0 {
		return ctx, func() {}
	}
	return context.WithTimeoutCause(ctx, d, interaction.TimeoutAfter(d))
}

// noArgs is the Args check of a command that takes no arguments: it says
// what it got and what the command expects, and suggests a subcommand for
// a mistyped one at the root (`asktui aks` suggests ask).
func noArgs(cmd *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	if !cmd.HasParent() {
		msg := fmt.Sprintf("unknown command %q", args[0])
		if s := cmd.SuggestionsFor(args[0]); len(s) > 0 {
			return fmt.Errorf("%s: did you mean %s? Commands: %s", msg, strings.Join(s, " or "), commandNames(cmd))
		}
		return fmt.Errorf("%s; the commands are %s", msg, commandNames(cmd))
	}
	return fmt.Errorf("%s takes no arguments, got %d (%q)", cmd.CommandPath(), len(args), strings.Join(args, " "))
}

// commandNames lists root's commands for an error message.
func commandNames(root *cobra.Command) string {
	var names []string
	for _, c := range root.Commands() {
		if c.IsAvailableCommand() {
			names = append(names, c.Name())
		}
	}
	return strings.Join(names, ", ")
}
