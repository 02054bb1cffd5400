package main

import (
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"github.com/spots-dev/spots/certify"
	"github.com/spots-dev/spots/solve"
)

func TestParseSize(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int64
		err  string
	}{
		{"90MB", 90_000_000, ""},
		{"90 MB", 90_000_000, ""},
		{"512MiB", 512 << 20, ""},
		{"2GiB", 2 << 30, ""},
		{"2g", 2 << 30, ""},
		{"1.5GB", 1_500_000_000, ""},
		{"123456789", 123456789, ""},
		{"64kb", 64_000, ""},
		{"", 0, "not a number"},
		{"MB", 0, "not a number"},
		{"12 parsecs", 0, "unknown unit"},
		{"-5MB", 0, "unknown unit"},
		{"0", 0, "out of range"},
		{"90000000000000TB", 0, "out of range"},
	} {
		got, err := parseSize(tc.in)
		switch {
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("parseSize(%q) = %d, %v; want an error saying %q", tc.in, got, err, tc.err)
		case tc.err == "" && (err != nil || got != tc.want):
			t.Errorf("parseSize(%q) = %d, %v; want %d", tc.in, got, err, tc.want)
		}
	}
}

// TestMemoryPlan checks how --memory and --capacity size a search: the
// table takes its share of the budget, an explicit capacity wins and
// shrinks the caches, and what cannot fit is refused.
func TestMemoryPlan(t *testing.T) {
	perEntry := int(solve.TableBytes(4, 1) / 4)
	for _, tc := range []struct {
		args         []string
		minCap, maxC int
		err          string
	}{
		{nil, 1_000_000, 1_000_000, ""},
		{[]string{"--memory", "90MB"}, 1_000_000, 1_020_000, ""},
		{[]string{"--memory", "1GiB"}, 12_000_000, 12_200_000, ""},
		{[]string{"--memory", "1GiB", "--capacity", "1000000"}, 1_000_000, 1_000_000, ""},
		{[]string{"--memory", "90MB", "--capacity", "3000000"}, 0, 0, "too much of a memory budget"},
		{[]string{"--memory", "1MB"}, 0, 0, "below the minimum"},
		{[]string{"--memory", "lots"}, 0, 0, "--memory"},
	} {
		flags := pflag.NewFlagSet("test", pflag.ContinueOnError)
		cfg := config{algorithm: solve.SearchDFPN, threads: 1}
		flags.IntVar(&cfg.capacity, "capacity", solve.DefaultCapacity, "")
		flags.StringVar(&cfg.memory, "memory", "", "")
		if err := flags.Parse(tc.args); err != nil {
			t.Fatal(err)
		}
		cfg.capacitySet = flags.Changed("capacity")
		plan, err := memoryPlan(cfg, 0)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%v: plan %+v, %v; want an error saying %q", tc.args, plan, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%v: %v", tc.args, err)
			continue
		}
		if plan.Capacity < tc.minCap || plan.Capacity > tc.maxC {
			t.Errorf("%v: capacity %d, want %d to %d", tc.args, plan.Capacity, tc.minCap, tc.maxC)
		}
		used := int64(plan.Capacity*perEntry) + plan.ChildrenCache + plan.GameCache
		if used > plan.Budget || plan.Limit <= 0 || plan.Limit > plan.Budget {
			t.Errorf("%v: table %d entries + caches %d + %d bytes, limit %d, budget %d", tc.args,
				plan.Capacity, plan.ChildrenCache, plan.GameCache, plan.Limit, plan.Budget)
		}
	}
}

// TestMemoryPlanReuse: the values drawn on with --reuse come off the
// search's share of --memory, but they live on the heap, so the heap's
// limit is the whole budget less the table (and the runtime's own).
func TestMemoryPlanReuse(t *testing.T) {
	dir := t.TempDir()
	const cert = "639a6c97f739bb9836b85afdbe997aa8ad9aaa5ed341a9bb3c37bba299c29ad2.arrow" // 0*8=L, 211 entries
	data, err := os.ReadFile(filepath.Join("..", "..", "corpus", "certs", cert))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, cert), data, 0o644); err != nil {
		t.Fatal(err)
	}
	const budget = 1 << 30
	cfg := config{algorithm: solve.SearchDFPN, threads: 1, memory: "1GiB", game: "sprouts", reuse: []string{dir}}
	plan, err := memoryPlan(cfg, 0)
	if err != nil {
		t.Fatal(err)
	}
	bare, err := memoryPlan(config{algorithm: solve.SearchDFPN, threads: 1, memory: "1GiB", game: "sprouts"}, 0)
	if err != nil {
		t.Fatal(err)
	}
	drawn := int64(211 * certify.PoolEntryBytes)
	if plan.Budget != budget-drawn {
		t.Errorf("the search's share is %d bytes, want the budget less the %d the values take: %d", plan.Budget, drawn, budget-drawn)
	}
	table := int64(solve.TableBytes(plan.Capacity, 1))
	if want := bare.Limit + int64(solve.TableBytes(bare.Capacity, 1)) - table; plan.Limit != want {
		t.Errorf("heap limit %d with --reuse, want %d: the budget less the table, as without it (%d)", plan.Limit, want, bare.Limit)
	}
}

// TestHeapLimit: without --memory the heap's limit grows with the values
// the run holds and never shrinks; with it, it stays at the plan's.
func TestHeapLimit(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	current := func() int64 { return debug.SetMemoryLimit(-1) }
	plan := solve.PlanCapacity(solve.DefaultCapacity, 1)
	db := solve.NewNimberDB()
	for i := range 1000 {
		db.Learn(string(rune('a'+i%26))+strings.Repeat("x", i), 0)
	}
	h := newHeapLimit(config{algorithm: solve.SearchDFPN, plan: plan}, db)
	if got, want := current(), plan.Limit+1000*valueHeapBytes; got != want {
		t.Fatalf("limit %d with 1,000 values held, want the plan's %d and room for them: %d", got, plan.Limit, want)
	}
	h.values(500_000)
	if got, want := current(), plan.Limit+500_000*valueHeapBytes; got != want {
		t.Errorf("limit %d with 500,000 values, want %d", got, want)
	}
	h.values(10)
	if got, want := current(), plan.Limit+500_000*valueHeapBytes; got != want {
		t.Errorf("limit %d after fewer values, want it kept at %d", got, want)
	}
	newHeapLimit(config{algorithm: solve.SearchDFPN, memory: "90MB", plan: plan}, db).values(500_000)
	if got := current(); got != plan.Limit {
		t.Errorf("limit %d with --memory, want the plan's %d whatever the values", got, plan.Limit)
	}
	debug.SetMemoryLimit(12345)
	if newHeapLimit(config{algorithm: solve.SearchPNS, plan: plan}, db) != nil || current() != 12345 {
		t.Errorf("pns: the limit was set (%d); the plan does not bound a pns search", current())
	}
}

// TestEntriesText: table sizes in --help read as people write them.
func TestEntriesText(t *testing.T) {
	for n, want := range map[int]string{1_000_000: "10⁶", 2_000_000: "2×10⁶", 16_000_000: "16×10⁶", 2_500_000: "2.5×10⁶", 750_000: "0.75×10⁶"} {
		if got := entriesText(n); got != want {
			t.Errorf("entriesText(%d) = %q, want %q", n, got, want)
		}
	}
}
