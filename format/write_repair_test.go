package format

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWriteCertificateRepairs puts something other than the certificate
// at its address: writing the certificate must replace it with the good
// file, by renaming a checked temporary file (a reader that had the old
// file open still reads the old bytes), and leave nothing else behind.
func TestWriteCertificateRepairs(t *testing.T) {
	c := sampleCert(12)
	good := encode(t, c, WriteOptions{})
	other := encode(t, sampleCert(5), WriteOptions{})
	tests := []struct {
		name string
		old  []byte
	}{
		{"garbage", []byte("not a certificate at all")},
		{"empty", nil},
		{"truncated", good[:len(good)/2]},
		{"one byte flipped in a row", func() []byte {
			d := bytes.Clone(good)
			d[len(d)/3] ^= 0xff
			return d
		}()},
		{"another certificate", other},
		{"Arrow magic only", []byte("ARROW1\x00\x00ARROW1")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, c.Address()+".arrow")
			if err := os.WriteFile(path, tt.old, 0o644); err != nil {
				t.Fatal(err)
			}
			held, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer held.Close()
			got, err := WriteCertificate(dir, c, WriteOptions{})
			if err != nil || got != path {
				t.Fatalf("WriteCertificate: %s, %v", got, err)
			}
			read, err := ReadCertificate(path)
			if err != nil {
				t.Fatalf("the file after the write: %v", err)
			}
			if read.Address() != c.Address() {
				t.Fatalf("the file holds %s", read.Address())
			}
			if before, _ := io.ReadAll(held); !bytes.Equal(before, tt.old) {
				t.Error("the old file was overwritten in place, not replaced by a rename")
			}
			files, _ := os.ReadDir(dir)
			if len(files) != 1 {
				t.Errorf("the directory holds %d files, want 1", len(files))
			}
			info, _ := os.Stat(path)
			if info.Mode().Perm() != 0o644 {
				t.Errorf("mode %v", info.Mode())
			}
		})
	}
}

// TestWriteCertificateSymlink: a symbolic link at the address is replaced
// by the file, and what it pointed to is left alone.
func TestWriteCertificateSymlink(t *testing.T) {
	dir := t.TempDir()
	c := sampleCert(4)
	target := filepath.Join(dir, "target")
	os.WriteFile(target, []byte("garbage"), 0o644)
	path := filepath.Join(dir, c.Address()+".arrow")
	if err := os.Symlink(target, path); err != nil {
		t.Skip(err)
	}
	if _, err := WriteCertificate(dir, c, WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if info, err := os.Lstat(path); err != nil || !info.Mode().IsRegular() {
		t.Errorf("the address is not a regular file: %v", err)
	}
	if b, _ := os.ReadFile(target); string(b) != "garbage" {
		t.Errorf("the link's target was changed")
	}
}

// TestWriteCertificateUnreadable: a directory at the address is neither a
// certificate nor replaceable: an error naming the path.
func TestWriteCertificateUnreadable(t *testing.T) {
	dir := t.TempDir()
	c := sampleCert(4)
	path := filepath.Join(dir, c.Address()+".arrow")
	os.Mkdir(path, 0o755)
	os.WriteFile(filepath.Join(path, "x"), nil, 0o644)
	if _, err := WriteCertificate(dir, c, WriteOptions{}); err == nil || !strings.Contains(err.Error(), path) {
		t.Errorf("got %v, want an error naming %s", err, path)
	}
	if files, _ := os.ReadDir(dir); len(files) != 1 {
		t.Errorf("%d files left in the directory, want 1", len(files))
	}
}
