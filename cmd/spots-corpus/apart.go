package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/spots-dev/spots/format"
	"github.com/spots-dev/spots/verify"
)

// verifyCommand is the hidden command add runs in a process of its own to
// time the check of a certificate: spots-corpus _verify [--independent]
// [--cites DIR]... FILE prints what verify.File found (with --independent,
// the independent check; with --cites, looking for the certificates it
// cites in each DIR too, after the file's own directory) as one JSON
// object, and exits 0 when the file is valid, 1 when it is invalid, 2
// when it cannot be read.
const verifyCommand = "_verify"

// childEnv is set in the environment of that process (a test binary runs
// its command instead of the tests when it is set).
const childEnv = "SPOTS_CORPUS_CHILD"

type verifyJSON struct {
	Claim   string `json:"claim"`
	Address string `json:"address"`
	Entries int    `json:"entries"`
	Error   string `json:"error,omitempty"`
	Invalid bool   `json:"invalid,omitempty"`
}

func runVerifyChild(args []string, stdout, stderr io.Writer) int {
	opt := verify.Options{}
	if len(args) > 1 && args[0] == "--independent" {
		opt.Independent, args = true, args[1:]
	}
	var dirs []string
	for len(args) > 2 && args[0] == "--cites" {
		dirs, args = append(dirs, args[1]), args[2:]
	}
	if len(args) != 1 {
		fmt.Fprintf(stderr, "usage: spots-corpus %s [--independent] [--cites DIR]... FILE\n", verifyCommand)
		return 2
	}
	opt.Library = verify.NewLibrary(dirs...)
	res, err := verify.File(args[0], opt)
	j := verifyJSON{Claim: res.Claim.String(), Address: res.Address, Entries: res.Entries}
	status := 0
	if err != nil {
		j.Error, j.Invalid, status = err.Error(), verify.IsInvalid(err), 2
		if j.Invalid {
			status = 1
		}
	}
	b, _ := json.Marshal(j)
	fmt.Fprintf(stdout, "%s\n", b)
	return status
}

// verifyApart verifies the certificate at path in a separate process (this
// command run again) and returns what it found and the seconds that
// process took, from its start to its end: the time a user who checks the
// file on its own waits, without any cache of this process's search. When
// no process can be started it verifies here instead, and says so.
func (e *env) verifyApart(path string, opt verify.Options) (verify.Result, float64, error) {
	exe, err := os.Executable()
	if err == nil {
		var stdout, stderr bytes.Buffer
		args := []string{verifyCommand}
		if opt.Independent {
			args = append(args, "--independent")
		}
		// The certificates it cites are where the search found them (the
		// corpus's certs/), not beside it when it is kept elsewhere.
		if opt.Library != nil {
			for _, d := range opt.Library.Dirs {
				args = append(args, "--cites", d)
			}
		}
		args = append(args, path)
		cmd := exec.CommandContext(e.ctx, exe, args...)
		cmd.Env = append(os.Environ(), childEnv+"=1")
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		start := time.Now()
		err = cmd.Run()
		seconds := time.Since(start).Seconds()
		var j verifyJSON
		if jerr := json.Unmarshal(stdout.Bytes(), &j); jerr == nil {
			if j.Error != "" {
				return verify.Result{}, seconds, errors.New(j.Error)
			}
			claim, cerr := format.ParseClaim(j.Claim)
			if err == nil && cerr == nil {
				return verify.Result{Claim: claim, Address: j.Address, Entries: j.Entries}, seconds, nil
			}
		}
		if e.ctx.Err() != nil {
			return verify.Result{}, 0, e.ctx.Err()
		}
		if err == nil {
			err = fmt.Errorf("unexpected output %q", strings.TrimSpace(stdout.String()))
		}
		err = fmt.Errorf("%s %s %s: %v %s", filepath.Base(exe), verifyCommand, path, err, strings.TrimSpace(stderr.String()))
	}
	fmt.Fprintf(e.stderr, "spots-corpus: cannot verify in a separate process (%v); timing the check in this one\n", err)
	start := time.Now()
	res, err := verify.File(path, opt)
	return res, time.Since(start).Seconds(), err
}

// verifyCiting times the check of a certificate that cites others, in
// this process, once lib has checked everything it relies on: its own
// share of a check of the whole proof, which is what spots-corpus check
// spends on it, each certificate once. (A check of it alone, in a process
// of its own, checks every certificate it relies on, which the index
// times each on its own row.) Nothing of the search is used: the cited
// values are those of the certificates lib checked.
func (e *env) verifyCiting(path, addr string, lib *verify.Library, opt verify.Options) (verify.Result, float64, error) {
	opt.Library = lib
	if _, err := verify.File(path, opt); err != nil { // the closure, untimed
		return verify.Result{}, 0, err
	}
	lib.Forget(addr)
	// The first check left its verdict: the time is of a check, not of
	// a verdict remembered.
	opt.Verdicts = nil
	start := time.Now()
	res, err := verify.File(path, opt)
	return res, time.Since(start).Seconds(), err
}

// verifyIndependent checks the new certificate at path (content address
// addr, citing cites) by the second, independent implementation of the
// rules, as spots-verify --independent does, and returns the seconds of
// the check: in a process of its own for one that cites nothing, else its
// own share once a library of its own has checked, whole, what it relies
// on (the default check's library is not used: one checker never takes
// the other's word). The verdicts remembered answer for cited
// certificates this build checked the same way before (verifyCiting).
func (a *adder) verifyIndependent(path, addr string, cites []string) (float64, error) {
	if len(cites) == 0 {
		_, seconds, err := a.verifyApart(path, verify.Options{Independent: true})
		return seconds, err
	}
	var dirs []string
	if l := a.pipeline.Verify.Library; l != nil {
		dirs = l.Dirs
	}
	opt := verify.Options{Independent: true, Verdicts: a.pipeline.Verify.Verdicts,
		Progress: a.prog.Entries(fmt.Sprintf("verifying %s with the independent rules", a.result.Certificate.Claim))}
	_, seconds, err := a.verifyCiting(path, addr, verify.NewLibrary(dirs...), opt)
	return seconds, err
}

// moveFile moves the file at src into dir (created if needed), keeping its
// name, and returns its new path. Across file systems it copies the file
// (through a temporary file and a rename) and removes src.
func moveFile(src, dir string) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	dst := filepath.Join(dir, filepath.Base(src))
	if err := os.Rename(src, dst); err == nil {
		return dst, nil
	}
	in, err := format.OpenInput(src)
	if err != nil {
		return "", err
	}
	defer in.Close()
	err = format.WriteFileAtomic(dst, func(w io.Writer) error {
		_, err := io.Copy(w, in)
		return err
	})
	if err != nil {
		return "", err
	}
	if err := os.Chmod(dst, 0o644); err != nil {
		return "", err
	}
	return dst, os.Remove(src)
}
