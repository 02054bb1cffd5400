package main

import (
	"os"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/spots-dev/spots/format"
	"github.com/spots-dev/spots/internal/cmdtest"
	"github.com/spots-dev/spots/sprouts"
)

// TestScript runs the transcripts of testdata/script: spots-verify as a user
// meets it, with the other commands on PATH.
func TestScript(t *testing.T) {
	cmdtest.Scripts(t, map[string]func(*testscript.TestScript, bool, []string){"mkcert": mkcert})
}

// mkcert NAME CLAIM [POSITION...] writes a Sprouts certificate of CLAIM
// whose entries are the POSITIONs as given (Grundy value 0, no hints) into
// certs/, and sets $NAME to its path: certificates no solver makes, such as
// the hostile ones whose positions are too large to expand.
func mkcert(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: mkcert NAME CLAIM [POSITION...]")
	}
	claim, err := format.ParseClaim(args[1])
	ts.Check(err)
	cert := &format.Certificate{Claim: claim, Game: sprouts.Game, Notation: sprouts.Notation, Producer: "mkcert", Version: "1"}
	for _, p := range args[2:] {
		cert.Entries = append(cert.Entries, format.Entry{Position: p})
	}
	dir := ts.MkAbs("certs")
	ts.Check(os.MkdirAll(dir, 0o755))
	path, err := format.WriteCertificate(dir, cert, format.WriteOptions{})
	ts.Check(err)
	ts.Setenv(args[0], path)
}
