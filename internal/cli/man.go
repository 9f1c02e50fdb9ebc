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

// newManCmd is the `man` command: the man page, generated from the
// command tree as fang's own is, but with each paragraph of the help one
// paragraph of the page (fang's starts a paragraph at every wrapped line).
// The README and docs/install.md name it, so --help lists it too.
func newManCmd() *cobra.Command {
	return &cobra.Command{
		Use:                   "man",
		Short:                 "Print the man page",
		DisableFlagsInUseLine: true,
		Args:                  noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			root := cmd.Root()
			unwrapLong(root)
			page, err := mcobra.NewManPage(1, root)
			if err != nil {
				return fmt.Errorf("building the man page: %w", err)
			}
			_, err = fmt.Fprint(cmd.OutOrStdout(), page.Build(&manDocument{Document: roff.NewDocument()}))
			return err
		},
	}
}

// manDocument is roff's document with the list markup mango leaves out:
// mango opens a command's OPTIONS and COMMANDS lists with an indent and
// starts a tagged paragraph before every item but the first, so the first
// item's tag (--accessible) ran into its text. The first bold text right
// after an indent is such an item (a command's short help, which also
// follows an indent, is plain), and gets its .TP here.
type manDocument struct {
	*roff.Document
	listOpened bool // the last call was Indent
}

// Indent opens an indented block, perhaps a list.
func (d *manDocument) Indent(n int) {
	d.Document.Indent(n)
	d.listOpened = true
}

// TextBold writes bold text, as a list's first tag when a list was just
// opened.
func (d *manDocument) TextBold(text string) {
	if d.listOpened {
		d.Document.TaggedParagraph(-1)
	}
	d.listOpened = false
	d.Document.TextBold(text)
}

// Text writes plain text.
func (d *manDocument) Text(text string) {
	d.listOpened = false
	d.Document.Text(text)
}

// TaggedParagraph starts a tagged paragraph.
func (d *manDocument) TaggedParagraph(indentation int) {
	d.listOpened = false
	d.Document.TaggedParagraph(indentation)
}

// IndentEnd closes an indented block.
func (d *manDocument) IndentEnd() {
	d.listOpened = false
	d.Document.IndentEnd()
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
