package format

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/arrow/array"
	"github.com/apache/arrow/go/v17/arrow/ipc"
	"github.com/apache/arrow/go/v17/arrow/memory"
)

// Restamp rewrites the certificate file at path with another provenance:
// producer, version and creation time in place of the file's own.
// Everything else stays as it was: the claim and the entries, in the same
// record batches, with the same column metadata, so the content address
// and the file's name do not change. A record batch without rows, which
// no writer of this package makes, is left out.
//
// It reads the whole file first and refuses (leaving it untouched) one that
// is not a certificate whose rows hash to the address it declares and, when
// its name is a content address, to its name. The new file is written
// beside the old, read back and checked to hold the same address and the
// new provenance, and only then renamed over it, so no reader sees a
// partial file. It reports whether the file changed: a file that already
// has this provenance is not rewritten.
func Restamp(path, producer, version string, created time.Time) (changed bool, err error) {
	r, err := OpenCertificate(path)
	if err != nil {
		return false, fmt.Errorf("restamp: %w", err)
	}
	defer r.Close()
	old := r.Header()
	want := old
	want.Producer, want.Version, want.Created = producer, version, created.UTC()
	if err := checkCertificate(&want); err != nil {
		return false, fmt.Errorf("restamp %s: %w", path, err)
	}
	if old.Producer == want.Producer && old.Version == want.Version && old.Created.Equal(want.Created) {
		return false, nil
	}
	a, err := CreateAtomic(path)
	if err != nil {
		return false, fmt.Errorf("restamp %s: %w", path, err)
	}
	if err := restampTo(a, r, path, &want); err != nil {
		a.Abort()
		return false, fmt.Errorf("restamp %s: %w", path, err)
	}
	if err := a.Commit(); err != nil {
		return false, fmt.Errorf("restamp %s: %w", path, err)
	}
	return true, nil
}

// restampTo copies the record batches r reads into a with the schema
// metadata of r's file but the provenance of want, checks the rows' address
// against the file's declared address and name, and reads a back.
func restampTo(a *AtomicFile, r *CertReader, path string, want *Certificate) error {
	schema := restampedSchema(r.fr.Schema(), want)
	fw, err := ipc.NewFileWriter(newOffsetWriter(a), ipc.WithSchema(schema), ipc.WithZstd(), ipc.WithAllocator(memory.NewGoAllocator()))
	if err != nil {
		return err
	}
	written := 0 // batches of r written
	for {
		_, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		if r.batch == written {
			continue
		}
		// Next has just loaded a batch: it is r.rec.
		rec := array.NewRecord(schema, r.rec.Columns(), r.rec.NumRows())
		err = guard(fmt.Sprintf("writing batch %d", r.batch), func() error { return fw.Write(rec) })
		rec.Release()
		if err != nil {
			return err
		}
		written = r.batch
	}
	addr, err := r.Address()
	if err != nil {
		return err
	}
	if addr != r.DeclaredAddress() {
		return corrupt("the rows hash to %s, the metadata says %s", addr, r.DeclaredAddress())
	}
	if name, ok := strings.CutSuffix(filepath.Base(path), ".arrow"); ok && IsAddress(strings.ToLower(name)) && name != addr {
		return corrupt("the file is named %s but its content address is %s", name, addr)
	}
	if err := fw.Close(); err != nil {
		return err
	}
	return checkRestamped(a, addr, want)
}

// restampedSchema is s with the provenance keys of its metadata set from
// want, the other keys (and their order) and the fields as they are.
func restampedSchema(s *arrow.Schema, want *Certificate) *arrow.Schema {
	md := s.Metadata()
	keys, values := md.Keys(), append([]string(nil), md.Values()...)
	for i, k := range keys {
		switch k {
		case metaProducer:
			values[i] = want.Producer
		case metaVersion:
			values[i] = want.Version
		case metaCreated:
			values[i] = want.Created.UTC().Format(time.RFC3339Nano)
		}
	}
	out := arrow.NewMetadata(keys, values)
	return arrow.NewSchema(s.Fields(), &out)
}

// checkRestamped reads back the file a restamp wrote and checks that it is
// a certificate of address addr with want's header.
func checkRestamped(a *AtomicFile, addr string, want *Certificate) error {
	got, err := readBack(a.File, addr)
	if err != nil {
		return err
	}
	if got.Claim != want.Claim || got.Game != want.Game || got.Notation != want.Notation ||
		got.Producer != want.Producer || got.Version != want.Version || !got.Created.Equal(want.Created) {
		return fmt.Errorf("the new file's header reads back as %q %q %q %q %q %v, not %q %q %q %q %q %v",
			got.Claim, got.Game, got.Notation, got.Producer, got.Version, got.Created,
			want.Claim, want.Game, want.Notation, want.Producer, want.Version, want.Created)
	}
	return nil
}
