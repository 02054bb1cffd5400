package main

import (
	"os"
	"os/exec"
)

// freshCache gives cmd a cache directory of its own (XDG_CACHE_HOME), and
// returns its removal: spots-solve keeps the checkpoint of a search it
// stops there by default and resumes it when run again, so that runs of
// one position would otherwise go on from each other.
func freshCache(cmd *exec.Cmd) func() {
	dir, err := os.MkdirTemp("", "benchsolve-cache")
	if err != nil {
		return func() {}
	}
	if cmd.Env == nil {
		cmd.Env = os.Environ()
	}
	cmd.Env = append(cmd.Env, "XDG_CACHE_HOME="+dir)
	return func() { os.RemoveAll(dir) }
}
