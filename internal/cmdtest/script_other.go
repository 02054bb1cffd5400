//go:build !unix

package cmdtest

import "github.com/rogpeppe/go-internal/testscript"

// scriptCmds are the commands a transcript has beside testscript's own:
// none here (no named pipes).
var scriptCmds = map[string]func(ts *testscript.TestScript, neg bool, args []string){}
