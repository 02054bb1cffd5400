// Package interrupt gives the commands the behaviour every command of the
// project promises on SIGINT and SIGTERM: those that have no long search to
// wind down (spots-verify, spots-position, spots-play) stop the whole run,
// leave no partial file, say so, and exit with status 130 (ExitOnSignal);
// those that wind one down (spots-solve, spots-corpus) are told through a
// context, and a second signal ends them at once (Context); what such a
// command does with nothing to wind down stops at the first (ExitWhenDone).
//
// Exiting at once leaves no partial file because the commands write every
// output through a format.AtomicFile, whose temporary file is not an
// output's until it is committed, and has no name at all where the system
// allows (Linux): this package keeps no list of files to clean, and needs
// none.
package interrupt

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// Status is the exit status after SIGINT or SIGTERM.
const Status = 130

// ExitOnSignal makes SIGINT and SIGTERM print "NAME: interrupted" on
// stderr and exit with Status, at once: an output being written is left
// as it was (see the package comment). The returned func restores the default
// handling; call it when the run is over.
func ExitOnSignal(name string, stderr io.Writer) (stop func()) {
	ch := make(chan os.Signal, 1)
	done := make(chan struct{})
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	go func() {
		select {
		case <-ch:
			exit(name, stderr)
		case <-done:
		}
	}()
	return func() {
		signal.Stop(ch)
		close(done)
	}
}

// exit says that name was interrupted and exits with Status.
func exit(name string, stderr io.Writer) {
	fmt.Fprint(stderr, interrupted(name, stderr))
	os.Exit(Status)
}

// interrupted is what exit says on w: "NAME: interrupted" on a line of its
// own. On a terminal a status line refreshed in place (package statusline)
// may stand on the last line: it is cleared first, so that the message
// does not follow it.
func interrupted(name string, w io.Writer) string {
	msg := name + ": interrupted\n"
	if f, ok := w.(interface{ Stat() (os.FileInfo, error) }); ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			return "\r\x1b[K" + msg
		}
	}
	return msg
}

// ExitWhenDone makes the end of ctx, a context of Context, end the process
// as ExitOnSignal does: "NAME: interrupted" on stderr, exit status Status.
// It is for the parts of a winding-down command that have nothing to wind
// down, such as checking files (spots-corpus check verifies for minutes):
// they stop at once, not when the work is done. The returned func ends the watch (and waits for
// it, so that a context ended afterwards, by Context's stop, exits
// nothing); call it before Context's stop.
func ExitWhenDone(ctx context.Context, name string, stderr io.Writer) (stop func()) {
	done, finished := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(finished)
		select {
		case <-ctx.Done():
			exit(name, stderr)
		case <-done:
		}
	}()
	return func() {
		close(done)
		<-finished
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
