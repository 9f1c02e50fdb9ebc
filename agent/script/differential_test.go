package script

import (
	"bytes"
	"errors"
	"flag"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// decodersAgree compares the new decoder with the old one on data: both
// accept it and decode the same scenario, or both refuse it. It returns
// "" when they agree on acceptance and the error's line, else what
// differs.
func decodersAgree(t testing.TB, data []byte) (same bool, lineDiffers bool) {
	sc1, named1, err1 := parseOld("d", data)
	sc2, named2, err2 := parse("d", data)
	switch {
	case err1 == nil && err2 != nil && (strings.Contains(err2.Error(), "is inside the anchor") ||
		strings.Contains(err2.Error(), "could not find alias")):
		// An alias before its anchor, or inside it, is refused even where
		// the old decoder never looked.
		return true, false
	case err2 == nil && err1 != nil && strings.Contains(err1.Error(), `"args"`) &&
		strings.Contains(err1.Error(), "keys must be text"):
		// Tool arguments convert as goccy's YAMLToJSON converts them:
		// every key becomes text.
		return true, false
	case (err1 == nil) != (err2 == nil):
		t.Errorf("old: %v\nnew: %v\ninput: %q", err1, err2, data)
		return false, false
	case err1 == nil:
		normalize(sc1, sc2)
		if !reflect.DeepEqual(sc1, sc2) || named1 != named2 {
			t.Errorf("the decoders disagree on %q:\nold: %+v\nnew: %+v", data, sc1, sc2)
			return false, false
		}
		return true, false
	}
	var pe1, pe2 *ParseError
	if !errors.As(err1, &pe1) || !errors.As(err2, &pe2) {
		t.Errorf("not ParseErrors: %v / %v", err1, err2)
	}
	return true, pe1.Line != pe2.Line
}

// normalize blanks what the decoders may decode differently on purpose:
// no keys as nil or empty, and tool arguments whose keys are not text in
// the file (goccy's conversion spells them its own way: 1.50 is "1.5").
func normalize(a, b *Scenario) {
	var steps [2][]*Step
	for i, sc := range []*Scenario{a, b} {
		for _, s := range sc.Agents {
			walk(s.Steps, func(st *Step) {
				if len(st.Keys) == 0 {
					st.Keys = nil
				}
				steps[i] = append(steps[i], st)
			})
		}
	}
	if len(steps[0]) != len(steps[1]) {
		return
	}
	for i, st := range steps[0] {
		if st.Args != steps[1][i].Args && jsonKey.ReplaceAllString(st.Args, "K:") == jsonKey.ReplaceAllString(steps[1][i].Args, "K:") {
			st.Args = steps[1][i].Args
		}
	}
}

// jsonKey matches a key in compact JSON.
var jsonKey = regexp.MustCompile(`"(?:[^"\\]|\\.)*":`)

// knownDifference reports inputs on which the new decoder differs from the
// old one on purpose: see the comments.
func knownDifference(data []byte) bool {
	s := string(data)
	return strings.Contains(s, "!") // tags: the old decoder ignored them (!!str 1 was a number)
}

// seedFiles returns scenario files to mutate: the embedded ones and every
// source in the tests.
func seedFiles(t testing.TB) [][]byte {
	files, _ := filepath.Glob(filepath.Join("scenarios", "*.yaml"))
	var out [][]byte
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, data)
	}
	return out
}

// mutate changes data a little, in ways that keep it close to YAML.
func mutate(r *rand.Rand, data []byte) []byte {
	out := bytes.Clone(data)
	for range 1 + r.IntN(2) {
		if len(out) == 0 {
			return out
		}
		i := r.IntN(len(out))
		switch r.IntN(7) {
		case 0: // delete a span
			j := min(len(out), i+1+r.IntN(8))
			out = append(out[:i:i], out[j:]...)
		case 1: // insert a YAML-ish token
			tok := []string{"[", "]", "{", "}", ",", ": ", "- ", "\n", "  ", "#", "'", "\"", "null", "true", "1.5", "2s", "x", "&a ", "*a", "|\n", "label: ", "custom: ", "id: ", "for: ", "say: ", "then: ", "args: ", "<<: ", "x-a: ", "preview: ", "detail: "}[r.IntN(31)]
			out = append(out[:i:i], append([]byte(tok), out[i:]...)...)
		case 2: // duplicate a line
			lines := bytes.SplitAfter(out, []byte("\n"))
			k := r.IntN(len(lines))
			lines = append(lines[:k+1:k+1], lines[k:]...)
			out = bytes.Join(lines, nil)
		case 3: // drop a line
			lines := bytes.SplitAfter(out, []byte("\n"))
			k := r.IntN(len(lines))
			out = bytes.Join(append(lines[:k:k], lines[k+1:]...), nil)
		case 4: // swap two lines
			lines := bytes.SplitAfter(out, []byte("\n"))
			a, b := r.IntN(len(lines)), r.IntN(len(lines))
			lines[a], lines[b] = lines[b], lines[a]
			out = bytes.Join(lines, nil)
		case 5: // change a byte
			out[i] = " -:[]{},#'\"&*!|>\nab0"[r.IntN(20)]
		default: // dedent or indent a line
			lines := bytes.SplitAfter(out, []byte("\n"))
			k := r.IntN(len(lines))
			if bytes.HasPrefix(lines[k], []byte("  ")) && r.IntN(2) == 0 {
				lines[k] = lines[k][2:]
			} else {
				lines[k] = append([]byte("  "), lines[k]...)
			}
			out = bytes.Join(lines, nil)
		}
	}
	return out
}

var diffInputs = flag.Int("diff.inputs", 2_000, "how many inputs TestDecodersAgree tries")

// TestDecodersAgree runs both decoders on mutations of the embedded
// scenarios and of the test sources.
func TestDecodersAgree(t *testing.T) {
	seeds := seedFiles(t)
	for _, s := range parseSources() {
		seeds = append(seeds, []byte(s))
	}
	r := rand.New(rand.NewPCG(1, 2))
	n := *diffInputs
	var accepted, lines, skipped int
	for i := range n {
		data := seeds[i%len(seeds)]
		if i >= len(seeds) {
			data = mutate(r, data)
		}
		if knownDifference(data) {
			skipped++
			continue
		}
		if _, _, err := parse("d", data); err == nil {
			accepted++
		}
		same, lineDiffers := decodersAgree(t, data)
		if !same {
			break
		}
		if lineDiffers {
			lines++
		}
	}
	t.Logf("%d inputs: %d accepted by both, %d with tags skipped, %d refused on different lines", n, accepted, skipped, lines)
}

func FuzzDecodersAgree(f *testing.F) {
	for _, s := range seedFiles(f) {
		f.Add(s)
	}
	for _, s := range parseSources() {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if !knownDifference(data) {
			decodersAgree(t, data)
		}
	})
}

// parseSources are the scenario sources of the parse tests.
func parseSources() []string {
	out := []string{fullSource,
		"agents:\n  - id: a\n    steps:\n      - tool: {name: t, args: &x {a: [1, 2.5, null, true, .inf]}, result: r}\n      - tool: {name: t, args: *x}\n",
		"agents:\n  - id: a\n    steps: [{ask: {questions: [{id: q, question: Q, multi_select: yes}], keys: [\"pause:5ms\", \"text:up\", enter]}}]\n",
	}
	for _, tt := range parseErrorTests {
		out = append(out, tt.src)
	}
	return out
}
