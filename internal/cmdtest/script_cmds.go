package cmdtest

import (
	"errors"
	"maps"
	"os"
	"os/exec"
	"strconv"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
)

// ScriptCommands are the commands Scripts gives every transcript beside
// testscript's own:
//
//	exits STATUS PROGRAM [ARGS...]
//		runs PROGRAM as exec does (its output is then stdout and
//		stderr) and fails unless it exits with STATUS: exec and ! exec
//		tell only success from failure, and the commands' statuses
//		mean more (1 a claim false or a position unsolved, 2 bad
//		input, 130 interrupted).
//	freeaddr NAME...
//		sets each environment variable NAME to a loopback address
//		(127.0.0.1:PORT) that is free now: a swarm's master listens on
//		it and its workers join it.
//	replace FILE OLD NEW
//		replaces the first OLD in FILE by NEW, and fails when FILE has
//		no OLD: an edit of a file the transcript did not write whole
//		(a corpus's literature, a generated file).
//	mkfifo PATH...
//		makes a named pipe at each path (Unix only): no command may
//		block on one.
var ScriptCommands = maps.Clone(platformCmds)

func init() {
	ScriptCommands["exits"] = exits
	ScriptCommands["freeaddr"] = freeaddr
	ScriptCommands["replace"] = replace
}

func exits(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exits STATUS PROGRAM [ARGS...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("exits %s: not a status", args[0])
	}
	err = ts.Exec(args[1], args[2:]...)
	got := 0
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		got = exit.ExitCode()
	case err != nil:
		ts.Fatalf("%s: %v", args[1], err)
	}
	if got != want {
		ts.Fatalf("%s exited with status %d, want %d", args[1], got, want)
	}
}

func freeaddr(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) == 0 {
		ts.Fatalf("usage: freeaddr NAME...")
	}
	for _, name := range args {
		addr, err := FreeAddr()
		ts.Check(err)
		ts.Setenv(name, addr)
	}
}

func replace(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: replace FILE OLD NEW")
	}
	path := ts.MkAbs(args[0])
	data, err := os.ReadFile(path)
	ts.Check(err)
	if !strings.Contains(string(data), args[1]) {
		ts.Fatalf("%s has no %q", args[0], args[1])
	}
	ts.Check(os.WriteFile(path, []byte(strings.Replace(string(data), args[1], args[2], 1)), 0o644))
}
