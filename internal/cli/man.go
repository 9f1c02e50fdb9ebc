package cli

import (
	"fmt"
	"strings"

	mcobra "github.com/muesli/mango-cobra"
	"github.com/muesli/roff"
	"github.com/spf13/cobra"
)

// defaultSocketHelp names the default socket in help text and the man page
// by its rule, not by this machine's path: release man pages are
// generated on the CI machine.
const defaultSocketHelp = "$XDG_RUNTIME_DIR/asktui/asktui.sock (without XDG_RUNTIME_DIR, in /run/user/UID when that is yours), else asktui-UID/asktui.sock in $TMPDIR"

// newManCmd is the hidden `man` command: the man page, generated from the
// command tree as fang's own is, but with each paragraph of the help one
// paragraph of the page (fang's starts a paragraph at every wrapped line).
func newManCmd() *cobra.Command {
	return &cobra.Command{
		Use:                   "man",
		Short:                 "Print the man page",
		Hidden:                true,
		DisableFlagsInUseLine: true,
		Args:                  noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			root := cmd.Root()
			unwrapLong(root)
			page, err := mcobra.NewManPage(1, root)
			if err != nil {
				return fmt.Errorf("building the man page: %w", err)
			}
			_, err = fmt.Fprint(cmd.OutOrStdout(), page.Build(roff.NewDocument()))
			return err
		},
	}
}

// unwrapLong rewrites the long help of c and its subcommands for the man
// page (see manText).
func unwrapLong(c *cobra.Command) {
	c.Long = manText(c.Long)
	for _, sub := range c.Commands() {
		unwrapLong(sub)
	}
}

// manText turns help text wrapped for a terminal into the man page's
// paragraphs: roff starts a paragraph at every newline, so the lines of a
// paragraph are joined with spaces and paragraphs are separated by one
// newline. A line indented by exactly two spaces is an item of a list and
// starts a paragraph of its own; more deeply indented lines continue the
// item above them.
func manText(s string) string {
	var paras []string
	for _, block := range strings.Split(strings.TrimSpace(s), "\n\n") {
		var lines []string
		for _, line := range strings.Split(block, "\n") {
			text := strings.TrimLeft(line, " ")
			indent := len(line) - len(text)
			if indent == 2 || len(lines) == 0 {
				lines = append(lines, strings.TrimRight(line, " "))
				continue
			}
			lines[len(lines)-1] += " " + strings.TrimSpace(text)
		}
		paras = append(paras, lines...)
	}
	return strings.Join(paras, "\n")
}
