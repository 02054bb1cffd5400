package interrupt

import (
	"bufio"
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

func TestMain(m *testing.M) {
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
