package main

import (
	"encoding/json"
	"io"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/spots-dev/spots/internal/cmdtest"
	"github.com/spots-dev/spots/internal/interrupt"
	"github.com/spots-dev/spots/outcome"
	"github.com/spots-dev/spots/play"
	"github.com/spots-dev/spots/sprouts"
	"github.com/spots-dev/spots/verify"
)

func TestMain(m *testing.M) {
	cmdtest.ScriptMain(m, "spots-play", runMain)
}

const (
	corpusDir = "../../corpus"
	cert3W    = corpusDir + "/certs/eacf849c669b63334200b95c830c05a5eb8cf06bad39c37c9cd5272d0f2a5386.arrow" // 0*3=W
)

func TestRun(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		stdin  string
		status int
		stdout []string // parts of standard output
		stderr string   // a part of standard error
	}{
		{name: "a win", args: []string{"best", "0*9", "--corpus", corpusDir}, stdout: []string{"0*9  W", "1 proven winning move", "\n  0*4.AB|0*4.AB", "proof  0*9=W"}},
		{name: "a loss", args: []string{"best", "0*6", "--corpus", corpusDir}, status: 1, stdout: []string{"0*6  L", "no move wins"}},
		{name: "a sum with a heap", args: []string{"best", "0*3+*1", "--cert", corpusDir + "/certs/7fb62f98c91ecc258630477c8685b1ae510d30b02aa34f2967dc12e9728bed5f.arrow"}, status: 1, stdout: []string{"0*3+*1  L"}},
		{name: "a heap to take from", args: []string{"best", "0*3+*3", "--cert", corpusDir + "/certs/7fb62f98c91ecc258630477c8685b1ae510d30b02aa34f2967dc12e9728bed5f.arrow"}, stdout: []string{"0*3+*3  W  (the player to move wins, value 2)", "0*3+*1    take from the heap *3, leaving *1"}},
		{name: "not covered", args: []string{"best", "0*40", "--cert", cert3W}, status: 2, stderr: "0*40: no certificate covers the position"},
		{name: "bad position", args: []string{"best", "0*3x", "--cert", cert3W}, status: 2, stderr: `position: parse "0*3x"`},
		{name: "missing certificate", args: []string{"best", "0*3", "--cert", "nowhere.arrow"}, status: 2, stderr: "nowhere.arrow"},
		{name: "no certificate", args: []string{"best", "0*3"}, status: 2, stderr: "--cert FILE or --corpus DIR"},
		{name: "both sources", args: []string{"best", "0*3", "--cert", cert3W, "--corpus", corpusDir}, status: 2, stderr: "give one"},
		{name: "two positions", args: []string{"best", "0*3", "0*4", "--cert", cert3W}, status: 2, stderr: "one position"},
		{name: "no command", status: 2, stderr: "missing command"},
		{name: "unknown command", args: []string{"solve", "0*3"}, status: 2, stderr: `unknown command "solve"`},
		{name: "unknown flag", args: []string{"best", "--nimber"}, status: 2, stderr: "unknown flag"},
		{name: "help", args: []string{"--help"}, stdout: []string{"usage: spots-play best", "Exit status:"}},
		{name: "bad --first", args: []string{"game", "--first", "me", "--cert", cert3W}, status: 2, stderr: `--first "me"`},
		{name: "game from the claim's root", args: []string{"game", "--cert", cert3W, "--first", "spots"}, stdin: strings.Repeat("1\n", 20), stdout: []string{"Sprouts from 0*3: spots moves first", "spots plays 0.AB|0.AB  (a proven win", "You have no move left: spots wins."}},
		{name: "game: input ends", args: []string{"game", "--cert", cert3W}, stdin: "", status: 2, stdout: []string{"The input ended before the game did."}},
		{name: "game: quit", args: []string{"game", "--cert", cert3W}, stdin: "7\n\nxyz\nq\n", stdout: []string{"7 is not a move's number: enter one from 1 to 3", "Enter a move's number, from 1 to 3", `"xyz" is not a move`, "You quit."}},
		{name: "game from the corpus", args: []string{"game", "0*5", "--corpus", corpusDir, "--first", "spots"}, stdin: strings.Repeat("2\n1\n", 10), stdout: []string{"Sprouts from 0*5: spots moves first", "spots plays 0*2.AB|0*2.AB  (a proven win", "You have no move left: spots wins."}},
		{name: "game: not covered", args: []string{"game", "0*30", "--cert", cert3W}, status: 2, stderr: "no certificate covers"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr strings.Builder
			status := run(tt.args, strings.NewReader(tt.stdin), &stdout, &stderr)
			if status != tt.status {
				t.Errorf("status %d, want %d\nstdout %s\nstderr %s", status, tt.status, stdout.String(), stderr.String())
			}
			for _, part := range tt.stdout {
				if !strings.Contains(stdout.String(), part) {
					t.Errorf("stdout\n%s\nwant it to contain %q", stdout.String(), part)
				}
			}
			if !strings.Contains(stderr.String(), tt.stderr) {
				t.Errorf("stderr %q, want it to contain %q", stderr.String(), tt.stderr)
			}
		})
	}
}

