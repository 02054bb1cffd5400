package memguard

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/spots-dev/spots/solve"
)

// tableEntryBytes returns the memory one transposition-table entry of a
// worker's solver takes (its share of a bucket; the table holds
// fingerprints, not positions).
func tableEntryBytes() uint64 {
	return solve.TableBytes(4, 1) / 4
}

// meminfoTotal returns the machine's physical memory in bytes (MemTotal
// of /proc/meminfo), or 0 when it cannot be told.
func meminfoTotal() uint64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) >= 2 && fields[0] == "MemTotal:" {
			kb, err := strconv.ParseUint(fields[1], 10, 64)
			if err != nil || kb > math.MaxUint64/1024 {
				return 0
			}
			return kb * 1024
		}
	}
	return 0
}

// Usable returns the memory this process may use, in bytes, and
// what bounds it, in words: the least of the machine's memory (MemTotal),
// the memory limit of its cgroup (v2 memory.max, v1
// memory.limit_in_bytes), and the address-space and data limits (RLIMIT_AS,
// RLIMIT_DATA: ulimit -v, ulimit -d) less what the Go runtime reserves
// beside the heap. A table sized by the machine's memory alone, or a
// --memory over one of the others, made the runtime die out of memory
// with a stack dump. It returns 0 when nothing can be told.
func Usable() (uint64, string) {
	mem, what := meminfoTotal(), "this machine's memory (MemTotal of /proc/meminfo)"
	lower := func(v uint64, why string) {
		if v > 0 && (mem == 0 || v < mem) {
			mem, what = v, why
		}
	}
	if v, path := cgroupLimit(); v > 0 {
		lower(v, "the memory limit of this process's cgroup ("+path+")")
	}
	for _, l := range rlimits() {
		lower(l.usable, l.what)
	}
	return mem, what
}

// cgroupLimit returns the memory limit of this process's cgroup and the
// file that sets it, or 0 when there is none (or it cannot be read).
func cgroupLimit() (uint64, string) {
	data, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return 0, ""
	}
	return cgroupLimitIn("/sys/fs/cgroup", data)
}

// cgroupLimitIn is cgroupLimit for the cgroup file system mounted at root
// and the lines of /proc/self/cgroup.
func cgroupLimitIn(root string, data []byte) (uint64, string) {
	var best uint64
	var from string
	for line := range strings.Lines(string(data)) {
		parts := strings.SplitN(strings.TrimSpace(line), ":", 3)
		if len(parts) != 3 {
			continue
		}
		var files []string
		switch {
		case parts[0] == "0" && parts[1] == "": // cgroup v2
			files = []string{root + parts[2] + "/memory.max", root + "/memory.max"}
		case slices.Contains(strings.Split(parts[1], ","), "memory"): // cgroup v1
			files = []string{root + "/memory" + parts[2] + "/memory.limit_in_bytes", root + "/memory/memory.limit_in_bytes"}
		}
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				continue
			}
			// "max", or a number near 2^63, is no limit.
			v, err := strconv.ParseUint(strings.TrimSpace(string(b)), 10, 64)
			if err == nil && v < 1<<60 && (best == 0 || v < best) {
				best, from = v, f
			}
			break
		}
	}
	return best, from
}

// rlimit is a resource limit of the process that bounds its memory.
type rlimit struct {
	usable uint64 // what the heap may take under it
	what   string
}

// CheckCapacity returns an error, naming the capacity, when tables
// transposition tables of capacity entries each cannot fit in the machine's
// physical memory (or in an int, whatever the machine). A machine whose
// memory cannot be told is taken to have 1 TiB.
func CheckCapacity(capacity, tables int) error {
	if capacity < 1 || tables < 1 {
		return fmt.Errorf("capacity %d for %d tables: want positive numbers", capacity, tables)
	}
	need := float64(capacity) * float64(tables) * float64(tableEntryBytes())
	mem, what := Usable()
	if mem == 0 {
		mem, what = 1<<40, "the memory assumed of a machine that does not say"
	}
	if need > float64(mem) || need > math.MaxInt64/2 {
		of := ""
		if tables > 1 {
			of = fmt.Sprintf(" × %d tables", tables)
		}
		return fmt.Errorf("%d table entries%s take about %s, more than the %s this process may use: %s",
			capacity, of, BytesText(need), BytesText(float64(mem)), what)
	}
	return nil
}

// BytesText writes a number of bytes for people: 58 GB, 1.2 TB.
func BytesText(b float64) string {
	units := []string{"B", "kB", "MB", "GB", "TB", "PB", "EB", "ZB"}
	i := 0
	for b >= 1000 && i < len(units)-1 {
		b /= 1000
		i++
	}
	if b < 10 && i > 0 {
		return fmt.Sprintf("%.1f %s", b, units[i])
	}
	return fmt.Sprintf("%.0f %s", b, units[i])
}
