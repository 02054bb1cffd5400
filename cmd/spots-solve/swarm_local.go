package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"time"
)

// maxLocalRestarts bounds how often a --workers-local worker that died is
// started again (each worker apart).
const maxLocalRestarts = 3

// localRestartPause is how long the master waits before it starts a
// worker that died again, so that one that dies at once does not spin.
const localRestartPause = time.Second

// localWorkers are the worker processes of --workers-local. Each has a
// keeper goroutine that waits for it: one that dies while the master runs
// is reaped at once (it never lingers as a zombie), reported, and started
// again up to maxLocalRestarts times.
type localWorkers struct {
	mu      sync.Mutex
	stopped bool
	running []*exec.Cmd // the process of each worker now (nil between two)
	done    chan struct{}
	wg      sync.WaitGroup
}

// startLocalWorkers starts the --workers-local workers, joining the
// master's gossip address with the key runMaster put in sf.key, drawing
// on the master's --reuse directories, and saying what they do on the
// master's standard error as the master's --progress (sf.progress) asks.
func startLocalWorkers(sf swarmFlags, gossip string, stderr io.Writer) *localWorkers {
	lw := &localWorkers{running: make([]*exec.Cmd, max(sf.workersLocal, 0)), done: make(chan struct{})}
	if sf.workersLocal <= 0 {
		return lw
	}
	self, err := os.Executable()
	if err != nil {
		fmt.Fprintf(stderr, "spots-solve: --workers-local: %v\n", err)
		return lw
	}
	args := []string{"worker", "--join", gossip, "--grouping", strconv.Itoa(sf.params.Grouping),
		"--capacity", strconv.Itoa(sf.params.Capacity), "--progress", sf.progress.String()}
	for _, dir := range sf.reuse {
		args = append(args, "--reuse", dir) // the master's certificates, on this machine too
	}
	env := append(os.Environ(), "SPOTS_SWARM_KEY="+sf.key) // set by runMaster, perhaps at random
	for i := range sf.workersLocal {
		lw.wg.Add(1)
		go lw.keep(i, func() *exec.Cmd {
			cmd := exec.Command(self, args...)
			cmd.Env, cmd.Stderr = env, stderr
			return cmd
		}, stderr)
	}
	return lw
}

// keep runs worker i (made by newCmd) until it ends its part of the
// solve, or the master stops, starting it again when it dies.
func (lw *localWorkers) keep(i int, newCmd func() *exec.Cmd, stderr io.Writer) {
	defer lw.wg.Done()
	for restarts := 0; ; restarts++ {
		cmd, err := lw.start(i, newCmd())
		if cmd == nil {
			if err != nil {
				fmt.Fprintf(stderr, "spots-solve: starting local worker %d: %v\n", i+1, err)
			}
			return
		}
		err = cmd.Wait()
		lw.mu.Lock()
		lw.running[i] = nil
		stopped := lw.stopped
		lw.mu.Unlock()
		var exit *exec.ExitError
		switch {
		case stopped || err == nil:
			return // the master stops, or the worker heard that the solve is over
		case errors.As(err, &exit) && exit.ExitCode() == statusInterrupted:
			return // interrupted (Ctrl-C reaches the master too)
		case restarts >= maxLocalRestarts:
			fmt.Fprintf(stderr, "spots-solve: local worker %d (pid %d) died (%v) after %d restarts; not starting it again\n",
				i+1, cmd.Process.Pid, err, restarts)
			return
		}
		fmt.Fprintf(stderr, "spots-solve: local worker %d (pid %d) died (%v); starting it again (%d of at most %d restarts)\n",
			i+1, cmd.Process.Pid, err, restarts+1, maxLocalRestarts)
		select {
		case <-time.After(localRestartPause):
		case <-lw.done:
			return
		}
	}
}

// start starts cmd as worker i unless the workers are stopping (then it
// returns nil and no error).
func (lw *localWorkers) start(i int, cmd *exec.Cmd) (*exec.Cmd, error) {
	lw.mu.Lock()
	defer lw.mu.Unlock()
	if lw.stopped {
		return nil, nil
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	lw.running[i] = cmd
	return cmd, nil
}

// stop interrupts the workers, kills those still running after 5 s, and
// returns once every one has been reaped.
func (lw *localWorkers) stop() {
	lw.mu.Lock()
	lw.stopped = true
	close(lw.done)
	signal := func(s os.Signal) {
		for _, c := range lw.running {
			if c != nil {
				c.Process.Signal(s)
			}
		}
	}
	signal(os.Interrupt)
	lw.mu.Unlock()
	reaped := make(chan struct{})
	go func() {
		lw.wg.Wait()
		close(reaped)
	}()
	select {
	case <-reaped:
	case <-time.After(5 * time.Second):
		lw.mu.Lock()
		signal(os.Kill)
		lw.mu.Unlock()
		<-reaped
	}
}
