// Package styles owns asktui's look: one Palette per background (dark, light,
// the terminal's own 16 ANSI colours, and monochrome) feeds a Styles struct
// for asktui's components, the help bar and the huh theme.
//
// No other package holds a colour literal: everything visual is asked of a
// *Styles built here. The package reads no environment: the command line
// turns NO_COLOR into [ThemeMono] before it asks for styles.
package styles

import (
	"image/color"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/huh/v2"
	"charm.land/lipgloss/v2"
)

// Theme names a palette choice, as given to --theme.
type Theme string

// The themes --theme accepts.
const (
	// ThemeAuto picks dark or light from the terminal's background colour.
	ThemeAuto Theme = "auto"
	// ThemeDark is the palette for dark backgrounds.
	ThemeDark Theme = "dark"
	// ThemeLight is the palette for light backgrounds.
	ThemeLight Theme = "light"
	// ThemeANSI uses only the terminal's 16 colours, so it follows the
	// user's terminal colour scheme.
	ThemeANSI Theme = "ansi"
	// ThemeMono draws without colour; the command line picks it for
	// ThemeAuto when NO_COLOR is set.
	ThemeMono Theme = "mono"
)

// Themes lists the theme names a user may pass, for flag help and
// completion.
var Themes = []Theme{ThemeAuto, ThemeDark, ThemeLight, ThemeANSI, ThemeMono}

// ParseTheme checks a --theme value. The empty string means ThemeAuto.
func ParseTheme(s string) (Theme, bool) {
	if s == "" {
		return ThemeAuto, true
	}
	for _, t := range Themes {
		if strings.EqualFold(s, string(t)) {
			return t, true
		}
	}
	return "", false
}

// Palette is the small set of semantic colours every style derives from.
type Palette struct {
	// Fg is body text; Muted is secondary text (descriptions, help);
	// Subtle is for frames and separators.
	Fg, Muted, Subtle color.Color
	// Accent marks focus (cursor, active tab, prompts); Highlight marks
	// things to notice (recommended options, the question header).
	Accent, Highlight color.Color
	// Success marks chosen and answered things, Warning unanswered or
	// waiting ones, Error failures and destructive actions.
	Success, Warning, Error color.Color
	// OnAccent is text drawn on an Accent background (buttons, the active
	// tab).
	OnAccent color.Color
}

// DarkPalette is for dark terminal backgrounds.
func DarkPalette() Palette {
	return Palette{
		Fg:        lipgloss.Color("#E4E4E7"),
		Muted:     lipgloss.Color("#9CA3AF"),
		Subtle:    lipgloss.Color("#52525B"),
		Accent:    lipgloss.Color("#A78BFA"),
		Highlight: lipgloss.Color("#F0ABFC"),
		Success:   lipgloss.Color("#34D399"),
		Warning:   lipgloss.Color("#FBBF24"),
		Error:     lipgloss.Color("#F87171"),
		OnAccent:  lipgloss.Color("#18181B"),
	}
}

// LightPalette is for light terminal backgrounds: the same hues, darker, so
// every foreground keeps its contrast on white.
func LightPalette() Palette {
	return Palette{
		Fg:        lipgloss.Color("#27272A"),
		Muted:     lipgloss.Color("#6B7280"),
		Subtle:    lipgloss.Color("#A1A1AA"),
		Accent:    lipgloss.Color("#6D28D9"),
		Highlight: lipgloss.Color("#A21CAF"),
		Success:   lipgloss.Color("#047857"),
		Warning:   lipgloss.Color("#B45309"),
		Error:     lipgloss.Color("#B91C1C"),
		OnAccent:  lipgloss.Color("#FFFFFF"),
	}
}

// ANSIPalette uses the terminal's 16 colours, which the user's terminal
// scheme already tunes for its background.
func ANSIPalette() Palette {
	return Palette{
		Fg:        lipgloss.NoColor{},
		Muted:     lipgloss.Color("8"),
		Subtle:    lipgloss.Color("8"),
		Accent:    lipgloss.Color("5"),
		Highlight: lipgloss.Color("6"),
		Success:   lipgloss.Color("2"),
		Warning:   lipgloss.Color("3"),
		Error:     lipgloss.Color("1"),
		OnAccent:  lipgloss.Color("0"),
	}
}

