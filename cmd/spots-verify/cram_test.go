package main

import (
	"context"
	"strings"
	"testing"

	"github.com/spots-dev/spots/certify"
	"github.com/spots-dev/spots/cram"
	"github.com/spots-dev/spots/format"
	"github.com/spots-dev/spots/solve"
	"github.com/spots-dev/spots/verify"
)

// TestCramCertificate: a Cram certificate is checked by the rules of the
// game its header names; a false claim is INVALID, a limit on cells
// REFUSES it.
func TestCramCertificate(t *testing.T) {
	s := solve.NewDFPN(cram.Rules{}, nil, solve.Options{})
	root := cram.MustParse("4x5")
	out := s.Solve(context.Background(), root, 0)
	claim, err := certify.Claim(root, 0, out, nil)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	path, _, err := certify.WriteFor(cram.Game, dir, s.DB(), claim, verify.Options{})
	if err != nil {
		t.Fatal(err)
	}
	status, stdout, stderr := runCmd(t, path)
	if status != 0 || !strings.HasPrefix(stdout, "VALID    4x5=W  ") {
		t.Errorf("status %d, %q, stderr %q", status, stdout, stderr)
	}
	status, stdout, _ = runCmd(t, "--max-cells", "10", path)
	if status != 2 || !strings.HasPrefix(stdout, "REFUSED  ") || !strings.Contains(stdout, "--max-cells") {
		t.Errorf("--max-cells 10: status %d, %q", status, stdout)
	}
	cert, err := format.ReadCertificate(path)
	if err != nil {
		t.Fatal(err)
	}
	cert.Claim.Kind = format.ClaimLoss
	bad, err := format.WriteCertificate(dir, cert, format.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	status, stdout, _ = runCmd(t, bad)
	if status != 1 || !strings.HasPrefix(stdout, "INVALID  ") || !strings.Contains(stdout, "claim") {
		t.Errorf("a false claim: status %d, %q", status, stdout)
	}
}
