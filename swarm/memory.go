package swarm

import (
	"bufio"
	"fmt"
	"github.com/spots-dev/spots/solve"
	"math"
	"os"
	"strconv"
	"strings"
)

// Bounds on what a swarm (and a command that starts one) may be asked for:
// beyond them a typo or a hostile peer would make a process allocate
// without limit.
const (
	// MaxGrouping is the most solvers a group may have, and the most slots
	// the master believes a group claims: a group that declares more is
	// given jobs for MaxGrouping solvers only.
	MaxGrouping = 256
)

// TableEntryBytes returns the memory one transposition-table entry of a
// worker's solver takes (its share of a bucket; the table holds
// fingerprints, not positions).
func TableEntryBytes() uint64 {
	return solve.TableBytes(4, 1) / 4
}

// PhysicalMemory returns the machine's physical memory in bytes (MemTotal
// of /proc/meminfo), or 0 when it cannot be told.
func PhysicalMemory() uint64 {
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

// physicalMemory is PhysicalMemory, replaceable by tests.
var physicalMemory = PhysicalMemory

// CheckCapacity returns an error, naming the capacity, when tables
// transposition tables of capacity entries each cannot fit in the machine's
// physical memory (or in an int, whatever the machine). A machine whose
// memory cannot be told is taken to have 1 TiB.
func CheckCapacity(capacity, tables int) error {
	if capacity < 1 || tables < 1 {
		return fmt.Errorf("capacity %d for %d tables: want positive numbers", capacity, tables)
	}
	need := float64(capacity) * float64(tables) * float64(TableEntryBytes())
	mem := physicalMemory()
	what := "this machine's"
	if mem == 0 {
		mem, what = 1<<40, "the assumed"
	}
	if need > float64(mem) || need > math.MaxInt64/2 {
		of := ""
		if tables > 1 {
			of = fmt.Sprintf(" × %d tables", tables)
		}
		return fmt.Errorf("%d table entries%s take about %s, more than %s %s of memory",
			capacity, of, bytesText(need), what, bytesText(float64(mem)))
	}
	return nil
}

// bytesText writes a number of bytes for people: 58 GB, 1.2 TB.
func bytesText(b float64) string {
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
