package main

import (
	"strings"
	"testing"

	"github.com/spots-dev/spots/verify/verifytest"
)

// TestCram: --game cram solves boards (outcome, --nimber, --cert), and
// refuses what Cram has not.
func TestCram(t *testing.T) {
	status, out, stderr := runCmd(t, "--no-progress", "--game", "cram", "5x5", "4x5")
	if status != 0 || out != "5x5  L  (second player wins)\n4x5  W  (first player wins)\n" {
		t.Errorf("status %d, %q, stderr %q", status, out, stderr)
	}
	status, out, stderr = runCmd(t, "--no-progress", "--game", "cram", "--nimber", "1x20", "3x3")
	if status != 0 || out != "1x20  3  (Grundy value; first player wins)\n3x3  0  (Grundy value; second player wins)\n" {
		t.Errorf("--nimber: status %d, %q, stderr %q", status, out, stderr)
	}
	dir := t.TempDir()
	status, r, stderr := solveJSON(t, "--game", "cram", "--cert", dir, "5x4")
	if status != 0 || r["claim"] != "4x5=W" || r["canonical"] != "4x5" || r["algorithm"] != "dfpn" {
		t.Fatalf("--cert: status %d, %v, stderr %q", status, r, stderr)
	}
	res := verifytest.Certificate(t, r["certificate"].(string))
	if res.Claim.String() != "4x5=W" || res.Address != r["address"] {
		t.Errorf("the certificate proves %s at %s", res.Claim, res.Address)
	}
	status, r, _ = solveJSON(t, "--game", "cram", "--cert", dir, "3x3+*1")
	if status != 0 || r["claim"] != "3x3+*1=W" {
		t.Errorf("a heap: status %d, %v", status, r)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--game", "cram", "--algorithm", "swarm", "5x5"}, "--algorithm swarm is for Sprouts only"},
		{[]string{"--game", "cram", "--db-in", "x.txt", "5x5"}, "--db-in is for Sprouts only"},
		{[]string{"--game", "cram", "--state", dir, "5x5"}, "--state is for Sprouts only"},
		{[]string{"--game", "go", "5x5"}, `unknown --game "go" (want sprouts or cram)`},
		{[]string{"--game", "cram", "5x5x5"}, `cram: parse "5x5x5"`},
		{[]string{"--game", "cram", "0*5"}, `cram: parse "0*5"`},
		{[]string{"0x5"}, `parse "0x5"`}, // the default game is Sprouts
	} {
		status, out, stderr := runCmd(t, tc.args...)
		if status != 2 || out != "" || !strings.Contains(stderr, tc.want) {
			t.Errorf("%q: status %d, %q, stderr %q; want 2 and %q", tc.args, status, out, stderr, tc.want)
		}
	}
	_, help, _ := runCmd(t, "--help")
	if !strings.Contains(help, "--game string") || !strings.Contains(help, "spots-solve --game cram --cert certs 5x5") {
		t.Errorf("--help does not list the games: %s", help)
	}
}
