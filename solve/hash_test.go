package solve

import (
	"fmt"
	"testing"
)

// TestFingerprint checks that the table's bucket is the one hashKey gives
// (so a search places its entries as before the table held fingerprints)
// and that the two halves tell many couples apart independently.
func TestFingerprint(t *testing.T) {
	seen := map[uint64]string{}
	seen2 := map[uint64]string{}
	for i := range 200000 {
		key := fmt.Sprintf("k%d", i)
		n := uint32(i % 7)
		fp := fingerprint(key, n)
		if fp[0] != hashKey(key, n) {
			t.Fatalf("%q %d: first half %x, hashKey %x", key, n, fp[0], hashKey(key, n))
		}
		if fp[0] == fp[1] {
			t.Fatalf("%q %d: both halves %x", key, n, fp[0])
		}
		id := fmt.Sprintf("%s/%d", key, n)
		if o, ok := seen[fp[0]]; ok {
			t.Fatalf("%s and %s share the first half", id, o)
		}
		if o, ok := seen2[fp[1]]; ok {
			t.Fatalf("%s and %s share the second half", id, o)
		}
		seen[fp[0]], seen2[fp[1]] = id, id
	}
}
