package main

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/spots-dev/spots/internal/cmdtest"
)

func runCmd(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	return cmdtest.Run(t, func(args []string, stdout, stderr io.Writer) int {
		return run(context.Background(), args, stdout, stderr)
	}, args...)
}

// TestHelpFlags checks that --help lists at most 25 flags, and the swarm
// master's page (after --algorithm swarm) and a worker's at most 30; none
// lists a flag that belongs to another.
func TestHelpFlags(t *testing.T) {
	for _, tc := range []struct {
		args          []string
		want, without string
		most          int
	}{
		{[]string{"--help"}, "--nimber", "--listen", 25},
		{[]string{"--algorithm", "swarm", "--help"}, "--listen", "--nimber", 30},
		{[]string{"--algorithm", "pns-pdfpn", "--help"}, "--workers-local", "--threads", 30},
		{[]string{"worker", "--help"}, "--join", "--listen", 30},
	} {
		status, stdout, _ := runCmd(t, tc.args...)
		n := 0
		_, list, _ := strings.Cut(stdout, "\nFlags:\n")
		for _, line := range strings.Split(list, "\n") {
			// A flag's line starts at column 2 or 6; its wrapped text further in.
			if strings.HasPrefix(line, "      --") || strings.HasPrefix(line, "  -") && !strings.HasPrefix(line, "   ") {
				n++
			}
		}
		if status != 0 || n > tc.most || !strings.Contains(stdout, tc.want+" ") || strings.Contains(stdout, tc.without+" ") {
			t.Errorf("spots-solve %v: status %d, %d flags, want 0, at most %d, with %s and without %s:\n%s", tc.args, status, n, tc.most, tc.want, tc.without, stdout)
		}
	}
}
