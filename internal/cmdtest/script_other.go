//go:build !unix

package cmdtest

import (
	"errors"

	"github.com/rogpeppe/go-internal/testscript"
)

// platformCmds are the commands a transcript has on this platform only:
// none here (no named pipes).
var platformCmds = map[string]func(ts *testscript.TestScript, neg bool, args []string){}

// lockDir has no file locks to take here: builtCommands builds into a
// directory of its own instead.
func lockDir(string) (func(), error) { return nil, errors.New("no file locks") }
