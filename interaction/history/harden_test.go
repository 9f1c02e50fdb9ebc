//go:build unix

package history

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/asktui/asktui/interaction"
)

// TestOpenRefusesWhatIsNotOurFile is issue 10's `--history /dev/null`,
// which chmodded the device: only a regular file of our own is opened,
// and nothing else has its mode touched. A FIFO stands in for the device:
// run on a build without the fix, as root, /dev/null itself would be
// broken for everyone.
func TestOpenRefusesWhatIsNotOurFile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(dir, "target")
	if err := os.WriteFile(target, nil, 0o644); err != nil { //nolint:gosec // a test's own file; its mode is part of the set-up
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	cases := []struct{ path, why, keeps string }{
		{fifo, "not a regular file", fifo},
		{link, "symbolic link", target},
	}
	if os.Getuid() == 0 {
		theirs := filepath.Join(dir, "theirs")
		if err := os.WriteFile(theirs, nil, 0o644); err != nil { //nolint:gosec // a test's own file; its mode is part of the set-up
			t.Fatal(err)
		}
		if err := os.Chown(theirs, 54321, -1); err != nil {
			t.Fatal(err)
		}
		cases = append(cases, struct{ path, why, keeps string }{theirs, "another user (uid 54321)", theirs})
	}
	for _, c := range cases {
		var before os.FileInfo
		if c.keeps != "" {
			before, _ = os.Lstat(c.keeps)
		}
		l, err := Open(c.path)
		if err == nil {
			l.Close() //nolint:gosec // a test's set-up or clean-up; a failure shows in the assertion after it
			t.Errorf("Open(%s) succeeded", c.path)
			continue
		}
		if !errors.Is(err, ErrRefused) {
			t.Errorf("Open(%s) = %v, not ErrRefused", c.path, err)
		}
		for _, want := range []string{c.path, c.why, "--history off"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("Open(%s) = %q, which does not say %q", c.path, err, want)
			}
		}
		if c.keeps != "" {
			if after, _ := os.Lstat(c.keeps); after.Mode() != before.Mode() {
				t.Errorf("Open(%s) changed the mode of %s from %v to %v", c.path, c.keeps, before.Mode(), after.Mode())
			}
		}
	}
}

// TestAskedRecordSurvivesAKill: a request leaves a trace as soon as it
// arrives, so a process killed (kill -9) while it waits loses none.
func TestAskedRecordSurvivesAKill(t *testing.T) {
	l, path := openLog(t)
	arrived := make(chan struct{})
	release := make(chan struct{})
	p := interaction.ProviderFunc(func(context.Context, interaction.Request) (interaction.Answer, error) {
		close(arrived)
		<-release
		return interaction.Answer{Answers: []interaction.AnswerItem{{ID: "db", Selected: []string{"SQLite"}}}}, nil
	})
	done := make(chan error, 1)
	go func() {
		_, err := Wrap(p, l, clock(time.Second), nil).Ask(context.Background(), req)
		done <- err
	}()
	<-arrived
	// What a reader finds if the process died now.
	recs, _ := readAll(t, path, 0)
	if len(recs) != 1 || recs[0].Outcome != Asked || recs[0].ID == "" || recs[0].Request.Questions[0].ID != "db" {
		t.Fatalf("while waiting the history holds %+v, want one %q record of the request", recs, Asked)
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	recs, _ = readAll(t, path, 0)
	if len(recs) != 1 || recs[0].Outcome != interaction.OutcomeAnswered {
		t.Fatalf("after the answer the history reads %+v, want only the answered record", recs)
	}
}

// TestReadFoldsAskedRecords: an Asked record goes once its outcome is
// read, whatever lies between them, also when only the last n are kept.
func TestReadFoldsAskedRecords(t *testing.T) {
	l, path := openLog(t)
	rec := func(id string, o interaction.Outcome, i int) Record {
		return Record{ID: id, Time: t0, Outcome: o, Waited: Duration(i)}
	}
	// a and b are asked; a ends; c is asked and ends; old has no ID; b
	// never ends (asktui was killed).
	for _, r := range []Record{
		rec("", interaction.OutcomeAnswered, 0),
		rec("a", Asked, 1), rec("b", Asked, 2), rec("a", interaction.OutcomeDeclined, 3),
		rec("c", Asked, 4), rec("c", interaction.OutcomeAnswered, 5),
	} {
		if err := l.Append(r); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		n    int
		want []string
	}{
		{0, []string{"answered 0", "asked 2", "declined 3", "answered 5"}},
		{2, []string{"declined 3", "answered 5"}},
		{3, []string{"asked 2", "declined 3", "answered 5"}},
		{1, []string{"answered 5"}},
	} {
		recs, _ := readAll(t, path, c.n)
		var got []string
		for _, r := range recs {
			got = append(got, fmt.Sprint(r.Outcome, " ", int(r.Waited)))
		}
		if strings.Join(got, ", ") != strings.Join(c.want, ", ") {
			t.Errorf("n=%d: read %v, want %v", c.n, got, c.want)
		}
	}
}

// TestAppendFollowsRotation: a log rotated away (renamed or deleted) is
// opened again at its path, so no record goes to a file nobody reads.
func TestAppendFollowsRotation(t *testing.T) {
	l, path := openLog(t)
	if err := l.Append(Record{Time: t0, Outcome: interaction.OutcomeAnswered}); err != nil {
		t.Fatal(err)
	}
	rotated := path + ".1"
	if err := os.Rename(path, rotated); err != nil {
		t.Fatal(err)
	}
	if err := l.Append(Record{Time: t0, Outcome: interaction.OutcomeDeclined}); err != nil {
		t.Fatal(err)
	}
	if recs, _ := readAll(t, path, 0); len(recs) != 1 || recs[0].Outcome != interaction.OutcomeDeclined {
		t.Errorf("after a rename the path holds %+v, want the new record", recs)
	}
	if recs, _ := readAll(t, rotated, 0); len(recs) != 1 || recs[0].Outcome != interaction.OutcomeAnswered {
		t.Errorf("the rotated file holds %+v, want the old record", recs)
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if err := l.Append(Record{Time: t0, Outcome: interaction.OutcomeTimeout}); err != nil {
		t.Fatal(err)
	}
	if recs, _ := readAll(t, path, 0); len(recs) != 1 || recs[0].Outcome != interaction.OutcomeTimeout {
		t.Errorf("after a delete the path holds %+v, want the new record", recs)
	}
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("the new file: %v, %v; want mode 0600", fi, err)
	}
}

// TestReadFileRefusesAFIFO: reading a FIFO would wait for a writer
// forever.
func TestReadFileRefusesAFIFO(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, _, err := ReadFile(fifo, 0); !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("ReadFile(fifo) = %v, want a refusal", err)
	}
}
