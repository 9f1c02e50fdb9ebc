package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/asktui/asktui/interaction"
	"github.com/asktui/asktui/internal/jsonl"
	"github.com/asktui/asktui/internal/rules"
)

// rulesStore is the rules file flag names (--rules: a path, "off", or ""
// for the default), or nil when there is none.
func (e env) rulesStore(flag string) *rules.Store {
	path := flag
	switch flag {
	case "off":
		return nil
	case "":
		path = rules.DefaultPath(e.getenv)
	}
	if path == "" {
		return nil
	}
	home, _ := e.home()
	return rules.Open(path, rules.DefaultStatePath(e.getenv), home)
}

// newRulesCmd is `asktui rules`: the standing answers, for scripts and
// for reading.
func newRulesCmd(e env) *cobra.Command {
	var file string
	store := func() (*rules.Store, error) {
		path := file
		if path == "" {
			path = rules.DefaultPath(e.getenv)
		}
		if path == "" {
			return nil, fmt.Errorf("no rules file: set XDG_CONFIG_HOME or HOME, or pass --rules PATH")
		}
		home, _ := e.home()
		return rules.Open(path, rules.DefaultStatePath(e.getenv), home), nil
	}
	cmd := &cobra.Command{
		Use:   "rules",
		Short: "List, add and remove your standing answers to agents' permission requests",
		Long: `Your rules answer agents' permission requests for you, whichever agent
asks: Claude Code, Codex and Gemini CLI through asktui hook, ACP agents
through asktui run. Each allows or denies, in one project directory, for
any agent or one agent's session, in Claude Code's permission-rule syntax:
Bash(go test:*), Edit(src/**), Read(./docs/**), WebFetch(domain:go.dev),
mcp__github. Deny wins; a compound shell command is allowed only when
every command in it is. Questions are never answered by a rule.

The rules live in one file you can read and edit
($XDG_CONFIG_HOME/asktui/rules.conf, mode 0600; refused when others can
write it or a directory above it); a running inbox reads it again as soon
as it changes. Without
a subcommand, rules lists them. docs/rules.md has the syntax, the file
format and what a rule will never do.`,
		Example: `  asktui rules add 'Bash(go test:*)'          # in the current directory
  asktui rules add --deny --dir ~/src/app 'Bash(git push:*)'
  asktui rules list
  asktui rules remove 2`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			s, err := store()
			if err != nil {
				return err
			}
			return listRules(e, s, false)
		},
	}
	cmd.PersistentFlags().StringVar(&file, "rules", "", "the rules file (default: $XDG_CONFIG_HOME/asktui/rules.conf)")
	cmd.AddCommand(newRulesListCmd(e, store), newRulesAddCmd(e, store), newRulesRemoveCmd(e, store))
	return cmd
}

func newRulesListCmd(e env, store func() (*rules.Store, error)) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the rules, numbered, with how often each answered",
		Long: `List the rules in the order of the file, numbered as remove takes them,
each with what it says in words and how often it answered. With --json,
one JSON object per rule.`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			s, err := store()
			if err != nil {
				return err
			}
			return listRules(e, s, asJSON)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object per rule")
	return cmd
}

// ruleJSON is a rule as `rules list --json` prints it.
type ruleJSON struct {
	Number  int                        `json:"number"`
	Rule    string                     `json:"rule"`
	Action  rules.Action               `json:"action"`
	Dir     string                     `json:"dir"`
	Session string                     `json:"session,omitempty"`
	Spec    string                     `json:"spec"`
	Kind    interaction.PermissionKind `json:"kind"`
	Words   string                     `json:"words"`
	Hits    int                        `json:"hits"`
	Last    *time.Time                 `json:"last,omitempty"`
}

