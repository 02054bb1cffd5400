package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/spots-dev/spots/format"
	"github.com/spots-dev/spots/internal/buildinfo"
	"github.com/spots-dev/spots/internal/statusline"
	"github.com/spots-dev/spots/verify"
)

func checkDatabase(path string, claim format.Claim, convert string, lenient bool, opt verify.Options, prog *statusline.Line) report {
	start := time.Now()
	r := report{Input: path, Claim: claim.String()}
	file, err := format.OpenInput(path)
	if err != nil {
		r.unreadable, r.Error = true, err.Error()
		return r
	}
	defer file.Close()
	f := &readProgress{r: file, path: path, prog: prog}
	if st, err := file.Stat(); err == nil {
		f.size = st.Size()
	}
	warn := func(e *format.LineError) { fmt.Fprintf(os.Stderr, "spots-verify: %s: skipping %v\n", path, e) }
	if opt.Independent {
		entries, err := readEntries(f, format.SPROptions{Lenient: lenient, Warn: warn}, opt.Limits)
		if verify.IsLimit(err) {
			r.Seconds = time.Since(start).Seconds()
			return finish(r, err)
		}
		if err != nil {
			r.unreadable, r.Error = true, fmt.Sprintf("%s: %v", path, err)
			return r
		}
		res, err := verify.CheckIndependent(entries, claim, opt)
		r.Seconds, r.Independent, r.Entries, r.ValidCount = time.Since(start).Seconds(), true, res.Entries, res.Valid
		if err != nil && !verify.IsInvalid(err) && !verify.IsLimit(err) {
			r.unreadable, r.Error = true, fmt.Sprintf("%s: %v", path, err)
			return r
		}
		return finish(r, err)
	}
	// Entries are measured against the limits as they are read: a file of
	// positions over them is refused at its first, not held whole.
	db, err := verify.ReadDatabase(f, format.SPROptions{Lenient: lenient, Warn: warn}, opt)
	if err != nil {
		r.Seconds = time.Since(start).Seconds()
		if verify.IsInvalid(err) || verify.IsLimit(err) {
			return finish(r, err)
		}
		r.unreadable, r.Error = true, fmt.Sprintf("%s: %v", path, err)
		return r
	}
	proof, err := db.Check(claim, opt)
	r.Seconds = time.Since(start).Seconds()
	if err != nil {
		return finish(r, err)
	}
	cert := proof.Certificate("spots-verify", buildinfo.Version())
	cert.Created = time.Now().UTC() // provenance, like the version: outside the address
	r.Entries, r.Address = len(cert.Entries), cert.Address()
	if convert != "" {
		out, err := "", os.MkdirAll(convert, 0o755) // as spots-solve --cert makes its DIR
		if err == nil {
			out, err = format.WriteCertificate(convert, cert, format.WriteOptions{})
		}
		if err != nil {
			r.unreadable, r.Error = true, fmt.Sprintf("--convert: %v", err)
			return r
		}
		if _, err := verify.File(out, opt); err != nil {
			return finish(r, fmt.Errorf("the converted certificate %s does not verify: %w", out, err))
		}
		r.Converted = out
	}
	return finish(r, nil)
}

// readEntries reads the entries of a database for the independent check,
// held to the limit on entries as verify.ReadDatabase holds them.
func readEntries(r io.Reader, opt format.SPROptions, l verify.Limits) ([]format.SPREntry, error) {
	var entries []format.SPREntry
	err := format.NewSPRReader(r, opt).Each(func(e format.SPREntry) error {
		if err := l.CheckEntries(e.Line, len(entries)+1); err != nil {
			return err
		}
		entries = append(entries, e)
		return nil
	})
	return entries, err
}
