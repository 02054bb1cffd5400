package main

import (
	"testing"

	"github.com/spots-dev/spots/internal/cmdtest"
)

// TestScript runs the transcripts of testdata/script: spots-verify as a user
// meets it, with the other commands on PATH.
func TestScript(t *testing.T) { cmdtest.Scripts(t) }