// listRules prints the rules of s.
func listRules(e env, s *rules.Store, asJSON bool) error {
	set, err := s.Load()
	if err != nil {
		return err
	}
	hits, herr := s.Hits()
	if herr != nil {
		_, _ = fmt.Fprintf(e.stderr, "asktui: %v; counts start again\n", herr)
	}
	list := set.Rules()
	if !asJSON && len(list) == 0 {
		_, err := fmt.Fprintf(e.stdout, "No rules yet in %s. Add one with asktui rules add, or when you answer a permission.\n", s.Path())
		return err
	}
	if !asJSON {
		if _, err := fmt.Fprintf(e.stdout, "%s: %d %s\n", s.Path(), len(list), plural(len(list), "rule", "rules")); err != nil {
			return err
		}
	}
	for i, r := range list {
		h := hits[r.String()]
		if asJSON {
			j := ruleJSON{Number: i + 1, Rule: r.String(), Action: r.Action, Dir: r.Dir, Session: r.Session,
				Spec: r.Spec.String(), Kind: r.Spec.Kind, Words: r.Describe(), Hits: h.Count}
			if h.Count > 0 {
				j.Last = &h.Last
			}
			if err := jsonl.Write(e.stdout, j); err != nil {
				return err
			}
			continue
		}
		count := "never answered"
		if h.Count > 0 {
			count = fmt.Sprintf("%d %s, last %s", h.Count, plural(h.Count, "answer", "answers"), h.Last.Local().Format(time.DateTime))
		}
		if _, err := fmt.Fprintf(e.stdout, "%3d  %s  (%s)\n     %s\n", i+1, r, count, r.Describe()); err != nil {
			return err
		}
	}
	return nil
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func newRulesAddCmd(e env, store func() (*rules.Store, error)) *cobra.Command {
	var (
		deny    bool
		dir     string
		session string
	)
	cmd := &cobra.Command{
		Use:   "add RULE",
		Short: "Add a rule that allows (or with --deny denies) in a project",
		Long: `Add a rule at the end of the rules file: it allows what RULE matches (or
with --deny denies it) for agents working in the project directory
(--dir, by default the current directory, symbolic links resolved), from
any agent or with --session from one agent session only. Quote RULE for
the shell. A rule already in the file is not added twice.`,
		Example: `  asktui rules add 'Bash(go test:*)'
  asktui rules add --deny 'Read(.env)'
  asktui rules add --dir ~/src/app 'WebFetch(domain:pkg.go.dev)'`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := store()
			if err != nil {
				return err
			}
			spec, err := rules.ParseSpec(strings.Join(args, " "))
			if err != nil {
				return err
			}
			if dir == "" {
				if dir, err = os.Getwd(); err != nil {
					return interaction.WrapError(interaction.CodeInternal, err, "cannot find the current directory: %v; pass --dir", err)
				}
			} else if err := projectExists(dir, s.Home()); err != nil {
				return err
			}
			if !strings.HasPrefix(dir, "~") {
				if dir, err = filepath.Abs(dir); err != nil {
					return interaction.WrapError(interaction.CodeInternal, err, "cannot find the directory %s: %v", dir, err)
				}
				if dir, err = rules.ProjectDir(dir, s.Home()); err != nil {
					return err
				}
			}
			action := rules.Allow
			if deny {
				action = rules.Deny
			}
			r, err := rules.NewRule(action, dir, session, spec)
			if err != nil {
				return err
			}
			n, added, err := s.Add(r)
			if err != nil {
				return err
			}
			verb := "Added"
			if !added {
				verb = "Already there:"
			}
			_, err = fmt.Fprintf(e.stdout, "%s rule %d: %s\n     %s\n", verb, n.Number, n.Rule, n.Rule.Describe())
			return err
		},
	}
	cmd.Flags().BoolVar(&deny, "deny", false, "deny what the rule matches instead of allowing it")
	cmd.Flags().StringVar(&dir, "dir", "", "the project directory the rule stands in (default: the current directory)")
	cmd.Flags().StringVar(&session, "session", "", "keep the rule to one agent session (as the history names it, such as claude-code:<id>)")
	return cmd
}

// projectExists refuses a --dir that is not a directory: a rule for a
// project that is not there (a typo) would never answer.
func projectExists(dir, home string) error {
	path := dir
	if dir == "~" || strings.HasPrefix(dir, "~/") {
		if home == "" {
			return nil // the rule says why it cannot stand from home
		}
		path = filepath.Join(home, dir[1:])
	}
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return interaction.Errorf(interaction.CodeInvalidRequest, "--dir %s: no such directory; pass the project directory the rule stands in", dir)
	case err != nil:
		return interaction.WrapError(interaction.CodeInvalidRequest, err, "--dir %s: %v; pass the project directory the rule stands in", dir, err)
	case !fi.IsDir():
		return interaction.Errorf(interaction.CodeInvalidRequest, "--dir %s is not a directory; pass the project directory the rule stands in", dir)
	}
	return nil
}

