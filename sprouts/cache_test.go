package sprouts

import (
	"bytes"
	"fmt"
	"slices"
	"testing"
)

// cacheUse returns the entries a cache holds and the bytes its tables
// take (nil: none).
func cacheUse(c *Cache) (entries, bytes int) {
	if c == nil {
		return 0, 0
	}
	for i := range c.tables {
		t := c.tables[i].Load()
		if t == nil {
			continue
		}
		bytes += len(t.slots)*cacheSlotBytes + len(t.words)*8
		for j := range t.slots {
			if t.slots[j].hash.Load() != 0 {
				entries++
			}
		}
	}
	return entries, bytes
}

// TestCachesAreIndependent: two caches of different sizes, each given to
// its own Rules, fill only from their own use, each within its own bound
// (there is no cache of the package that both would share), and make the
// same children as generation without a cache.
func TestCachesAreIndependent(t *testing.T) {
	ps := searchLands(t)[:3000]
	const smallBytes, largeBytes = cacheShards * 32 << 10, 64 << 20
	small, large := NewCache(smallBytes), NewCache(largeBytes)
	if small == nil || large == nil {
		t.Fatal("NewCache returned nil for a usable bound")
	}
	for _, c := range []*Cache{small, large} {
		if n, b := cacheUse(c); n != 0 || b != 0 {
			t.Fatalf("a new cache holds %d entries in %d bytes", n, b)
		}
	}

	rs, rl := Rules{Cache: small}, Rules{Cache: large}
	for _, p := range ps {
		if got := rs.Children(p); !slices.Equal(got, p.Children()) {
			t.Fatalf("%s: children through the small cache differ from those without", p)
		}
	}
	if n, _ := cacheUse(large); n != 0 {
		t.Fatalf("the large cache holds %d entries, all made through the small one", n)
	}
	sn, sb := cacheUse(small)
	if sn == 0 || sb > smallBytes {
		t.Fatalf("the small cache holds %d entries in %d bytes, want some within its %d", sn, sb, smallBytes)
	}

	for _, p := range ps {
		if got := rl.Children(p); !slices.Equal(got, p.Children()) {
			t.Fatalf("%s: children through the large cache differ from those without", p)
		}
	}
	ln, lb := cacheUse(large)
	if ln <= sn || lb <= smallBytes || lb > largeBytes {
		t.Errorf("the large cache holds %d entries in %d bytes (the small one %d in %d): want more than the small one's bound of %d allows, within its own %d",
			ln, lb, sn, sb, smallBytes, largeBytes)
	}
	if n, b := cacheUse(small); n != sn || b != sb {
		t.Errorf("the small cache changed through the large one's use: %d entries in %d bytes, before %d in %d", n, b, sn, sb)
	}
}

// TestNewCacheBounds: a bound too small for any entry gives no cache
// (nil, which Rules uses as none), and nothing is allocated before use.
func TestNewCacheBounds(t *testing.T) {
	for _, bytes := range []int64{-1, 0, 1, cacheShards * 64} {
		if c := NewCache(bytes); c != nil {
			t.Errorf("NewCache(%d) = a cache, want nil", bytes)
		}
	}
	p := MustParse("0*6")
	if got := (Rules{}).Children(p); !slices.Equal(got, p.Children()) {
		t.Errorf("the zero Rules: %v, want %v", got, p.Children())
	}
	c := NewCache(1 << 40)
	if c == nil {
		t.Fatal("NewCache(1 TiB) = nil")
	}
	if _, b := cacheUse(c); b != 0 {
		t.Errorf("a new cache of 1 TiB took %d bytes before use", b)
	}
	(Rules{Cache: c}).Children(p)
	if _, b := cacheUse(c); b > cacheShards*cacheFirstShard {
		t.Errorf("a cache of 1 TiB took %d bytes for the children of one position", b)
	}
}

// TestCacheKeepsEntriesAsItGrows: a shard made anew at twice the size
// keeps what the smaller one held, so every entry put into a cache whose
// bound holds them all is found again, however many times its shards grew.
func TestCacheKeepsEntriesAsItGrows(t *testing.T) {
	c := NewCache(64 << 20)
	const n = 20000 // far more than the first shards hold
	key := func(i int) []byte { return fmt.Appendf(nil, "land key %d", i) }
	code := func(i int) []byte { return fmt.Appendf(nil, "code %d of a land", i) }
	for i := range n {
		c.put(key(i), code(i))
	}
	if _, b := cacheUse(c); b <= cacheShards*cacheFirstShard {
		t.Fatalf("the cache takes %d bytes: its shards did not grow", b)
	}
	for i := range n {
		got, ok := c.appendGet(nil, key(i))
		if !ok || !bytes.Equal(got, code(i)) {
			t.Fatalf("entry %d: %q, %v after the shards grew, want %q", i, got, ok, code(i))
		}
	}
}
