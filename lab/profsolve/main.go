// Command profsolve solves one Sprouts position in process with DFPN,
// PDFPN or PNS (-alg pns) and writes the profiles that show where a parallel search spends
// its time: CPU, mutex contention, blocking and allocations. It prints one
// JSON line with the iterations, wall and CPU seconds, CPU per iteration,
// the collector's share and the search's heap allocations, so that runs
// with 1 and N threads compare directly:
//
//	go run ./lab/profsolve -pos '0*18' -threads 2 -cpu cpu.prof -mutex mutex.prof -block block.prof
//	go tool pprof -top mutex.prof
//
// It is a lab tool: the product's spots-solve has --cpuprofile only.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"runtime"
	"runtime/metrics"
	"runtime/pprof"
	"syscall"
	"time"

	"github.com/spots-dev/spots/certify"
	"github.com/spots-dev/spots/format"
	"github.com/spots-dev/spots/solve"
	"github.com/spots-dev/spots/sprouts"
	"github.com/spots-dev/spots/verify"
)

func main() {
	pos := flag.String("pos", "0*18", "the position")
	alg := flag.String("alg", "dfpn", "the search: dfpn (PDFPN with -threads above 1) or pns")
	threads := flag.Int("threads", 1, "PDFPN threads (1: sequential DFPN)")
	capacity := flag.Int("capacity", solve.DefaultCapacity, "transposition-table entries")
	lockstep := flag.Bool("lockstep", false, "threads take turns, one iteration each (solve.Options.Lockstep): the same iterations on every run, as threads of equal speed on cores of their own")
	spread := flag.Uint64("spread", 0, "PDFPN spread (0: solve.DefaultSpread)")
	certifyDir := flag.String("certify", "", "then build the certificate from the search's values into `DIR` and verify it, timing each step (cpu profile included)")
	cpu := flag.String("cpu", "", "write a CPU profile to `FILE`")
	mutex := flag.String("mutex", "", "write a mutex-contention profile to `FILE` (every contention event sampled)")
	block := flag.String("block", "", "write a blocking profile to `FILE` (every event of 10 µs or more)")
	alloc := flag.String("alloc", "", "write an allocation profile to `FILE` (go tool pprof -sample_index=alloc_space)")
	flag.Parse()
	opt := solve.Options{Threads: *threads, Capacity: *capacity, Lockstep: *lockstep, Spread: *spread}
	a, err := solve.ParseAlgorithm(*alg)
	if err != nil || a != solve.SearchDFPN && a != solve.SearchPNS {
		fmt.Fprintf(os.Stderr, "profsolve: -alg %q: want dfpn or pns\n", *alg)
		os.Exit(2)
	}
	if err := run(*pos, a, opt, *certifyDir, *cpu, *mutex, *block, *alloc); err != nil {
		fmt.Fprintln(os.Stderr, "profsolve:", err)
		os.Exit(1)
	}
}

// searcher is what profsolve asks of DFPN and PNS alike.
type searcher interface {
	Solve(ctx context.Context, pos sprouts.Position, n uint32) solve.Outcome
	Stats() solve.Stats
	DB() *solve.NimberDB
}

