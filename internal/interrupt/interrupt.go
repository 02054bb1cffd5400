// Package interrupt gives the commands the behaviour every command of the
// project promises on SIGINT and SIGTERM: those that have no long search to
// wind down (spots-verify, spots-position, spots-play) stop the whole run,
// leave no partial file, say so, and exit with status 130 (ExitOnSignal);
// those that wind one down (spots-solve, spots-corpus) are told through a
// context, and a second signal ends them at once (Context).
package interrupt

import (
	"context"
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

// Context returns a context that the first SIGINT or SIGTERM ends, for a
// command that winds its work down and exits with Status itself. The
// signals are caught only once: a second one has its default effect and
// ends the process at once, so that nothing (a slow file system, a bug)
// can leave the command deaf to signals. stop releases the signals.
func Context() (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	go func() {
		select {
		case <-ch:
			signal.Stop(ch) // before cancel: once ctx ends, a signal has its default effect
			cancel()
		case <-ctx.Done():
		}
	}()
	return ctx, func() {
		signal.Stop(ch)
		cancel()
	}
}
