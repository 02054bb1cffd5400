package main

import (
	"encoding/json"
	"io"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/spots-dev/spots/game"
	"github.com/spots-dev/spots/internal/cmdtest"
	"github.com/spots-dev/spots/internal/interrupt"
	"github.com/spots-dev/spots/outcome"
	"github.com/spots-dev/spots/play"
	"github.com/spots-dev/spots/sprouts"
	"github.com/spots-dev/spots/sprouts/sproutsgame"
	"github.com/spots-dev/spots/verify"
)

func TestMain(m *testing.M) {
	cmdtest.ScriptMain(m, "spots-play", runMain)
}

const (
	corpusDir = "../../corpus"
	cert3W    = corpusDir + "/certs/eacf849c669b63334200b95c830c05a5eb8cf06bad39c37c9cd5272d0f2a5386.arrow" // 0*3=W
)

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
		v := play.NewValues(sproutsgame.Game)
		if _, err := v.Load(t.Context(), out.Certificates[0].Path, verify.Options{}); err != nil {
			t.Fatal(err)
		}
		for _, m := range out.Winning {
			g, err := play.ParseGame(sproutsgame.Game, m.Position)
			if err != nil {
				t.Fatal(err)
			}
			if x, ok := v.Value(g); !ok || x != 0 || m.Value == nil || *m.Value != 0 {
				t.Errorf("%s: the winning move to %s has the value %d (proven %v)", pos, m.Position, x, ok)
			}
			if c, ok := game.Unwrap[sprouts.Position](g.Position); !ok || !isChild(sprouts.MustParse(pos), c) {
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
