package cli

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/spf13/cobra"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/interaction/history"
	"github.com/asktui/asktui/internal/jsonl"
)

func newHistoryCmd(e env) *cobra.Command {
	var (
		asJSON bool
		n      int
		file   string
	)
	cmd := &cobra.Command{
		Use:   "history",
		Short: "Show the questions asked through asktui serve and what became of them",
		Long: `Show the history asktui serve keeps of every request: when it ended,
the agent, the outcome (answered, skipped, declined, withdrawn, elsewhere,
timeout, closed, failed), when it was asked and how long it waited; what
was asked (a permission request by its call: the command's first line, the
files, the URL or the MCP tool); the answers, including what you had typed
when an agent withdrew its question; and what settled it (you, and on
which screen; one of your rules, and which; the rule you saved with your
answer; or why it ended unanswered). Nothing you answered is lost when an
agent's client gave up waiting: find it here.

The records come in the order they ended, the newest last (a question
still waiting, or left waiting when asktui stopped, where it arrived);
-n (--limit) keeps the last N.`,
		Example: `  asktui history -n 5
  asktui history --json | jq -c '.answer'`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if n < 0 {
				return interaction.Errorf(interaction.CodeInvalidRequest,
					"-n %d: give the number of records to show, or 0 for all of them", n)
			}
			path := e.historyPath(file)
			if path == "" {
				return fmt.Errorf("no history file: pass --history PATH")
			}
			if asJSON && !cmd.Flags().Changed("limit") {
				n = 0 // a program reading the records gets every one
			}
			recs, skipped, err := history.ReadFile(path, n)
			if errors.Is(err, fs.ErrNotExist) {
				// A fresh install: asktui serve has asked nothing yet.
				if !asJSON {
					_, _ = fmt.Fprintf(e.stdout, "No history yet: %s does not exist. asktui serve keeps it as agents ask.\n", path)
				}
				return nil
			}
			if errors.Is(err, history.ErrRefused) {
				return interaction.WrapError(interaction.CodeInvalidRequest, err, "%v", err)
			}
			if err != nil {
				return interaction.WrapError(interaction.CodeInternal, err, "cannot read the history %s: %v", path, err)
			}
			if asJSON {
				for _, r := range recs {
					if err := jsonl.Write(e.stdout, r); err != nil {
						return err
					}
				}
			} else if err := history.Format(e.stdout, recs); err != nil {
				return err
			}
			if skipped > 0 {
				_, _ = fmt.Fprintf(e.stderr, "asktui: %d unreadable line(s) in %s were skipped\n", skipped, path)
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the records as JSON lines")
	cmd.Flags().IntVarP(&n, "limit", "n", 20, "show the last N records (0: all); --json prints all unless -n is given")
	cmd.Flags().StringVar(&file, "history", "", "the history file (default: $XDG_STATE_HOME/asktui/history.jsonl)")
	return cmd
}
