package format

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"
)

// TestDump: a dump holds the header and every entry as written, and reads
// back into the same certificate, with the same address.
func TestDump(t *testing.T) {
	for _, n := range []int{0, 1, 20} {
		c := sampleCert(n)
		data := encode(t, c, WriteOptions{BatchRows: 6})
		r, err := NewCertReader(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		if err := Dump(&out, r, c.Address()); err != nil {
			t.Fatalf("%d entries: %v", n, err)
		}
		r.Close()
		sc := bufio.NewScanner(&out)
		sc.Buffer(nil, 1<<20)
		if !sc.Scan() {
			t.Fatalf("%d entries: no header", n)
		}
		var h DumpHeader
		if err := json.Unmarshal(sc.Bytes(), &h); err != nil {
			t.Fatal(err)
		}
		created, _ := time.Parse(time.RFC3339Nano, h.Created)
		if h.Format != FormatVersion || h.Game != c.Game || h.Notation != c.Notation || h.Claim != c.Claim.String() ||
			h.Address != c.Address() || h.Entries != n || h.Producer != c.Producer || h.Version != c.Version || !created.Equal(c.Created) {
			t.Errorf("%d entries: header %+v", n, h)
		}
		back := &Certificate{Claim: c.Claim, Game: h.Game, Notation: h.Notation}
		for row := 1; sc.Scan(); row++ {
			var e DumpEntry
			if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
				t.Fatal(err)
			}
			if e.Row != row || e.Reach == nil || e.Win == nil {
				t.Errorf("row %d: %s", row, sc.Bytes())
			}
			entry := Entry{Position: e.Position, Grundy: e.Grundy}
			if len(e.Reach) > 0 {
				entry.Reach = e.Reach
			}
			if len(e.Win) > 0 {
				entry.Win = e.Win
			}
			back.Entries = append(back.Entries, entry)
		}
		if back.Address() != c.Address() || len(back.Entries) != n {
			t.Errorf("%d entries: read back as %d entries of address %s, want %s", n, len(back.Entries), back.Address(), c.Address())
		}
	}
}

// TestDumpChanged: a dump of a file whose rows hash to another address
// than the check found ends with an error.
func TestDumpChanged(t *testing.T) {
	data := encode(t, sampleCert(3), WriteOptions{})
	r, err := NewCertReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if err := Dump(&bytes.Buffer{}, r, strings.Repeat("0", 64)); err == nil || !strings.Contains(err.Error(), "changed since it was checked") {
		t.Errorf("%v, want the file changed", err)
	}
}

// TestNotCertificate: a file with no Arrow magic at either end is no
// certificate (ErrNotCertificate, and ErrCorrupt for callers that only ask
// whether it decodes); one with the magic at one end is corrupt only.
func TestNotCertificate(t *testing.T) {
	valid := encode(t, sampleCert(3), WriteOptions{})
	for _, tt := range []struct {
		name string
		data []byte
		not  bool // ErrNotCertificate
	}{
		{"empty", nil, true},
		{"text", []byte("# spots\n\nSolve positions of the game Sprouts.\n"), true},
		{"one byte", []byte("x"), true},
		{"the start of the magic", []byte("ARR"), false},
		{"no head", append([]byte("XXXXXX"), valid[6:]...), false},
		{"no tail", valid[:len(valid)-3], false},
	} {
		_, err := decode(tt.data)
		if !errors.Is(err, ErrCorrupt) || errors.Is(err, ErrNotCertificate) != tt.not {
			t.Errorf("%s: %v; want corrupt, and not a certificate: %v", tt.name, err, tt.not)
		}
	}
}