// MonoPalette has no colours at all; styles built from it mark focus and
// selection with glyphs, bold and reverse video instead.
func MonoPalette() Palette {
	n := lipgloss.NoColor{}
	return Palette{Fg: n, Muted: n, Subtle: n, Accent: n, Highlight: n, Success: n, Warning: n, Error: n, OnAccent: n}
}

// Resolve turns a theme choice into a palette. isDark is the terminal's
// background as detected (or assumed), which only ThemeAuto consults.
func Resolve(t Theme, isDark bool) Palette {
	switch t {
	case ThemeDark:
		return DarkPalette()
	case ThemeLight:
		return LightPalette()
	case ThemeANSI:
		return ANSIPalette()
	case ThemeMono:
		return MonoPalette()
	default: // ThemeAuto: the terminal's background decides
		if isDark {
			return DarkPalette()
		}
		return LightPalette()
	}
}

// Styles holds every style asktui draws with, grouped by component.
type Styles struct {
	// Mono is true when the palette has no colour: components then lean on
	// glyphs and text attributes alone.
	Mono bool

	App struct {
		// Name is the "asktui" brand in the title bar.
		Name lipgloss.Style
		// Bar is the title bar line; Agent names the asking agent; Queue
		// counts waiting requests.
		Bar, Agent, Queue lipgloss.Style
		// Countdown shows the time left before --timeout ends the request;
		// CountdownUrgent is used for its last seconds.
		Countdown, CountdownUrgent lipgloss.Style
		// Empty is the text shown while no request waits.
		Empty lipgloss.Style
		// Notice is a transient status line (e.g. a withdrawn request);
		// Error reports a failure.
		Notice, Error lipgloss.Style
	}

	Tabs struct {
		// Active is the focused question's tab, Inactive the others.
		Active, Inactive lipgloss.Style
		// Answered is the mark on a tab whose question has an answer;
		// Pending the mark on one that has none yet.
		Answered, Pending lipgloss.Style
		// Separator sits between tabs; Scroll marks tabs cut off at an edge.
		Separator, Scroll lipgloss.Style
	}

	Question struct {
		// Header is the question's short header, Text its body.
		Header, Text lipgloss.Style
		// Hint is the line under the question saying what kind of answer it
		// takes ("Pick one", "Pick any").
		Hint lipgloss.Style
		// ScrollHint tells that the question text continues.
		ScrollHint lipgloss.Style
		// Answer frames a free-text answer's box with a bar on its left;
		// AnswerText and AnswerPlaceholder are its text, typed or not
		// yet. The huh theme's fields take the same.
		Answer, AnswerText, AnswerPlaceholder lipgloss.Style
	}

	Option struct {
		// Cursor is the focus glyph before the focused row.
		Cursor lipgloss.Style
		// Number is the 1–9 shortcut before a row.
		Number lipgloss.Style
		// Label is an option's label; Focused the focused one's; Chosen one
		// that is selected.
		Label, Focused, Chosen lipgloss.Style
		// Checked and Unchecked are the multi-select boxes.
		Checked, Unchecked lipgloss.Style
		// Description is the text under a label (its Markdown drawn in
		// the Markdown styles).
		Description lipgloss.Style
		// Recommended is the badge on a "(Recommended)" option.
		Recommended lipgloss.Style
		// Other is the label of the free-text "Other" row.
		Other lipgloss.Style
		// Filter is the filter prompt and text; Match highlights the
		// matching part; Counter shows "12/1000".
		Filter, Counter lipgloss.Style
		// Scroll marks that the list continues above or below.
		Scroll lipgloss.Style
	}

	Review struct {
		// Title heads the review step.
		Title lipgloss.Style
		// Question is a question's header in the review list, Answer its
		// answer, Unanswered the flag on one without answer.
		Question, Answer, Custom, Unanswered lipgloss.Style
	}

	Dialog struct {
		// Box frames a confirmation; Title and Body are its text.
		Box, Title, Body lipgloss.Style
		// Button and ActiveButton are its choices.
		Button, ActiveButton lipgloss.Style
		// Danger is the title of a destructive confirmation.
		Danger lipgloss.Style
	}

	Activity struct {
		// Glyph is the kind marker at the start of an entry.
		Glyph lipgloss.Style
		// Message, Tool and Result style what an agent said, called and got
		// back; Failed a failed result or a declined question.
		Message, Tool, Result, Failed lipgloss.Style
		// Asked, Answered and Withdrawn style the questions' fates.
		Asked, Answered, Withdrawn lipgloss.Style
		// Info styles connection notes; Thinking the live thinking lines.
		Info, Thinking lipgloss.Style
		// Title heads the activity pane; TitleFocused when it has focus.
		Title, TitleFocused lipgloss.Style
	}

	Inbox struct {
		// Title heads the inbox; Item is a waiting request, Active the one
		// shown; Meta its question count and age.
		Title, Item, Active, Meta lipgloss.Style
	}

	Code struct {
		// The colours of highlighted code (diffs, previews): plain text,
		// keywords, types, function names, strings, numbers, comments
		// and operators.
		Plain, Keyword, Type, Function, String, Number, Comment, Operator lipgloss.Style
	}

	Diff struct {
		// Added and Removed mark a diff's lines (the +/- sign and the
		// line number), Context the unchanged ones, Hunk the @@ lines,
		// LineNo the line numbers of context lines; Path heads a file.
		Added, Removed, Context, Hunk, LineNo, Path lipgloss.Style
	}

	// Markdown styles rendered Markdown.
	Markdown MarkdownStyles

	Conversation struct {
		// User is the human's prompt in the transcript; Agent the agent's
		// name before its message; Thought its thinking (dimmed).
		User, Agent, Thought lipgloss.Style
		// Tool is a tool call's title; ToolDone, ToolFailed and
		// ToolRunning its status marks.
		Tool, ToolDone, ToolFailed, ToolRunning lipgloss.Style
		// Plan is a plan's heading; Done a finished step.
		Plan, Done lipgloss.Style
		// Editor is the prompt editor's frame; Prompt its › mark;
		// Selected the highlighted row of a completion or picker.
		Editor, Prompt, Selected lipgloss.Style
		// Status is the turn's status line (working, cancelled…).
		Status lipgloss.Style
	}

	// Frame draws the border around the question panel.
	Frame lipgloss.Style

	// Divider separates the session's columns.
	Divider lipgloss.Style

	agents []lipgloss.Style

	// Help styles the help bar.
	Help help.Styles

	huh *huh.Styles
}

