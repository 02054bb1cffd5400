package main

import (
	"bytes"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/spots-dev/spots/internal/cmdtest"
	"github.com/spots-dev/spots/internal/interrupt"
)

// TestLongLine: a line too long to be a position (over 1 MiB, which a
// transcript cannot hold well) is reported, cut, and skipped; the next
// line is read. (The other behaviour of the command is in the
// transcripts of testdata/script.)
func TestLongLine(t *testing.T) {
	var stdout, stderr bytes.Buffer
	status := run([]string{"canon"}, strings.NewReader(strings.Repeat("0.", 600_000)+"\n0*2"), &stdout, &stderr)
	want := `{"input":"` + strings.Repeat("0.", 32) + `…","error":"line 1: longer than 1048576 bytes, the most a position may take"}` + "\n" +
		`{"input":"0*2","canonical":"0*2","lives":6,"terminal":false,"lands":["0*2"]}` + "\n"
	if status != 2 || stdout.String() != want {
		t.Errorf("status %d, stdout\n%s\nwant 2 and\n%s", status, stdout.String(), want)
	}
}

// FuzzEachLine checks the line reader against splitting the whole input:
// the same lines in the same order, a line longer than the limit cut to
// its start and marked, and never a panic.
func FuzzEachLine(f *testing.F) {
	f.Add("0*2\n\n0.A|0\r\n  1.2 ")
	f.Add("0123456789abcdef\nshort\n0123456789")
	f.Fuzz(func(t *testing.T, in string) {
		const max = 8
		// A line ends at "\n" or "\r\n"; the last may end at the input's end.
		want := strings.Split(in, "\n")
		for i := range want[:len(want)-1] {
			want[i] = strings.TrimSuffix(want[i], "\r")
		}
		if want[len(want)-1] == "" {
			want = want[:len(want)-1]
		}
		var got []string
		err := eachLine(strings.NewReader(in), max, func(n int, line string, whole bool) {
			if n != len(got)+1 {
				t.Fatalf("line %d after %d lines", n, len(got))
			}
			if w := want[min(n, len(want))-1]; !whole && (len(w) <= max || !strings.HasPrefix(w, line)) {
				t.Fatalf("line %d %q cut to %q", n, w, line)
			}
			got = append(got, line)
		})
		if err != nil || len(got) != len(want) {
			t.Fatalf("%d lines, want %d (%v)", len(got), len(want), err)
		}
		for i, line := range got {
			if w := want[i]; len(w) <= max && line != w {
				t.Errorf("line %d: %q, want %q", i+1, line, w)
			}
		}
	})
}

func TestMain(m *testing.M) {
	cmdtest.ScriptMain(m, "spots-position", runMain)
}

// TestSignal: SIGINT or SIGTERM ends spots-position with status 130 and a
// word on stderr, here while it waits for the next line of its input
// (each line read is answered at once).
func TestSignal(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		p := cmdtest.StartInput(t, nil, r, "canon")
		r.Close()
		defer w.Close()
		w.WriteString("0*3\n")
		deadline := time.Now().Add(30 * time.Second)
		for !strings.Contains(p.Stdout.String(), `"canonical":"0*3"`) {
			if time.Now().After(deadline) {
				t.Fatalf("no answer to the first line after 30 s")
			}
			time.Sleep(10 * time.Millisecond)
		}
		p.Cmd.Process.Signal(sig)
		if status := p.Wait(t, 10*time.Second); status != interrupt.Status || !strings.Contains(p.Stderr.String(), "spots-position: interrupted") {
			t.Errorf("%v: status %d, stderr %q", sig, status, p.Stderr.String())
		}
	}
}