// TestBestJSON checks the machine output, and that every winning move it
// prints reaches a position the certificate proves to have the value 0.
func TestBestJSON(t *testing.T) {
	for _, pos := range []string{"0*9", "0*10", "0*11", "0*4", "0*5"} {
		status, stdout, stderr := cmdtest.Run(t, func(args []string, o, e io.Writer) int { return run(args, strings.NewReader(""), o, e) },
			"best", pos, "--corpus", corpusDir, "--json")
		if status != 0 {
			t.Fatalf("%s: status %d: %s", pos, status, stderr)
		}
		var out bestJSON
		if err := json.Unmarshal([]byte(stdout), &out); err != nil {
			t.Fatalf("%s: %v\n%s", pos, err, stdout)
		}
		if out.Outcome != outcome.Win || len(out.Winning) == 0 || len(out.Certificates) != 1 {
			t.Fatalf("%s: %+v", pos, out)
		}
		// Load the certificate named again, on its own, and look the values up.
		v := play.NewValues()
		if _, err := v.Load(t.Context(), out.Certificates[0].Path, verify.Options{}); err != nil {
			t.Fatal(err)
		}
		for _, m := range out.Winning {
			g, err := play.ParseGame(m.Position)
			if err != nil {
				t.Fatal(err)
			}
			if x, ok := v.Value(g); !ok || x != 0 || m.Value == nil || *m.Value != 0 {
				t.Errorf("%s: the winning move to %s has the value %d (proven %v)", pos, m.Position, x, ok)
			}
			if !isChild(sprouts.MustParse(pos), g.Position) {
				t.Errorf("%s: %s is not a child", pos, m.Position)
			}
		}
	}
}

func isChild(p, c sprouts.Position) bool {
	for _, k := range p.Children() {
		if k == c {
			return true
		}
	}
	return false
}

// TestGameProcess plays a game through a real process and its standard
// input: the human, first at 0*3 (a win), answers spots's move; spots
// must always have a proven winning move after a human's losing move, or
// say that it has none.
func TestGameProcess(t *testing.T) {
	p := cmdtest.StartInput(t, nil, strings.NewReader("3\n"+strings.Repeat("1\n", 20)), "game", "--cert", cert3W)
	if status := p.Wait(t, time.Minute); status != 0 {
		t.Fatalf("status %d\nstderr %s", status, p.Stderr.String())
	}
	out := p.Stdout.String()
	for _, want := range []string{"Sprouts from 0*3: you move first", "you play 0.AB|0.AB", "spots has no proven winning move (the certificate proves this position lost for spots)"} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout\n%s\nwant it to contain %q", out, want)
		}
	}
	if !strings.Contains(out, "no move left") {
		t.Errorf("the game did not end:\n%s", out)
	}
}

// TestSignal: SIGINT or SIGTERM ends a game waiting for the human's move
// (its standard input, a pipe no one writes) at once, with status 130 and
// a word on stderr.
func TestSignal(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		p := cmdtest.StartInput(t, nil, r, "game", "--cert", cert3W)
		deadline := time.Now().Add(time.Minute)
		for !strings.Contains(p.Stdout.String(), "> ") { // the prompt: the game waits for a move
			if time.Now().After(deadline) {
				t.Fatalf("%v: no prompt after a minute", sig)
			}
			time.Sleep(10 * time.Millisecond)
		}
		p.Cmd.Process.Signal(sig)
		if status := p.Wait(t, 10*time.Second); status != interrupt.Status || !strings.Contains(p.Stderr.String(), "spots-play: interrupted") {
			t.Errorf("%v: status %d, stderr %q", sig, status, p.Stderr.String())
		}
		r.Close()
		w.Close()
	}
}