func newRulesRemoveCmd(e env, store func() (*rules.Store, error)) *cobra.Command {
	return &cobra.Command{
		Use:   "remove N|RULE...",
		Short: "Remove rules by their numbers in rules list, or as they are written",
		Long: `Remove rules, each named by its number in rules list or written out as
rules list writes it (quoted for the shell; the "rule" of rules list
--json). A rule is removed only if it is still the rule that was named:
when the file changed in between (another asktui removed a rule before
it, so the numbers moved) nothing more is removed, and remove says what
rule N is now. Every other line of the file, comments included, stays as
it is.`,
		Example: `  asktui rules remove 2
  asktui rules remove 1 3
  asktui rules remove 'deny ~/src/app Bash(git push:*)'`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := store()
			if err != nil {
				return err
			}
			set, err := s.Load()
			if err != nil {
				return err
			}
			byNumber, byText, err := removeTargets(set, args)
			if err != nil {
				return err
			}
			// From the last, so the numbers of the others hold; then the
			// rules named as written, wherever they are.
			slices.SortFunc(byNumber, func(a, b rules.Numbered) int { return b.Number - a.Number })
			for _, t := range byNumber {
				// Under the file's lock, rule t.Number must still be the
				// rule read here: the numbers shift when another asktui
				// removes a rule before it meanwhile.
				r, err := s.Remove(t.Number, t.Rule.String())
				if err != nil {
					return err
				}
				if _, err := fmt.Fprintf(e.stdout, "Removed rule %d: %s\n", t.Number, r); err != nil {
					return err
				}
			}
			for _, line := range byText {
				n, err := s.RemoveRule(line)
				if err != nil {
					return err
				}
				if _, err := fmt.Fprintf(e.stdout, "Removed rule %d: %s\n", n.Number, n.Rule); err != nil {
					return err
				}
			}
			return nil
		},
	}
}

// removeTargets reads args: rules of set by number, each with the rule
// it is now, and rules as written, each once; a number or a rule that is
// not in set fails them all.
func removeTargets(set *rules.Set, args []string) (byNumber []rules.Numbered, byText []string, err error) {
	list := set.Rules()
	for _, a := range args {
		n, err := strconv.Atoi(strings.TrimSpace(a))
		switch {
		case err == nil && n < 1:
			return nil, nil, interaction.Errorf(interaction.CodeInvalidRule, "%q is not a rule's number; asktui rules list numbers them from 1", a)
		case err == nil && n > len(list):
			return nil, nil, interaction.Errorf(interaction.CodeInvalidRule, "there is no rule %d: the rules file holds %d (asktui rules list numbers them)", n, len(list))
		case err == nil:
			if !slices.ContainsFunc(byNumber, func(t rules.Numbered) bool { return t.Number == n }) {
				byNumber = append(byNumber, rules.Numbered{Number: n, Rule: list[n-1]})
			}
			continue
		}
		r, err := rules.ParseRule(a)
		if err != nil {
			why := err.Error()
			if ie := (*interaction.Error)(nil); errors.As(err, &ie) {
				why = ie.Message
			}
			return nil, nil, interaction.Errorf(interaction.CodeInvalidRule,
				"%q is neither a rule's number nor a rule as asktui rules list writes it (such as 'allow ~/src/app Bash(go test:*)'): %s", a, why)
		}
		line := r.String()
		if !slices.ContainsFunc(list, func(x rules.Rule) bool { return x.String() == line }) {
			return nil, nil, interaction.Errorf(interaction.CodeInvalidRule, "no rule reads %s (asktui rules list shows them as they are written)", line)
		}
		if !slices.Contains(byText, line) {
			byText = append(byText, line)
		}
	}
	// A rule named both ways goes by its number.
	byText = slices.DeleteFunc(byText, func(line string) bool {
		return slices.ContainsFunc(byNumber, func(t rules.Numbered) bool { return t.Rule.String() == line })
	})
	return byNumber, byText, nil
}
