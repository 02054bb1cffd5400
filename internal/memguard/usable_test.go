package memguard

import (
	"os"
	"path/filepath"
	"testing"
)

// TestCgroupLimit (N27): the memory limit of a process's cgroup is read
// from cgroup v2's memory.max or v1's memory.limit_in_bytes of the cgroup
// /proc/self/cgroup names (or the root's, in a container that sees only
// its own); "max", or v1's near 2^63, is no limit.
func TestCgroupLimit(t *testing.T) {
	write := func(path, text string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	v2 := t.TempDir()
	write(filepath.Join(v2, "job", "memory.max"), "4294967296\n")
	if v, from := cgroupLimitIn(v2, []byte("0::/job\n")); v != 4<<30 || from != filepath.Join(v2, "job", "memory.max") {
		t.Errorf("v2: %d from %q, want 4 GiB from job/memory.max", v, from)
	}
	write(filepath.Join(v2, "free", "memory.max"), "max\n")
	if v, _ := cgroupLimitIn(v2, []byte("0::/free\n")); v != 0 {
		t.Errorf("v2 max: %d, want 0 (no limit)", v)
	}
	v1 := t.TempDir()
	write(filepath.Join(v1, "memory", "memory.limit_in_bytes"), "1073741824\n")
	if v, _ := cgroupLimitIn(v1, []byte("5:cpu:/\n4:memory:/process_api/x\n")); v != 1<<30 {
		t.Errorf("v1 in a container: %d, want 1 GiB from the root's file", v)
	}
	write(filepath.Join(v1, "memory", "memory.limit_in_bytes"), "9223372036854771712\n")
	if v, _ := cgroupLimitIn(v1, []byte("4:memory:/\n")); v != 0 {
		t.Errorf("v1 without a limit: %d, want 0", v)
	}
}
