package solve

import (
	"fmt"
	"slices"
	"sync"
	"testing"
)

// TestNimberReads checks what TakeReads reports: the first lookup of each
// learned entry, once, and nothing of entries put, learned as proved, or
// learned before TrackReads.
func TestNimberReads(t *testing.T) {
	tests := []struct {
		name   string
		track  bool
		do     func(db *NimberDB)
		lookup []string
		want   []string
	}{
		{"learned, read twice", true, func(db *NimberDB) { db.Learn("a", 1); db.Learn("b", 2) }, []string{"a", "a", "x"}, []string{"a"}},
		{"own values", true, func(db *NimberDB) { db.Put("a", 1) }, []string{"a"}, nil},
		{"proved values", true, func(db *NimberDB) { db.LearnProved("a", 1) }, []string{"a"}, nil},
		{"learned after own", true, func(db *NimberDB) { db.Put("a", 1); db.Learn("a", 1) }, []string{"a"}, nil},
		{"not tracked", false, func(db *NimberDB) { db.Learn("a", 1) }, []string{"a"}, nil},
		{"cleared", true, func(db *NimberDB) { db.Learn("a", 1); db.Get("a"); db.Clear(); db.Learn("b", 0) }, []string{"b"}, []string{"b"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			db := NewNimberDB()
			if tc.track {
				db.TrackReads()
			}
			tc.do(db)
			for _, k := range tc.lookup {
				db.Get(k)
			}
			var got []string
			for _, e := range db.TakeReads() {
				got = append(got, e.Key)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("TakeReads = %q, want %q", got, tc.want)
			}
			if got := db.TakeReads(); got != nil {
				t.Errorf("second TakeReads = %v, want nothing", got)
			}
		})
	}
}

// TestNimberReadsConcurrent looks learned entries up from many goroutines
// while the table grows: each key is reported exactly once.
func TestNimberReadsConcurrent(t *testing.T) {
	db := NewNimberDB()
	db.TrackReads()
	const n = 2000
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := range n {
			db.Learn(fmt.Sprint(i), uint32(i%5))
		}
	}()
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 3 {
				for i := range n {
					db.Get(fmt.Sprint(i))
				}
			}
		}()
	}
	wg.Wait()
	for i := range n {
		db.Get(fmt.Sprint(i))
	}
	var got []string
	for _, e := range db.TakeReads() {
		got = append(got, e.Key)
	}
	slices.Sort(got)
	if distinct := len(slices.Compact(slices.Clone(got))); len(got) != n || distinct != n {
		t.Fatalf("%d keys reported (%d distinct), want each of %d once", len(got), distinct, n)
	}
}

// TestNimberForget removes some entries: the others stay, with their
// marks, and the removed ones can be added again.
func TestNimberForget(t *testing.T) {
	db := NewNimberDB()
	db.TrackReads()
	for i := range 100 {
		db.Learn(fmt.Sprint(i), uint32(i%3))
	}
	if n := db.Forget(func(e NimberEntry) bool { return len(e.Key) == 1 }); n != 10 {
		t.Fatalf("Forget removed %d entries, want 10", n)
	}
	if db.Len() != 90 {
		t.Fatalf("Len = %d after Forget, want 90", db.Len())
	}
	for i := range 100 {
		g, ok := db.Get(fmt.Sprint(i))
		if ok != (i >= 10) || ok && g != uint32(i%3) {
			t.Errorf("Get(%d) = %d, %v after Forget", i, g, ok)
		}
	}
	if got := len(db.TakeReads()); got != 90 {
		t.Errorf("%d reads reported, want the 90 entries kept", got)
	}
	if !db.Learn("5", 2) {
		t.Error("a forgotten key could not be learned again")
	}
}

// BenchmarkNimberGet looks up learned entries from every thread, with and
// without TrackReads: past its first lookup, a tracked entry costs a load
// more, and writes nothing.
func BenchmarkNimberGet(b *testing.B) {
	for _, track := range []bool{false, true} {
		b.Run(fmt.Sprintf("track=%v", track), func(b *testing.B) {
			db := NewNimberDB()
			if track {
				db.TrackReads()
			}
			keys := make([]string, 1<<16)
			for i := range keys {
				keys[i] = fmt.Sprintf("key %d", i)
				db.Learn(keys[i], uint32(i%7))
			}
			b.RunParallel(func(pb *testing.PB) {
				i := 0
				for pb.Next() {
					db.Get(keys[i&(len(keys)-1)])
					i++
				}
			})
		})
	}
}
