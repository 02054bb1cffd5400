package format

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/arrow/ipc"
)

// layout describes what Restamp must keep of a file besides its rows: the
// rows of each record batch and the fields with their metadata.
type layout struct {
	batches []int64
	fields  []arrow.Field
}

func fileLayout(t *testing.T, data []byte) layout {
	t.Helper()
	fr, err := ipc.NewFileReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	defer fr.Close()
	l := layout{fields: fr.Schema().Fields()}
	for i := range fr.NumRecords() {
		rec, err := fr.RecordAt(i)
		if err != nil {
			t.Fatal(err)
		}
		if rec.NumRows() > 0 {
			l.batches = append(l.batches, rec.NumRows())
		}
		rec.Release()
	}
	return l
}

func (l layout) equal(o layout) bool {
	return slices.Equal(l.batches, o.batches) && slices.EqualFunc(l.fields, o.fields, func(a, b arrow.Field) bool { return a.Equal(b) })
}

// legacySchema is the schema of the files written before columns had
// descriptions: no field metadata.
func legacySchema(c *Certificate) *arrow.Schema {
	fields := certSchema(certMetadata(c)).Fields()
	for i := range fields {
		fields[i].Metadata = arrow.Metadata{}
	}
	md := certMetadata(c)
	return arrow.NewSchema(fields, &md)
}

// TestRestamp: the provenance changes, and nothing else does: not the
// address, the name, the rows, the record batches or the field metadata.
func TestRestamp(t *testing.T) {
	c := sampleCert(9)
	c.Version, c.Created = "dev", time.Time{}
	legacy := legacySchema(c)
	for name, data := range map[string][]byte{
		"one batch":          encode(t, c, WriteOptions{}),
		"batches of 2":       encode(t, c, WriteOptions{BatchRows: 2}),
		"no descriptions":    rawFile(t, legacy, []ipc.Option{ipc.WithZstd()}, entriesRecord(legacy, c.Entries[:5]), entriesRecord(legacy, c.Entries[5:])),
		"an empty batch":     rawFile(t, legacy, []ipc.Option{ipc.WithZstd()}, entriesRecord(legacy, c.Entries[:5]), entriesRecord(legacy, nil), entriesRecord(legacy, c.Entries[5:])),
		"uncompressed input": rawFile(t, legacy, nil, entriesRecord(legacy, c.Entries)),
	} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), c.Address()+".arrow")
			if err := os.WriteFile(path, data, 0o644); err != nil {
				t.Fatal(err)
			}
			created := time.Date(2026, 11, 22, 2, 11, 58, 0, time.FixedZone("CET", 3600))
			changed, err := Restamp(path, "spots", "94ccda9bcdeb", created)
			if err != nil || !changed {
				t.Fatalf("Restamp = %v, %v", changed, err)
			}
			got, err := ReadCertificate(path)
			if err != nil {
				t.Fatal(err)
			}
			want := *c
			want.Producer, want.Version, want.Created = "spots", "94ccda9bcdeb", created
			if d := diff(got, &want); d != "" {
				t.Fatal(d)
			}
			if got.Address() != c.Address() {
				t.Errorf("address %s, was %s", got.Address(), c.Address())
			}
			if got.Created.Location() != time.UTC {
				t.Errorf("created %v: not written in UTC", got.Created)
			}
			after, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if before, now := fileLayout(t, data), fileLayout(t, after); !before.equal(now) {
				t.Errorf("layout %+v, was %+v", now, before)
			}
			// The same provenance again: nothing to do.
			if changed, err := Restamp(path, "spots", "94ccda9bcdeb", created.UTC()); err != nil || changed {
				t.Errorf("second Restamp = %v, %v; want false, nil", changed, err)
			}
			if again, _ := os.ReadFile(path); !bytes.Equal(again, after) {
				t.Error("the second Restamp changed the file")
			}
			if left, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".*tmp*")); len(left) > 0 {
				t.Errorf("temporary files left: %v", left)
			}
		})
	}
}

// TestRestampRefuses: a file that is not what its name or metadata says,
// or provenance a certificate cannot hold, is refused and left as it was.
func TestRestampRefuses(t *testing.T) {
	c := sampleCert(6)
	good := encode(t, c, WriteOptions{})
	wrongAddress := encode(t, sampleCert(5), WriteOptions{})
	for _, tc := range []struct {
		name    string
		file    string
		data    []byte
		version string
		created time.Time
		corrupt bool
		wantErr string
	}{
		{"named for another address", c.Address() + ".arrow", wrongAddress, "v1", time.Unix(0, 0), true, "named"},
		{"truncated", c.Address() + ".arrow", good[:len(good)-40], "v1", time.Unix(0, 0), true, ""},
		{"a line break in the version", c.Address() + ".arrow", good, "v1\nv2", time.Unix(0, 0), false, "version"},
		{"a year RFC 3339 cannot write", c.Address() + ".arrow", good, "v1", time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC), false, "creation time"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), tc.file)
			if err := os.WriteFile(path, tc.data, 0o644); err != nil {
				t.Fatal(err)
			}
			changed, err := Restamp(path, "spots", tc.version, tc.created)
			if err == nil || changed || errors.Is(err, ErrCorrupt) != tc.corrupt || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("Restamp = %v, %v; want an error (corrupt %v) with %q", changed, err, tc.corrupt, tc.wantErr)
			}
			if after, _ := os.ReadFile(path); !bytes.Equal(after, tc.data) {
				t.Error("the file changed")
			}
			if left, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".*tmp*")); len(left) > 0 {
				t.Errorf("temporary files left: %v", left)
			}
		})
	}
	if _, err := Restamp(filepath.Join(t.TempDir(), "missing.arrow"), "spots", "v1", time.Unix(0, 0)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a missing file: %v", err)
	}
}
