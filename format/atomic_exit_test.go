package format

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// writerEnv makes the test binary a writer: it commits one file into the
// directory the variable names, leaves two half written (and a certificate
// written under WriteCertificate's temporary file would be the same), says
// "ready" and waits to be ended.
const writerEnv = "SPOTS_FORMAT_WRITER"

func TestMain(m *testing.M) {
	if dir := os.Getenv(writerEnv); dir != "" {
		done, err := CreateAtomic(filepath.Join(dir, "done"))
		if err == nil {
			err = done.Commit()
		}
		for _, name := range []string{"a", "b"} {
			if err != nil {
				break
			}
			var f *AtomicFile
			if f, err = CreateAtomic(filepath.Join(dir, name)); err == nil {
				_, err = f.WriteString("partial")
			}
		}
		if err != nil {
			fmt.Println(err)
			os.Exit(2)
		}
		fmt.Println("ready")
		if os.Getenv(writerEnv+"_EXIT") == "1" {
			os.Exit(130) // as a command exits on a signal (package interrupt)
		}
		select {}
	}
	os.Exit(m.Run())
}

// TestEndedWriterLeavesNothing: a process that ends while it writes, by
// os.Exit from a signal handler (as the commands exit at once on SIGINT
// or SIGTERM) or killed (SIGKILL, which nothing can catch), leaves only
// the files it committed: no partial file under an output's name, and no
// temporary file beside it, without any list of files to clean kept by
// the process. (Where files without a name cannot be made, a killed
// writer's temporary files are removed by the next write instead:
// TestStaleTemps.)
func TestEndedWriterLeavesNothing(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("anonymous temporary files are Linux's")
	}
	dir := t.TempDir()
	if f, err := createAnonymous(dir); err != nil {
		t.Skipf("this file system makes no anonymous file: %v", err)
	} else {
		f.Close()
	}
	for _, how := range []string{"exit", "kill"} {
		out := filepath.Join(dir, how)
		if err := os.Mkdir(out, 0o755); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), writerEnv+"="+out)
		if how == "exit" {
			cmd.Env = append(cmd.Env, writerEnv+"_EXIT=1")
		}
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		lines := bufio.NewScanner(stdout)
		if !lines.Scan() || lines.Text() != "ready" {
			cmd.Process.Kill()
			t.Fatalf("%s: the writer said %q", how, lines.Text())
		}
		if how == "kill" {
			cmd.Process.Signal(syscall.SIGKILL)
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			cmd.Process.Kill()
			t.Fatalf("%s: the writer did not end", how)
		}
		entries, err := os.ReadDir(out)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		if strings.Join(names, " ") != "done" {
			t.Errorf("%s: left %v, want only the committed file", how, names)
		}
	}
}

// TestAbortLeavesNothing: an aborted file leaves nothing beside the
// output, and the output as it was.
func TestAbortLeavesNothing(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out")
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := CreateAtomic(path)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("new, half")
	f.Abort()
	entries, _ := os.ReadDir(dir)
	if data, _ := os.ReadFile(path); len(entries) != 1 || string(data) != "old" {
		t.Errorf("after Abort: %d files, out holds %q; want out alone, holding old", len(entries), data)
	}
}
