package field

import (
	"errors"
	"io"
	"strings"

	"charm.land/huh/v2"
)

// Accessible-mode texts.
const (
	accessibleOther       = "Other (type your own answer)"
	accessibleSingleTitle = "Choose one:"
	accessibleMultiTitle  = "Choose any, then 0 to finish:"
	accessibleOtherTitle  = "Your answer:"
)

func (c *Choice) runAccessible(w io.Writer, r io.Reader) error {
	lr, ok := r.(*LineReader)
	if !ok {
		lr = NewLineReader(r)
	}
	d := c.draft
	n := c.n
	opts := make([]huh.Option[int], 0, n+1)
	for i := range n {
		l := c.label(i)
		if c.descs != nil && c.descs[i] != "" {
			l += " — " + c.descs[i]
		}
		opts = append(opts, huh.NewOption(l, i).Selected(c.multi && d.Chosen[i]))
	}
	opts = append(opts, huh.NewOption(accessibleOther, n).Selected(c.multi && d.OtherChosen))
	theme := c.st.HuhTheme()

	other := false
	if c.multi {
		ms := huh.NewMultiSelect[int]().Title(accessibleMultiTitle).Options(opts...)
		ms.WithTheme(theme)
		if err := guard(lr, func() error { return ms.RunAccessible(w, lr) }); err != nil {
			return err
		}
		clear(d.Chosen)
		c.nChosen = 0
		vals, _ := ms.GetValue().([]int)
		for _, v := range vals {
			if v == n {
				other = true
			} else if v >= 0 && v < n {
				d.Chosen[v] = true
				c.nChosen++
			}
		}
	} else {
		s := huh.NewSelect[int]().Title(accessibleSingleTitle).Options(opts...)
		s.WithTheme(theme)
		if err := guard(lr, func() error { return s.RunAccessible(w, lr) }); err != nil {
			return err
		}
		v, _ := s.GetValue().(int)
		if v == n {
			other = true
		} else {
			c.choose(v)
			c.row = c.rowOf(v)
		}
	}

	if other {
		text := d.OtherText
		in := huh.NewInput().Title(accessibleOtherTitle).Value(&text)
		in.WithTheme(theme)
		if err := guard(lr, func() error { return in.RunAccessible(w, lr) }); err != nil {
			return err
		}
		d.OtherText = text
		c.otherInput.SetValue(text)
		d.OtherChosen = strings.TrimSpace(text) != ""
		if d.OtherChosen {
			clear(d.Chosen)
			c.nChosen = 0
		}
		c.row = c.nf()
	} else {
		d.OtherChosen = false
	}
	c.sync()
	return nil
}

// guard runs an accessible prompt. huh's Select indexes its options with
// what it read even when the input ended, and panics: turn that into an
// error when the input did end.
func guard(lr *LineReader, run func() error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			if !lr.eof {
				panic(p)
			}
			err = io.ErrUnexpectedEOF
		}
	}()
	return run()
}

// LineReader hands out at most one line per Read, and remembers that the
// input ended (Ctrl+D on a terminal). huh's accessible prompts each wrap
// their reader in a new bufio.Scanner, which would otherwise swallow the
// lines meant for the next prompt; one LineReader serves every prompt of
// a request.
type LineReader struct {
	r   io.Reader
	b   [1]byte
	eof bool
}

// NewLineReader reads r a line at a time.
func NewLineReader(r io.Reader) *LineReader { return &LineReader{r: r} }

// Ended reports whether the input ended.
func (l *LineReader) Ended() bool { return l.eof }

// Read reads up to the end of the next line.
func (l *LineReader) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		k, err := l.r.Read(l.b[:])
		if k == 1 {
			p[n] = l.b[0]
			n++
			if l.b[0] == '\n' {
				return n, nil
			}
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				l.eof = true
			}
			return n, err
		}
		if k == 0 && n > 0 {
			return n, nil
		}
	}
	return n, nil
}
