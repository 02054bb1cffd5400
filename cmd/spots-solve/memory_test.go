package main

import (
	"strings"
	"testing"

	"github.com/spf13/pflag"

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

// TestEntriesText: table sizes in --help read as people write them.
func TestEntriesText(t *testing.T) {
	for n, want := range map[int]string{1_000_000: "10⁶", 2_000_000: "2×10⁶", 16_000_000: "16×10⁶", 2_500_000: "2.5×10⁶", 750_000: "0.75×10⁶"} {
		if got := entriesText(n); got != want {
			t.Errorf("entriesText(%d) = %q, want %q", n, got, want)
		}
	}
}