// New builds the styles for a palette.
func New(p Palette) *Styles {
	s := &Styles{}
	_, s.Mono = p.Accent.(lipgloss.NoColor)
	fg := func(c color.Color) lipgloss.Style { return lipgloss.NewStyle().Foreground(c) }

	s.App.Name = lipgloss.NewStyle().Bold(true).Foreground(p.OnAccent).Background(p.Accent).Padding(0, 1)
	s.App.Bar = fg(p.Muted)
	s.App.Agent = fg(p.Highlight).Bold(true)
	s.App.Queue = fg(p.Warning).Bold(true)
	s.App.Countdown = fg(p.Warning)
	s.App.CountdownUrgent = fg(p.Error).Bold(true)
	s.App.Empty = fg(p.Muted).Italic(true)
	s.App.Notice = fg(p.Warning)
	s.App.Error = fg(p.Error).Bold(true)

	s.Tabs.Active = lipgloss.NewStyle().Bold(true).Foreground(p.OnAccent).Background(p.Accent).Padding(0, 1)
	s.Tabs.Inactive = fg(p.Muted).Padding(0, 1)
	s.Tabs.Answered = fg(p.Success).SetString("✓")
	s.Tabs.Pending = fg(p.Subtle).SetString("○")
	s.Tabs.Separator = fg(p.Subtle)
	s.Tabs.Scroll = fg(p.Muted)

	s.Question.Header = fg(p.Highlight).Bold(true)
	s.Question.Text = fg(p.Fg).Bold(true)
	s.Question.Hint = fg(p.Muted).Italic(true)
	s.Question.ScrollHint = fg(p.Muted)
	s.Question.Answer = lipgloss.NewStyle().PaddingLeft(1).BorderStyle(lipgloss.ThickBorder()).BorderLeft(true).BorderForeground(p.Subtle)
	s.Question.AnswerText = fg(p.Fg)
	s.Question.AnswerPlaceholder = fg(p.Subtle)

	s.Option.Cursor = fg(p.Accent).Bold(true).SetString("❯")
	s.Option.Number = fg(p.Muted)
	s.Option.Label = fg(p.Fg)
	s.Option.Focused = fg(p.Accent).Bold(true)
	s.Option.Chosen = fg(p.Success)
	s.Option.Checked = fg(p.Success).SetString("[✓]")
	s.Option.Unchecked = fg(p.Muted).SetString("[ ]")
	s.Option.Description = fg(p.Muted)
	s.Option.Recommended = fg(p.Success).Bold(true)
	s.Option.Other = fg(p.Fg).Italic(true)
	s.Option.Filter = fg(p.Accent)
	s.Option.Counter = fg(p.Muted)
	s.Option.Scroll = fg(p.Muted)

	s.Review.Title = fg(p.Accent).Bold(true)
	s.Review.Question = fg(p.Highlight).Bold(true)
	s.Review.Answer = fg(p.Fg)
	s.Review.Custom = fg(p.Fg).Italic(true)
	s.Review.Unanswered = fg(p.Warning).Bold(true)

	s.Dialog.Box = lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).BorderForeground(p.Accent).Padding(0, 1)
	s.Dialog.Title = fg(p.Fg).Bold(true)
	s.Dialog.Danger = fg(p.Error).Bold(true)
	s.Dialog.Body = fg(p.Muted)
	s.Dialog.Button = fg(p.Muted).Padding(0, 1)
	s.Dialog.ActiveButton = lipgloss.NewStyle().Bold(true).Foreground(p.OnAccent).Background(p.Accent).Padding(0, 1)

	s.Frame = lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).BorderForeground(p.Subtle).Padding(0, 1)
	s.Divider = fg(p.Subtle)

	s.Activity.Glyph = fg(p.Muted)
	s.Activity.Message = fg(p.Fg)
	s.Activity.Tool = fg(p.Accent)
	s.Activity.Result = fg(p.Muted)
	s.Activity.Failed = fg(p.Error)
	s.Activity.Asked = fg(p.Warning)
	s.Activity.Answered = fg(p.Success)
	s.Activity.Withdrawn = fg(p.Muted).Italic(true)
	s.Activity.Info = fg(p.Subtle).Italic(true)
	s.Activity.Thinking = fg(p.Muted).Italic(true)
	s.Activity.Title = fg(p.Muted).Bold(true)
	s.Activity.TitleFocused = fg(p.Accent).Bold(true).Underline(true)

	s.Inbox.Title = fg(p.Muted).Bold(true)
	s.Inbox.Item = fg(p.Fg)
	s.Inbox.Active = fg(p.Accent).Bold(true)
	s.Inbox.Meta = fg(p.Muted)

	s.Code.Plain = fg(p.Fg)
	s.Code.Keyword = fg(p.Accent).Bold(true)
	s.Code.Type = fg(p.Highlight)
	s.Code.Function = fg(p.Success)
	s.Code.String = fg(p.Success)
	s.Code.Number = fg(p.Warning)
	s.Code.Comment = fg(p.Muted).Italic(true)
	s.Code.Operator = fg(p.Muted)

	s.Diff.Added = fg(p.Success).Bold(true)
	s.Diff.Removed = fg(p.Error).Bold(true)
	s.Diff.Context = fg(p.Muted)
	s.Diff.Hunk = fg(p.Subtle)
	s.Diff.LineNo = fg(p.Subtle)
	s.Diff.Path = fg(p.Highlight).Bold(true)

	s.Conversation.User = fg(p.Accent).Bold(true)
	s.Conversation.Agent = fg(p.Highlight).Bold(true)
	s.Conversation.Thought = fg(p.Muted).Italic(true)
	s.Conversation.Tool = fg(p.Fg).Bold(true)
	s.Conversation.ToolDone = fg(p.Success)
	s.Conversation.ToolFailed = fg(p.Error)
	s.Conversation.ToolRunning = fg(p.Warning)
	s.Conversation.Plan = fg(p.Accent).Bold(true)
	s.Conversation.Done = fg(p.Muted).Strikethrough(true)
	s.Conversation.Editor = lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).BorderForeground(p.Subtle).Padding(0, 1)
	s.Conversation.Prompt = fg(p.Accent).Bold(true)
	s.Conversation.Selected = lipgloss.NewStyle().Foreground(p.OnAccent).Background(p.Accent)
	s.Conversation.Status = fg(p.Muted).Italic(true)

	for _, c := range []color.Color{p.Highlight, p.Accent, p.Success, p.Warning, p.Error} {
		s.agents = append(s.agents, fg(c).Bold(true))
	}

	s.Help = help.Styles{
		Ellipsis:       fg(p.Subtle),
		ShortKey:       fg(p.Accent),
		ShortDesc:      fg(p.Muted),
		ShortSeparator: fg(p.Subtle),
		FullKey:        fg(p.Accent),
		FullDesc:       fg(p.Muted),
		FullSeparator:  fg(p.Subtle),
	}

	if s.Mono {
		// Without colour, reverse video carries what the accent background
		// carried, and bold carries focus.
		s.App.Name = s.App.Name.Reverse(true)
		s.Tabs.Active = s.Tabs.Active.Reverse(true)
		s.Dialog.ActiveButton = s.Dialog.ActiveButton.Reverse(true)
		s.Option.Focused = s.Option.Focused.Underline(true)
		s.Conversation.Selected = s.Conversation.Selected.Reverse(true)
	}

	s.huh = huhTheme(p, s)
	s.Markdown = markdownStyles(p, s.Mono)
	return s
}

