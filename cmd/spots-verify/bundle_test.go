package main

import (
	"archive/tar"
	"bytes"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/spots-dev/spots/format"
	"github.com/spots-dev/spots/verify"
)

// The certificates of format/testdata/cites: top (0*3=W) cites cited
// (gn(0*2)=0).
const (
	citesTop   = "034e3c291863804e2715c5fc16fb74e07f00a722744074ae1197d2792fcc904c"
	citesCited = "286bd41c54edcc329445c0cea083dedc93818760a0139644acc7121d479f87a4"
)

// TestBundleCopiesWhatWasChecked: a file of the proof swapped between the
// check and --bundle's copy (junk, another certificate, the certificate
// itself) is never bundled as if it had been checked: the bundle holds
// the content checked, or fails (exit 2). A copy of the same content in
// other bytes (another encoding) is the certificate checked, and is
// bundled. (Files were copied as they were found at copy time: 2 bundles
// in 10 that exited 0 failed a later check.)
func TestBundleCopiesWhatWasChecked(t *testing.T) {
	src := filepath.Join("..", "..", "format", "testdata", "cites")
	read := func(addr string) []byte {
		b, err := os.ReadFile(filepath.Join(src, addr+".arrow"))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	reencoded := func(addr string) []byte {
		cert, err := format.ReadCertificate(filepath.Join(src, addr+".arrow"))
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := format.EncodeCertificate(&buf, cert, format.WriteOptions{BatchRows: 1}); err != nil {
			t.Fatal(err)
		}
		if bytes.Equal(buf.Bytes(), read(addr)) {
			t.Fatal("the certificate re-encoded in batches of one row has the same bytes")
		}
		return buf.Bytes()
	}
	for _, tc := range []struct {
		name    string
		swapped string // the address whose file is swapped
		bytes   []byte
		same    bool // the same content in other bytes: bundled
	}{
		{"cited junk", citesCited, []byte("not a certificate"), false},
		{"cited other certificate", citesCited, read(citesTop), false},
		{"cited reencoded", citesCited, reencoded(citesCited), true},
		{"top junk", citesTop, []byte("not a certificate"), false},
		{"top other certificate", citesTop, read(citesCited), false},
		{"top reencoded", citesTop, reencoded(citesTop), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir, out := t.TempDir(), filepath.Join(t.TempDir(), "bundle")
			for _, a := range []string{citesTop, citesCited} {
				if err := os.WriteFile(filepath.Join(dir, a+".arrow"), read(a), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.Mkdir(out, 0o755); err != nil {
				t.Fatal(err)
			}
			top := filepath.Join(dir, citesTop+".arrow")
			lib := verify.NewLibrary()
			res, err := verify.File(top, verify.Options{Library: lib})
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, tc.swapped+".arrow"), tc.bytes, 0o644); err != nil {
				t.Fatal(err)
			}
			written, err := writeBundle(top, res.Address, out, lib)
			if !tc.same && err == nil {
				t.Errorf("a file swapped after the check was bundled: %v", written)
			}
			if tc.same && err != nil {
				t.Errorf("the same content in other bytes was refused: %v", err)
			}
			if err == nil {
				if _, err := verify.File(filepath.Join(out, citesTop+".arrow"), verify.Options{}); err != nil {
					t.Errorf("the bundle does not check: %v", err)
				}
			}
		})
	}
}

// TestBundleArchive: --bundle NAME.tar writes the proof as one tar
// archive, each certificate under its address; the files it holds check
// on their own, and the same proof makes the same bytes.
func TestBundleArchive(t *testing.T) {
	src := filepath.Join("..", "..", "format", "testdata", "cites", citesTop+".arrow")
	out := t.TempDir()
	var archives [][]byte
	for _, name := range []string{"a/proof.tar", "b/proof.tar"} {
		path := filepath.Join(out, name)
		var stdout, stderr bytes.Buffer
		if status := run([]string{"--progress", "none", "--no-cache", "--bundle", path, src}, &stdout, &stderr); status != 0 {
			t.Fatalf("--bundle %s: exit %d\n%s%s", name, status, stdout.String(), stderr.String())
		}
		if !strings.Contains(stdout.String(), path+"\n") {
			t.Errorf("--bundle %s does not print the archive's path:\n%s", name, stdout.String())
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		archives = append(archives, b)
		if left, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".*")); len(left) > 0 {
			t.Errorf("--bundle %s left %v beside the archive", name, left)
		}
	}
	if !bytes.Equal(archives[0], archives[1]) {
		t.Error("two archives of one proof differ")
	}
	files := t.TempDir()
	var names []string
	tr := tar.NewReader(bytes.NewReader(archives[0]))
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(tr)
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, hdr.Name)
		if err := os.WriteFile(filepath.Join(files, hdr.Name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	slices.Sort(names)
	if want := []string{citesTop + ".arrow", citesCited + ".arrow"}; !slices.Equal(names, want) {
		t.Fatalf("the archive holds %v, want %v", names, want)
	}
	if _, err := verify.File(filepath.Join(files, citesTop+".arrow"), verify.Options{Library: verify.NewLibrary()}); err != nil {
		t.Errorf("the archive's files do not check: %v", err)
	}
}
