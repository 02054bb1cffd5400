package main

import (
	"fmt"
	"io"
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
		direct += fmt.Sprintf(" (%d in all)", r.Cited)
	}
	if r.Unchecked > 0 {
		return fmt.Sprintf("  cites %s: the %d of their entries it uses VALID, %d unused not checked", direct, r.Used, r.Unchecked)
	}
	return fmt.Sprintf("  cites %s, all VALID", direct)
}

// export checks the certificate at path, then writes into dir (made,
// and found writable, before the check: see outputDir) what a stranger
// needs to check it with files alone: with inline, one certificate
// holding its rows and those of every certificate it relies on; without,
// copies of it and of each of those (the closure).
func export(path, dir string, inline bool, opt verify.Options, asJSON bool, stdout, stderr io.Writer) int {
	flag := "--bundle"
	if inline {
		flag = "--inline"
	}
	opt.Verdicts = nil // what is written must be what this run checked and found
	if inline && opt.Independent {
		// The independent check finds its own witnesses, not the hints':
		// a file of only the cited entries it used may lack some that
		// the hints name, and the default check would reject it. Every
		// cited entry is carried, so that both checkers accept the file.
		opt.Used = false
	}
	r, status := checkOne(path, opt, asJSON, stderr)
	if status >= 0 {
		return status
	}
	var written []string
	var err error
	switch {
	case inline:
		written, err = writeInline(r.Address, dir, opt)
	case isArchive(dir):
		written, err = writeArchive(path, r.Address, dir, opt.Library)
	default:
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
	if r.Valid {
		return r, -1
	}
	return r, r.status()
}

// writeBundle writes the certificate at path, of address addr, and every
// certificate it relies on into dir, under their addresses; it returns
// the files written (or found there already with the same content). Each
// is read again, from path or where the check found it, and written only
// if it still holds the content checked, as format.WriteCertificate
// writes a certificate: read back before it is renamed into place, over
// whatever was at its name (a link is replaced, never followed). A file
// that changed since the check fails the bundle (exit 2): a bundle that
// exits 0 holds what was checked.
func writeBundle(path, addr, dir string, lib *verify.Library) ([]string, error) {
	top, err := format.ReadCertificate(path)
	if err != nil {
		return nil, fmt.Errorf("reading %s again: %w", path, err)
	}
	if got := top.Address(); got != addr {
		return nil, fmt.Errorf("%s changed since it was checked: its content address is now %s, not %s", path, got, addr)
	}
	to, err := format.WriteCertificate(dir, top, format.WriteOptions{})
	if err != nil {
		return nil, err
	}
	out := []string{to}
	for _, a := range lib.Closure(addr) {
		cert, err := lib.Read(a)
		if err != nil {
			return out, err
		}
		if to, err = format.WriteCertificate(dir, cert, format.WriteOptions{}); err != nil {
			return out, err
		}
		out = append(out, to)
	}
	return out, nil
}

// writeInline writes the self-contained certificate of the one of address
// addr into dir and verifies the written file with no other; it returns
// its path.
func writeInline(addr, dir string, opt verify.Options) ([]string, error) {
	cert, err := opt.Library.Inline(addr)
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