// AgentStyle is the style of the i-th agent's name: agents cycle through
// the palette so neighbours differ.
func (s *Styles) AgentStyle(i int) lipgloss.Style {
	return s.agents[i%len(s.agents)]
}

// For resolves a theme choice and builds its styles in one step.
func For(t Theme, isDark bool) *Styles { return New(Resolve(t, isDark)) }

// HuhTheme returns the huh theme derived from the same palette, built once
// and returned as is on every call, whatever background huh reports (the
// background was already taken into account when the palette was chosen).
func (s *Styles) HuhTheme() huh.Theme {
	return huh.ThemeFunc(func(bool) *huh.Styles { return s.huh })
}

func huhTheme(p Palette, s *Styles) *huh.Styles {
	t := huh.ThemeBase(true)
	fg := func(c color.Color) lipgloss.Style { return lipgloss.NewStyle().Foreground(c) }

	t.Focused.Base = s.Question.Answer
	t.Focused.Card = t.Focused.Base
	t.Focused.Title = fg(p.Fg).Bold(true)
	t.Focused.NoteTitle = fg(p.Accent).Bold(true).MarginBottom(1)
	t.Focused.Description = fg(p.Muted)
	t.Focused.ErrorIndicator = fg(p.Error).SetString(" *")
	t.Focused.ErrorMessage = fg(p.Error).SetString(" *")
	t.Focused.SelectSelector = fg(p.Accent).SetString("❯ ")
	t.Focused.NextIndicator = fg(p.Accent).MarginLeft(1).SetString("→")
	t.Focused.PrevIndicator = fg(p.Accent).MarginRight(1).SetString("←")
	t.Focused.Option = fg(p.Fg)
	t.Focused.MultiSelectSelector = fg(p.Accent).SetString("❯ ")
	t.Focused.SelectedOption = fg(p.Success)
	t.Focused.SelectedPrefix = fg(p.Success).SetString("[✓] ")
	t.Focused.UnselectedPrefix = fg(p.Muted).SetString("[ ] ")
	t.Focused.UnselectedOption = fg(p.Fg)
	t.Focused.FocusedButton = s.Dialog.ActiveButton.MarginRight(1)
	t.Focused.BlurredButton = s.Dialog.Button.MarginRight(1)
	t.Focused.Next = t.Focused.FocusedButton
	t.Focused.TextInput.Cursor = fg(p.Accent)
	t.Focused.TextInput.Placeholder = s.Question.AnswerPlaceholder
	t.Focused.TextInput.Prompt = fg(p.Accent)
	t.Focused.TextInput.Text = s.Question.AnswerText

	t.Blurred = t.Focused
	t.Blurred.Base = t.Focused.Base.BorderStyle(lipgloss.HiddenBorder())
	t.Blurred.Card = t.Blurred.Base
	t.Blurred.Title = fg(p.Muted)
	t.Blurred.MultiSelectSelector = lipgloss.NewStyle().SetString("  ")
	t.Blurred.NextIndicator = lipgloss.NewStyle()
	t.Blurred.PrevIndicator = lipgloss.NewStyle()

	t.Group.Title = t.Focused.Title
	t.Group.Description = t.Focused.Description
	t.Help = s.Help
	return t
}
