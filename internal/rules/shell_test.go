package rules

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// TestShapesNameRealFields: every field the reader says it reads is a
// field of its node, so a typo cannot let a field through unread.
func TestShapesNameRealFields(t *testing.T) {
	for typ, fields := range vocab().shapes {
		for _, f := range fields {
			if _, ok := typ.FieldByName(f); !ok {
				t.Errorf("shapes lists %s.%s, which %s has not", typ.Name(), f, typ.Name())
			}
		}
	}
}

// TestOnlyRefusesWhatItDoesNotRead: a node with a field the reader does
// not list set, or of a type it does not list, is refused, so that what
// a later parser adds fails closed.
func TestOnlyRefusesWhatItDoesNotRead(t *testing.T) {
	plain := &syntax.ParamExp{Short: true, Param: &syntax.Lit{Value: "x"}}
	if err := only(plain); err != nil {
		t.Fatalf("$x refused: %v", err)
	}
	for name, n := range map[string]syntax.Node{
		"${x:-w}":    &syntax.ParamExp{Param: &syntax.Lit{Value: "x"}, Exp: &syntax.Expansion{Op: syntax.DefaultUnsetOrNull}},
		"${x@P}":     &syntax.ParamExp{Param: &syntax.Lit{Value: "x"}, Exp: &syntax.Expansion{Op: syntax.OtherParamOps}},
		"${!x}":      &syntax.ParamExp{Param: &syntax.Lit{Value: "x"}, Excl: true},
		"${x[i]}":    &syntax.ParamExp{Param: &syntax.Lit{Value: "x"}, Index: &syntax.Word{}},
		"a coproc":   &syntax.Stmt{Coprocess: true},
		"${ x; }":    &syntax.CmdSubst{TempFile: true},
		"$((1))":     &syntax.ArithmExp{},
		"an if":      &syntax.IfClause{},
		"assignment": &syntax.CallExpr{Assigns: []*syntax.Assign{{}}},
	} {
		var u unread
		if err := only(n); !errors.As(err, &u) {
			t.Errorf("%s: only gave %v, want it refused", name, err)
		}
	}
}

// TestAnalyzeIsAPlanOrAnError: the reader gives either a plan or the
// reason it has none, never both, and the reason says what it met.
func TestAnalyzeIsAPlanOrAnError(t *testing.T) {
	w := newWorld(t)
	for cmd, why := range map[string]string{
		"go test ${X@P}":           "parameter expansion",
		"for x in a; do ls; done":  "for or select",
		"go test; xargs env":       "xargs running env",
		"x=1 go test":              "variable assignment",
		"go test $((1))":           "ArithmExp",
		"timeout --kill-after=1 5": "timeout with options",
		"go test\r":                "U+000D",
	} {
		pl, err := analyze(cmd, w.proj)
		if pl != nil || err == nil || !strings.Contains(err.Error(), why) {
			t.Errorf("%q: plan %v, error %v; want no plan and an error about %q", cmd, pl, err, why)
		}
	}
	pl, err := analyze("timeout 60 go test ./... > sub/log; env", w.proj)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"go" + sep + "test" + sep + "./...", "env"}
	var got []string
	for _, c := range pl.cmds {
		got = append(got, c.key)
	}
	if !reflect.DeepEqual(got, want) || len(pl.writes) != 1 || !strings.HasSuffix(pl.writes[0], "/sub/log") {
		t.Errorf("plan: commands %q, writes %q; want %q and sub/log", got, pl.writes, want)
	}
}

// TestSight: the deny rules see the commands in constructs the reader
// refuses, behind wrappers and opaque commands, and in shell scripts.
func TestSight(t *testing.T) {
	for cmd, want := range map[string]string{
		"if true; then rm -rf /x; fi":              "rm -rf /x",
		"sudo -u root rm -rf /":                    "rm -rf /",
		"timeout --signal=KILL 5 rm x":             "rm x",
		"zsh -c 'rm -rf /x'":                       "rm -rf /x",
		"eval 'rm -rf /x'":                         "rm -rf /x",
		"echo $(for f in x; do rm $f; done)":       "rm \x00",
		"env -i FOO=1 rm x":                        "rm x",
		"sudo bash -c 'rm -rf /x'":                 "rm -rf /x",
		"find . -print0 | xargs -0 -n1 rm":         "rm",
		"declare x=$(rm y)":                        "rm y",
		"nice -n 5 nohup command /bin/rm -f y":     "/bin/rm -f y",
		"a b c d e f g h i j k l m n o p q r rm z": "", // not a wrapper: nothing else
	} {
		keys := sight(cmd)
		found := false
		for _, k := range keys {
			found = found || strings.ReplaceAll(k, sep, " ") == want
		}
		if want != "" && !found {
			t.Errorf("%q shows %q, not %q", cmd, keys, want)
		}
		if want == "" && len(keys) != 1 {
			t.Errorf("%q shows %q, want the one command", cmd, keys)
		}
	}
}
