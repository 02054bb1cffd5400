package interrupt

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"
)

// stuckEnv makes the test binary a command that takes Context and then
// blocks in a read that never returns (of its standard input, a pipe no
// one writes), as a command reading a FIFO or a hung file system would.
const stuckEnv = "SPOTS_INTERRUPT_STUCK"

// busyEnv makes the test binary a command that takes Context, then works
// under ExitWhenDone (a read that never returns, as a long check would
// take), and with "finish" on its standard input ends the watch, its
// context and the process normally.
const busyEnv = "SPOTS_INTERRUPT_BUSY"

func TestMain(m *testing.M) {
	if os.Getenv(busyEnv) == "1" {
		ctx, stop := Context()
		watch := ExitWhenDone(ctx, "busy", os.Stderr)
		fmt.Println("ready")
		os.Stdin.Read(make([]byte, 6))
		watch()
		stop() // ends ctx: no longer watched, so no exit with Status
		fmt.Println("finished")
		os.Exit(0)
	}
	if os.Getenv(stuckEnv) == "1" {
		ctx, stop := Context()
		defer stop()
		fmt.Println("ready")
		go func() {
			<-ctx.Done()
			fmt.Println("cancelled")
		}()
		os.Stdin.Read(make([]byte, 1))
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestSecondSignalEnds: the first SIGINT or SIGTERM ends Context's
// context; the command, stuck in a read, does not wind down, and the second
// signal ends the process at once (spots-solve, stuck reading a FIFO,
// used to ignore both).
func TestSecondSignalEnds(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), stuckEnv+"=1")
		stdin, err := cmd.StdinPipe() // never written: the read blocks
		if err != nil {
			t.Fatal(err)
		}
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		lines := bufio.NewScanner(out)
		expect := func(want string) {
			t.Helper()
			if !lines.Scan() || lines.Text() != want {
				t.Fatalf("%v: read %q (%v), want %q", sig, lines.Text(), lines.Err(), want)
			}
		}
		expect("ready")
		cmd.Process.Signal(sig)
		expect("cancelled")
		cmd.Process.Signal(sig)
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != sig {
				t.Errorf("%v twice: %v, want the process ended by the signal", sig, err)
			}
		case <-time.After(30 * time.Second):
			cmd.Process.Kill()
			t.Errorf("%v twice: still running", sig)
		}
		stdin.Close()
	}
}

// TestExitWhenDone: under ExitWhenDone the first SIGINT or SIGTERM ends
// the process at once with Status and a word on stderr; once the watch is
// over, the end of the context (Context's stop) ends nothing.
func TestExitWhenDone(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, 0} {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), busyEnv+"=1")
		stdin, err := cmd.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		lines := bufio.NewScanner(out)
		if !lines.Scan() || lines.Text() != "ready" {
			t.Fatalf("%v: read %q (%v), want ready", sig, lines.Text(), lines.Err())
		}
		want, wantOut := Status, ""
		if sig == 0 {
			stdin.Write([]byte("finish"))
			want, wantOut = 0, "finished"
		} else {
			cmd.Process.Signal(sig)
		}
		lines.Scan()
		got := lines.Text()
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			status := 0
			var ee *exec.ExitError
			if errors.As(err, &ee) {
				status = ee.ExitCode()
			}
			if status != want || got != wantOut || sig != 0 && stderr.String() != "busy: interrupted\n" {
				t.Errorf("%v: status %d, stdout %q, stderr %q; want %d and %q", sig, status, got, stderr.String(), want, wantOut)
			}
		case <-time.After(30 * time.Second):
			cmd.Process.Kill()
			t.Errorf("%v: still running", sig)
		}
		stdin.Close()
	}
}

// charDevice is a writer that says it is a terminal, as an *os.File of
// one does.
type charDevice struct{ bytes.Buffer }

func (charDevice) Stat() (os.FileInfo, error) { return charDeviceInfo{}, nil }

type charDeviceInfo struct{ os.FileInfo }

func (charDeviceInfo) Mode() os.FileMode { return os.ModeDevice | os.ModeCharDevice }

// TestInterruptedClearsStatusLine: on a terminal the message clears the
// status line refreshed in place before it, so that "interrupted" does not
// follow "26000 of 203400 entries checked"; elsewhere it is the plain line.
func TestInterruptedClearsStatusLine(t *testing.T) {
	if got, want := interrupted("spots-verify", &charDevice{}), "\r\x1b[Kspots-verify: interrupted\n"; got != want {
		t.Errorf("on a terminal: %q, want %q", got, want)
	}
	if got, want := interrupted("spots-verify", &bytes.Buffer{}), "spots-verify: interrupted\n"; got != want {
		t.Errorf("on a pipe: %q, want %q", got, want)
	}
}