func run(text string, alg solve.Algorithm, opt solve.Options, certifyDir, cpu, mutex, block, alloc string) error {
	root, err := sprouts.Parse(text)
	if err != nil {
		return err
	}
	if mutex != "" {
		runtime.SetMutexProfileFraction(1)
	}
	if block != "" {
		runtime.SetBlockProfileRate(int((10 * time.Microsecond).Nanoseconds()))
	}
	if alloc != "" {
		runtime.MemProfileRate = 64 << 10
	}
	var cpuFile *os.File
	if cpu != "" {
		if cpuFile, err = os.Create(cpu); err != nil {
			return err
		}
		if err := pprof.StartCPUProfile(cpuFile); err != nil {
			return err
		}
	}
	threads := opt.Threads
	plan := solve.PlanCapacity(opt.Capacity, threads)
	game := sprouts.Rules{Cache: sprouts.NewCache(plan.GameCache)}
	opt.ChildrenCache = plan.ChildrenCache
	var s searcher = solve.NewDFPN[sprouts.Position](game, nil, opt)
	if alg == solve.SearchPNS {
		s = solve.NewPNS[sprouts.Position](game, nil, opt)
	}
	gcBefore := gcCPU()
	objsBefore, bytesBefore := heapAllocs()
	cpuBefore := cpuSeconds()
	start := time.Now()
	out := s.Solve(context.Background(), root, 0)
	wall := time.Since(start).Seconds()
	used := cpuSeconds() - cpuBefore
	gc := gcCPU() - gcBefore
	objs, bytes := heapAllocs()
	objs, bytes = objs-objsBefore, bytes-bytesBefore
	var steps map[string]float64
	if certifyDir != "" {
		if steps, err = timeCertificate(s.DB(), root, out, certifyDir); err != nil {
			return err
		}
	}
	if cpuFile != nil {
		pprof.StopCPUProfile()
		if err := cpuFile.Close(); err != nil {
			return err
		}
	}
	for _, p := range []struct{ name, file string }{{"mutex", mutex}, {"block", block}, {"allocs", alloc}} {
		if p.file == "" {
			continue
		}
		f, err := os.Create(p.file)
		if err != nil {
			return err
		}
		if err := pprof.Lookup(p.name).WriteTo(f, 0); err != nil {
			return err
		}
		if err := f.Close(); err != nil {
			return err
		}
	}
	st := s.Stats()
	return json.NewEncoder(os.Stdout).Encode(map[string]any{
		"position": text, "algorithm": alg, "outcome": out.String(), "threads": threads, "iterations": st.Iterations,
		"wall_s": wall, "cpu_s": used, "cpu_us_per_iteration": 1e6 * used / float64(st.Iterations),
		"gc_cpu_share": gc / used, "allocs": objs, "alloc_bytes": bytes,
		"allocs_per_iteration": float64(objs) / float64(st.Iterations), "utilisation": used / (wall * float64(threads)),
		"lock_waits": st.LockWaits, "tt_entries": st.TTEntries, "per_thread": st.PerThread, "certificate_steps": steps,
	})
}

// cpuSeconds is the CPU time the process has used, user and system.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
}

// gcCPU is the CPU time the collector has used, by the runtime's estimate.
func gcCPU() float64 {
	s := []metrics.Sample{{Name: "/cpu/classes/gc/total:cpu-seconds"}}
	metrics.Read(s)
	return s[0].Value.Float64()
}

// heapAllocs is what the process has allocated on the heap so far:
// objects and bytes.
func heapAllocs() (objects, bytes uint64) {
	s := []metrics.Sample{{Name: "/gc/heap/allocs:objects"}, {Name: "/gc/heap/allocs:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64(), s[1].Value.Uint64()
}

// timeCertificate builds the certificate of root's outcome from db (the
// database check that trims it), writes it and verifies the file, and
// returns the wall and CPU seconds of each step.
func timeCertificate(db *solve.NimberDB, root sprouts.Position, out solve.Outcome, dir string) (map[string]float64, error) {
	claim, err := certify.Claim(root, 0, out, nil)
	if err != nil {
		return nil, err
	}
	steps := map[string]float64{}
	step := func(name string, f func() error) error {
		c, t := cpuSeconds(), time.Now()
		err := f()
		steps[name+"_wall_s"], steps[name+"_cpu_s"] = time.Since(t).Seconds(), cpuSeconds()-c
		return err
	}
	var cert *format.Certificate
	if err := step("build", func() (err error) { cert, err = certify.Build(db, claim, verify.Options{}); return }); err != nil {
		return nil, err
	}
	var path string
	if err := step("write", func() (err error) { path, err = format.WriteCertificate(dir, cert, format.WriteOptions{}); return }); err != nil {
		return nil, err
	}
	err = step("verify", func() error { _, err := verify.File(path, verify.Options{}); return err })
	return steps, err
}
