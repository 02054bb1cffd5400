package solve_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"io"
	"testing"
	"time"

	"github.com/spots-dev/spots/solve"
	"github.com/spots-dev/spots/sprouts"
)

// TestTableFileResumesASearch stops a search, saves its table and
// database, and goes on from them in a new search: the new search
// reaches the same outcome in fewer iterations than one from scratch, and
// a table read back writes the same bytes.
func TestTableFileResumesASearch(t *testing.T) {
	pos := sprouts.MustParse("0*11")
	opt := solve.Options{Capacity: 1 << 14}
	fresh := solve.NewDFPN(sprouts.Rules{}, nil, opt)
	want := fresh.Solve(context.Background(), pos, 0)
	full := fresh.Stats().Iterations

	stopped := opt
	stopped.MaxIterations = full / 2
	first := solve.NewDFPN(sprouts.Rules{}, nil, stopped)
	if got := first.Solve(context.Background(), pos, 0); got != solve.Unknown {
		t.Fatalf("a search stopped after %d of %d iterations says %v", full/2, full, got)
	}
	var saved bytes.Buffer
	if _, err := first.WriteTable(&saved); err != nil {
		t.Fatal(err)
	}

	db := solve.NewNimberDB()
	first.DB().Range(func(k string, g uint32) bool { db.Put(k, g); return true })
	second := solve.NewDFPN(sprouts.Rules{}, db, opt)
	n, err := second.ReadTable(bytes.NewReader(saved.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if int64(n) != first.Stats().TTEntries {
		t.Errorf("read %d entries, the table held %d", n, first.Stats().TTEntries)
	}
	var again bytes.Buffer
	if _, err := second.WriteTable(&again); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(saved.Bytes(), again.Bytes()) {
		t.Errorf("a table read back writes %d bytes unlike the %d read", again.Len(), saved.Len())
	}
	if got := second.Solve(context.Background(), pos, 0); got != want {
		t.Fatalf("resumed: %v, from scratch: %v", got, want)
	}
	if rest := second.Stats().Iterations; rest >= full {
		t.Errorf("resumed search took %d iterations, one from scratch %d", rest, full)
	}
}

// TestTableFileRefusesDamage: a table file that is not one, is cut short
// or holds an impossible entry is refused with ErrTableFile.
func TestTableFileRefusesDamage(t *testing.T) {
	s := solve.NewDFPN(sprouts.Rules{}, nil, solve.Options{Capacity: 1 << 12})
	s.Solve(context.Background(), sprouts.MustParse("0*6"), 0)
	var good bytes.Buffer
	if _, err := s.WriteTable(&good); err != nil {
		t.Fatal(err)
	}
	const head, rec = 12, 36
	if (good.Len()-head)%rec != 0 || good.Len() == head {
		t.Fatalf("a table file of %d bytes is not a header and whole records", good.Len())
	}
	edit := func(f func(b []byte) []byte) []byte { return f(bytes.Clone(good.Bytes())) }
	for name, data := range map[string][]byte{
		"empty":      {},
		"magic":      edit(func(b []byte) []byte { b[0] = 'x'; return b }),
		"version":    edit(func(b []byte) []byte { b[8] = 99; return b }),
		"cut short":  good.Bytes()[:good.Len()-1],
		"pn dn zero": edit(func(b []byte) []byte { clear(b[head+16 : head+32]); return b }),
		"inf, not 0": edit(func(b []byte) []byte {
			binary.LittleEndian.PutUint64(b[head+16:], solve.Inf)
			binary.LittleEndian.PutUint64(b[head+24:], 5)
			return b
		}),
		"header only": good.Bytes()[:head-1],
	} {
		_, err := solve.NewDFPN(sprouts.Rules{}, nil, solve.Options{Capacity: 1 << 12}).ReadTable(bytes.NewReader(data))
		if !errors.Is(err, solve.ErrTableFile) {
			t.Errorf("%s: %v, want ErrTableFile", name, err)
		}
	}
}

// TestConcurrentCheckpoint writes the table of a PDFPN from its
// checkpoint callback while the other thread searches (run with -race).
func TestConcurrentCheckpoint(t *testing.T) {
	var s *solve.DFPN[sprouts.Position]
	calls := 0
	opt := solve.Options{Capacity: 1 << 14, Threads: 2, CheckpointEvery: time.Nanosecond,
		Checkpoint: func(solve.Progress) {
			calls++
			if _, err := s.WriteTable(io.Discard); err != nil {
				t.Error(err)
			}
		}}
	s = solve.NewDFPN(sprouts.Rules{}, nil, opt)
	if got := s.Solve(context.Background(), sprouts.MustParse("0*9"), 0); got != solve.Win {
		t.Fatalf("0*9: %v, want W", got)
	}
	if calls == 0 {
		t.Error("the checkpoint was never called")
	}
}
