//go:build !unix

package format

import "os"

// lockTemp does nothing: this system's files are not locked here.
func lockTemp(*os.File) {}

// unheld reports false: without locks a writer's liveness is unknown, so no
// temporary file is taken for stale.
func unheld(string) bool { return false }
