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

func TestRun(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		stdin  string
		status int
		stdout string // exact, unless contains is set
		stderr string // a part of standard error
	}{
		{
			name:   "Cram: children of a board, canon of one with holes, the empty board",
			args:   []string{"--game", "cram", "children", "3x2", "1x1"},
			stdout: `{"input":"3x2","canonical":"2x3","cells":6,"terminal":false,"regions":["2x3"],"children":["##./...","1x2+1x2","2x2"]}` + "\n" + `{"input":"1x1","canonical":"!","cells":0,"terminal":true,"regions":[],"children":[]}` + "\n",
		},
		{
			name:   "Cram: regions from stdin, a bad line",
			args:   []string{"--game", "cram", "regions"},
			stdin:  "..#/#..\n5x5x5\n##/..+2x2\n",
			status: 2,
			stdout: `{"input":"..#/#..","canonical":"#../..#","cells":4,"terminal":false,"regions":["#../..#"]}` + "\n" + `{"input":"5x5x5","error":"cram: parse \"5x5x5\": at byte 2: columns: \"5x5\" is not a number from 1 to 4096 without leading zeros"}` + "\n" + `{"input":"##/..+2x2","canonical":"1x2+2x2","cells":6,"terminal":false,"regions":["1x2","2x2"]}` + "\n",
		},
		{
			name:   "an unknown game",
			args:   []string{"--game", "chess", "canon", "5x5"},
			status: 2,
			stderr: `unknown --game "chess"`,
		},
		{
			name:   "children of the 3-spot game from stdin",
			args:   []string{"children"},
			stdin:  "0*3\n",
			stdout: `{"input":"0*3","canonical":"0*3","lives":9,"terminal":false,"lands":["0*3"],"children":["0*2.AB|AB","0.1a1a","0.AB|0.AB"]}` + "\n",
		},
		{
			name:   "canon of arguments",
			args:   []string{"canon", "BA|BA", "0*18|1a1a", "!"},
			stdout: `{"input":"BA|BA","canonical":"AB|AB","lives":2,"terminal":false,"lands":["AB|AB"]}` + "\n" + `{"input":"0*18|1a1a","canonical":"0*18+1a1a","lives":59,"terminal":false,"lands":["0*18","1a1a"]}` + "\n" + `{"input":"!","canonical":"!","lives":0,"terminal":true,"lands":[]}` + "\n",
		},
		{
			name:   "a bad line is reported and the rest goes on",
			args:   []string{"canon"},
			stdin:  "0*2\n\n0.A|0\n  1.2 \r\n",
			status: 2,
			stdout: `{"input":"0*2","canonical":"0*2","lives":6,"terminal":false,"lands":["0*2"]}` + "\n" + `{"input":"0.A|0","error":"parse \"0.A|0\": at byte 2: uppercase letter A occurs once in its land; an uppercase letter marks a spot seen in exactly two regions"}` + "\n" + `{"input":"1.2","canonical":"12","lives":3,"terminal":false,"lands":["12"]}` + "\n",
		},
		{
			name:   "a line too long to be a position is reported and skipped",
			args:   []string{"canon"},
			stdin:  strings.Repeat("0.", 600_000) + "\n0*2",
			status: 2,
			stdout: `{"input":"` + strings.Repeat("0.", 32) + `…","error":"line 1: longer than 1048576 bytes, the most a position may take"}` + "\n" + `{"input":"0*2","canonical":"0*2","lives":6,"terminal":false,"lands":["0*2"]}` + "\n",
		},
		{
			name:   "terminal children",
			args:   []string{"children", "2AB|AB"},
			stdout: `{"input":"2AB|AB","canonical":"2AB|AB","lives":3,"terminal":false,"lands":["2AB|AB"],"children":["!","22"]}` + "\n",
		},
		{
			name:   "pretty lands",
			args:   []string{"lands", "--pretty", "1a1a+0*3"},
			stdout: "1a1a+0*3\n  canonical  0*3+1a1a\n  lives      14\n  lands      2 (moves remain)\n    0*3                            9 lives\n    1a1a                           5 lives\n",
		},
		{name: "no command", args: nil, status: 2, stderr: "missing command"},
		{name: "unknown command", args: []string{"solve", "0*3"}, status: 2, stderr: `unknown command "solve"`},
		{name: "unknown flag", args: []string{"canon", "--json"}, status: 2, stderr: "unknown flag"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			status := run(tt.args, strings.NewReader(tt.stdin), &stdout, &stderr)
			if status != tt.status {
				t.Errorf("status %d, want %d (stderr %q)", status, tt.status, stderr.String())
			}
			if tt.stdout != "" && stdout.String() != tt.stdout {
				t.Errorf("stdout\n%s\nwant\n%s", stdout.String(), tt.stdout)
			}
			if !strings.Contains(stderr.String(), tt.stderr) {
				t.Errorf("stderr %q, want it to contain %q", stderr.String(), tt.stderr)
			}
		})
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

// TestHelpAndVersion: --help and --version go to standard output, exit 0;
// the usage after an error goes to standard error.
func TestHelpAndVersion(t *testing.T) {
	for _, tt := range []struct {
		args           []string
		status         int
		stdout, stderr string
	}{
		{[]string{"--help"}, 0, "usage: spots-position", ""},
		{[]string{"-h"}, 0, "Exit status:", ""},
		{[]string{"--version"}, 0, "spots-position ", ""},
		{nil, 2, "", "usage: spots-position"},
	} {
		var stdout, stderr bytes.Buffer
		status := run(tt.args, strings.NewReader(""), &stdout, &stderr)
		if status != tt.status || !strings.Contains(stdout.String(), tt.stdout) || !strings.Contains(stderr.String(), tt.stderr) ||
			(tt.stdout == "") != (stdout.Len() == 0) || (tt.stderr == "") != (stderr.Len() == 0) {
			t.Errorf("%v: status %d, stdout %q, stderr %q", tt.args, status, stdout.String(), stderr.String())
		}
	}
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
