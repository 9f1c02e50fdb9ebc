package script

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
)

//go:embed scenarios/*.yaml
var scenarioFiles embed.FS

// Builtin returns the embedded scenarios, sorted by name. Each call parses
// them afresh, so callers may modify what they get.
func Builtin() []*Scenario {
	names, err := fs.Glob(scenarioFiles, "scenarios/*.yaml")
	if err != nil {
		panic(err) // the pattern is constant and valid
	}
	out := make([]*Scenario, 0, len(names))
	for _, name := range names {
		data, err := scenarioFiles.ReadFile(name)
		if err != nil {
			panic(err) // listed by Glob, so present
		}
		sc, err := Parse(strings.TrimSuffix(path.Base(name), ".yaml"), data)
		if err != nil {
			// The tests parse every embedded scenario: this is a bug.
			panic(fmt.Sprintf("script: embedded scenario %s: %v", name, err))
		}
		out = append(out, sc)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Lookup returns the embedded scenario called nameOrPath, or else loads
// the scenario file at that path. When it is neither, the error lists the
// embedded names.
func Lookup(nameOrPath string) (*Scenario, error) {
	all := Builtin()
	names := make([]string, len(all))
	for i, sc := range all {
		if sc.Name == nameOrPath {
			return sc, nil
		}
		names[i] = sc.Name
	}
	sc, err := Load(nameOrPath)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("no scenario %q: it is neither a built-in scenario (%s) nor a scenario file",
			nameOrPath, strings.Join(names, ", "))
	}
	return sc, err
}
