package solve

import "testing"

// TestThreadCapacity: a thread's share of the table is DefaultCapacity,
// bounded by a quarter of memory, never below DefaultCapacity.
func TestThreadCapacity(t *testing.T) {
	const gib = 1 << 30
	for _, tc := range []struct {
		threads int
		memory  uint64
		want    int
	}{
		{1, 0, DefaultCapacity},
		{0, 0, DefaultCapacity},
		{2, 0, 2 * DefaultCapacity},
		{16, 128 * gib, 16 * DefaultCapacity},
		{16, 0, 16 * DefaultCapacity},
		{16, 1 * gib, 0}, // bounded: checked below
		{16, 64 << 20, DefaultCapacity},
	} {
		got := ThreadCapacity(tc.threads, tc.memory)
		if tc.want != 0 && got != tc.want {
			t.Errorf("ThreadCapacity(%d, %d) = %d, want %d", tc.threads, tc.memory, got, tc.want)
		}
		if tc.memory > 0 && got > DefaultCapacity && uint64(PlanCapacity(got, tc.threads).Budget) > tc.memory/4 {
			t.Errorf("ThreadCapacity(%d, %d) = %d: its plan takes %d bytes, over a quarter of memory", tc.threads, tc.memory, got, PlanCapacity(got, tc.threads).Budget)
		}
		if got < DefaultCapacity || got > max(tc.threads, 1)*DefaultCapacity {
			t.Errorf("ThreadCapacity(%d, %d) = %d, out of range", tc.threads, tc.memory, got)
		}
	}
}
