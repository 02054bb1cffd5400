package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/spots-dev/spots/corpus"
	"github.com/spots-dev/spots/format"
	"github.com/spots-dev/spots/outcome"
)

// reuseTable times, in the same run, each 0*n solved from nothing and
// drawing on the corpus's certificates of smaller n (spots-solve --reuse
// with a directory holding copies of those), with each algorithm of algs
// ("swarm" runs --algorithm swarm with local workers). A drawing solve's
// seconds are its whole process: reading the certificates, the search,
// and the check of its result with every certificate it relies on, which
// spots-solve makes before it prints the result.
func reuseTable(bin, corpusDir string, ns, algs []string, workers int) error {
	c, err := corpus.Open(corpusDir)
	if err != nil {
		return err
	}
	fmt.Println("| n | outcome | algorithm | from scratch: iterations | seconds | drawing on | values | iterations | seconds (read + search + check) | fewer iterations | speed-up |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|---|---|")
	for _, s := range ns {
		n, err := strconv.Atoi(s)
		if err != nil {
			return fmt.Errorf("bad -n %q", s)
		}
		dir, count, err := smallerCerts(c, n)
		if err != nil {
			return err
		}
		for _, alg := range algs {
			alone, err := timedSolve(bin, alg, n, "", workers)
			if err != nil {
				os.RemoveAll(dir)
				return err
			}
			drawn, err := timedSolve(bin, alg, n, dir, workers)
			if err != nil {
				os.RemoveAll(dir)
				return err
			}
			if alone.Outcome != drawn.Outcome {
				os.RemoveAll(dir)
				return fmt.Errorf("0*%d %s: %s from scratch, %s drawing on certificates", n, alg, alone.Outcome, drawn.Outcome)
			}
			fmt.Printf("| %d | %s | %s | %d | %.1f | n < %d (%d certificates) | %d | %d | %.1f | %.1f× | %.2f× |\n",
				n, alone.Outcome, alg, alone.Iterations, alone.wall, n, count, drawn.values, drawn.Iterations, drawn.wall,
				float64(alone.Iterations)/float64(max(drawn.Iterations, 1)), alone.wall/drawn.wall)
		}
		os.RemoveAll(dir)
	}
	return nil
}

// smallerCerts copies the committed Sprouts certificates of 0*n' for n' <
// n into a new temporary directory; it returns the directory and their
// number.
func smallerCerts(c *corpus.Corpus, n int) (string, int, error) {
	dir, err := os.MkdirTemp("", "benchreuse")
	if err != nil {
		return "", 0, err
	}
	count := 0
	for _, r := range c.Records {
		if r.N >= n {
			continue
		}
		src := filepath.Join(c.Dir, corpus.CertsDir, r.Address+".arrow")
		if _, err := os.Stat(src); err != nil {
			continue // kept elsewhere
		}
		if err := copyFile(src, filepath.Join(dir, r.Address+".arrow")); err != nil {
			os.RemoveAll(dir)
			return "", 0, err
		}
		count++
	}
	return dir, count, nil
}

func copyFile(src, dst string) error {
	in, err := format.OpenInput(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// solveRun is what one timed spots-solve printed, with its wall time and
// the values it drew on.
type solveRun struct {
	Outcome    outcome.Outcome `json:"outcome"`
	Iterations uint64          `json:"iterations"`
	wall       float64
	values     int
}

// timedSolve runs spots-solve on 0*n with alg, drawing on reuse if not
// "", and times the whole process.
func timedSolve(bin, alg string, n int, reuse string, workers int) (solveRun, error) {
	args := []string{"--json", "--progress", "none", "--algorithm", alg}
	if alg == "swarm" {
		args = append(args, "--workers-local", strconv.Itoa(workers))
	}
	if reuse != "" {
		args = append(args, "--reuse", reuse)
	}
	cmd := exec.Command(bin, append(args, fmt.Sprintf("0*%d", n))...)
	defer freshCache(cmd)()
	var out, errs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errs
	start := time.Now()
	if err := cmd.Run(); err != nil {
		return solveRun{}, fmt.Errorf("0*%d %s: %v: %s", n, alg, err, errs.String())
	}
	r := solveRun{wall: time.Since(start).Seconds()}
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		return r, fmt.Errorf("0*%d %s: output %q: %v", n, alg, out.String(), err)
	}
	// "drawing on N values of M certificates (read in S s)"
	if _, rest, ok := strings.Cut(errs.String(), "drawing on "); ok {
		fmt.Sscanf(rest, "%d", &r.values)
	}
	return r, nil
}
