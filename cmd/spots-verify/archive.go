package main

import (
	"archive/tar"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spots-dev/spots/format"
	"github.com/spots-dev/spots/verify"
)

// A bundle as one file: --bundle NAME.tar writes the certificate and
// every certificate it relies on into a tar archive, each as
// <address>.arrow, so that a stranger gets a proof as one download; tar
// -xf NAME.tar -C DIR gives the files --bundle DIR would have written.

// isArchive reports whether --bundle's argument names an archive rather
// than a directory.
func isArchive(path string) bool { return strings.HasSuffix(path, ".tar") }

// writeArchive writes the certificate at path, of address addr, and every
// certificate it relies on into the tar archive file, each named by its
// address; it returns the archive's path. The certificates are first
// written as writeBundle writes them (each read again and written only if
// it holds the content checked) into a directory of their own beside the
// archive, and the archive is written through a temporary file renamed
// into place: a bundle that exits 0 holds what was checked, and a failed
// one leaves no archive.
func writeArchive(path, addr, file string, lib *verify.Library) ([]string, error) {
	tmp, err := os.MkdirTemp(filepath.Dir(file), ".spots-bundle")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	files, err := writeBundle(path, addr, tmp, lib)
	if err != nil {
		return nil, err
	}
	err = format.WriteFileAtomic(file, func(w io.Writer) error {
		tw := tar.NewWriter(w)
		for _, f := range files {
			if err := archiveFile(tw, f); err != nil {
				return err
			}
		}
		return tw.Close()
	})
	if err != nil {
		return nil, err
	}
	return []string{file}, nil
}

// archiveFile adds the file at path to tw under its base name. The
// archive records no times nor owners, so that the same proof makes the
// same archive.
func archiveFile(tw *tar.Writer, path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return err
	}
	hdr := &tar.Header{Name: filepath.Base(path), Mode: 0o644, Size: info.Size(), ModTime: time.Unix(0, 0).UTC(), Format: tar.FormatUSTAR}
	if err := tw.WriteHeader(hdr); err != nil {
		return fmt.Errorf("archiving %s: %w", path, err)
	}
	if _, err := io.Copy(tw, f); err != nil {
		return fmt.Errorf("archiving %s: %w", path, err)
	}
	return nil
}
