// Package interrupt gives the commands that have no long search to wind
// down (spots-verify, spots-position) the behaviour every command of the
// project promises on SIGINT and SIGTERM: stop the whole run, leave no
// partial file, say so, and exit with status 130.
package interrupt

import (
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/spots-dev/spots/format"
)

// Status is the exit status after SIGINT or SIGTERM.
const Status = 130

// ExitOnSignal makes SIGINT and SIGTERM abort the process's unfinished
// atomic writes (format.AbortPending), print "NAME: interrupted" on
// stderr and exit with Status. The returned func restores the default
// handling; call it when the run is over.
func ExitOnSignal(name string, stderr io.Writer) (stop func()) {
	ch := make(chan os.Signal, 1)
	done := make(chan struct{})
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	go func() {
		select {
		case <-ch:
			format.AbortPending()
			fmt.Fprintf(stderr, "%s: interrupted\n", name)
			os.Exit(Status)
		case <-done:
		}
	}()
	return func() {
		signal.Stop(ch)
		close(done)
	}
}
