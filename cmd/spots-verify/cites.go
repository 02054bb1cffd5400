package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/spots-dev/spots/format"
	"github.com/spots-dev/spots/internal/buildinfo"
	"github.com/spots-dev/spots/verify"
)

// Citations: a certificate that cites others is checked with them (found
// beside it and in the --cites directories, each checked once per run by
// the run's one verify.Library), and --bundle and --inline give a stranger
// the whole proof: the certificate and every certificate it relies on as
// files, or one certificate with all their rows.

// citesNote is what a verdict adds for a certificate that cites others.
func citesNote(r report) string {
	if r.Cites == 0 {
		return ""
	}
	direct := "1 certificate"
	if r.Cites > 1 {
		direct = fmt.Sprintf("%d certificates", r.Cites)
	}
	if r.Cited > r.Cites {
		return fmt.Sprintf("  cites %s (%d in all), all VALID", direct, r.Cited)
	}
	return fmt.Sprintf("  cites %s, all VALID", direct)
}

// export checks the one certificate given, then writes into dir (made if
// missing) what a stranger needs to check it with files alone: with
// inline, one certificate holding its rows and those of every certificate
// it relies on; without, copies of it and of each of those (the closure).
func export(paths []string, dir string, inline bool, opt verify.Options, asJSON bool, stdout, stderr io.Writer) int {
	flag := "--bundle"
	if inline {
		flag = "--inline"
	}
	if len(paths) != 1 {
		fmt.Fprintf(stderr, "spots-verify: %s writes the proof of one certificate (got %d files)\n", flag, len(paths))
		return 2
	}
	path := paths[0]
	r, status := checkOne(path, opt, asJSON, stderr)
	if status >= 0 {
		return status
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		fmt.Fprintf(stderr, "spots-verify: %s: %v\n", flag, err)
		return 2
	}
	var written []string
	var err error
	if inline {
		written, err = writeInline(path, dir, opt)
	} else {
		written, err = writeBundle(path, r.Address, dir, opt.Library)
	}
	if err != nil {
		fmt.Fprintf(stderr, "spots-verify: %s %s: %v\n", flag, dir, err)
		return 2
	}
	for _, w := range written {
		fmt.Fprintln(stdout, w)
	}
	return 0
}

// checkOne checks the certificate at path and prints the verdict on w; it
// returns the report, and the exit status when it is not valid (-1 when
// it is).
func checkOne(path string, opt verify.Options, asJSON bool, w io.Writer) (report, int) {
	r := checkFile(path, opt)
	print(w, r, asJSON)
	switch {
	case r.unreadable:
		return r, 2
	case !r.Valid:
		return r, 1
	}
	return r, -1
}

// writeBundle copies the certificate at path (of address addr) and every
// certificate it relies on into dir, under their addresses; it returns the
// files written (or found there already with the same content).
func writeBundle(path, addr, dir string, lib *verify.Library) ([]string, error) {
	srcs := map[string]string{addr: path}
	for _, a := range lib.Closure(addr) {
		srcs[a] = lib.Path(a)
	}
	var out []string
	for a, src := range srcs {
		to := filepath.Join(dir, a+".arrow")
		if err := copyFile(src, to); err != nil {
			return out, err
		}
		out = append(out, to)
	}
	return out, nil
}

// copyFile copies src to to through a temporary file and a rename.
func copyFile(src, to string) error {
	if same, err := sameFile(src, to); err != nil || same {
		return err
	}
	in, err := format.OpenInput(src)
	if err != nil {
		return err
	}
	defer in.Close()
	a, err := format.CreateAtomic(to)
	if err != nil {
		return err
	}
	if _, err := io.Copy(a, in); err != nil {
		a.Abort()
		return err
	}
	return a.Commit()
}

// sameFile reports whether a and b are one file (b may not exist).
func sameFile(a, b string) (bool, error) {
	sb, err := os.Stat(b)
	if os.IsNotExist(err) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	sa, err := os.Stat(a)
	if err != nil {
		return false, err
	}
	return os.SameFile(sa, sb), nil
}

// writeInline writes the self-contained certificate of the one at path
// into dir and verifies the written file with no other; it returns its
// path.
func writeInline(path, dir string, opt verify.Options) ([]string, error) {
	cert, err := opt.Library.Inline(path)
	if err != nil {
		return nil, err
	}
	cert.Producer, cert.Version, cert.Created = "spots-verify", buildinfo.Version(), time.Now().UTC()
	out, err := format.WriteCertificate(dir, cert, format.WriteOptions{})
	if err != nil {
		return nil, err
	}
	alone := opt
	alone.Library = nil
	if _, err := verify.File(out, alone); err != nil {
		return nil, fmt.Errorf("the self-contained certificate %s does not verify: %w", out, err)
	}
	return []string{out}, nil
}
