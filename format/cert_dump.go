package format

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"time"
)

// The rows of a certificate as JSON lines, for readers without Arrow
// (spots-verify --dump writes them; docs/readers/dump_address.py reads
// them and recomputes the content address with b3sum alone). The first
// line is a DumpHeader, each further line a DumpEntry, in file order;
// together they hold everything the content address hashes.

// DumpHeader is the first line of a dump: the certificate's metadata.
type DumpHeader struct {
	Format   string   `json:"format"`          // spots.format: FormatVersion, or FormatCiting with cites
	Cites    []string `json:"cites,omitempty"` // spots.cites: the addresses of the certificates cited (FormatCiting only)
	Game     string   `json:"game"`            // spots.game
	Notation string   `json:"notation"`        // spots.notation
	Claim    string   `json:"claim"`           // spots.claim, in its text form
	Address  string   `json:"address"`         // the content address, recomputed from the rows and equal to spots.address
	Entries  int      `json:"entries"`         // the number of DumpEntry lines that follow
	Producer string   `json:"producer"`        // provenance, outside the address
	Version  string   `json:"version"`
	Created  string   `json:"created"` // RFC 3339, UTC
}

// DumpEntry is one entry of a dump: a row of the certificate.
type DumpEntry struct {
	Row      int      `json:"row"` // from 1, in file order
	Position string   `json:"position"`
	Grundy   uint32   `json:"grundy"`
	Reach    []uint32 `json:"reach"`
	Win      []int32  `json:"win"`
}

// Dump writes the certificate that r reads, from its first row, as JSON
// lines (see DumpHeader). The header line gives the address the file
// declares; after the last row Dump checks that the rows hash to it, and
// to want unless want is "" (the address a check of the same file found:
// a file changed since is caught). A dump that ends without an error is
// therefore the certificate of that address, row for row; after an
// error, what was written stays written.
func Dump(w io.Writer, r *CertReader, want string) error {
	h := r.Header()
	bw := bufio.NewWriterSize(w, 64<<10)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	head := DumpHeader{Format: h.Format(), Cites: h.Cites, Game: h.Game, Notation: h.Notation, Claim: h.Claim.String(),
		Address: r.DeclaredAddress(), Entries: int(r.entries), Producer: h.Producer, Version: h.Version,
		Created: h.Created.UTC().Format(time.RFC3339Nano)}
	if err := enc.Encode(head); err != nil {
		return err
	}
	for {
		e, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			bw.Flush()
			return err
		}
		d := DumpEntry{Row: r.Row(), Position: e.Position, Grundy: e.Grundy, Reach: e.Reach, Win: e.Win}
		if d.Reach == nil {
			d.Reach = []uint32{}
		}
		if d.Win == nil {
			d.Win = []int32{}
		}
		if err := enc.Encode(d); err != nil {
			return err
		}
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	addr, err := r.Address()
	switch {
	case err != nil:
		return err
	case addr != r.DeclaredAddress():
		return corrupt("the rows hash to %s, the metadata says %s", addr, r.DeclaredAddress())
	case want != "" && addr != want:
		return fmt.Errorf("the file changed since it was checked: its rows hash to %s, the check found %s", addr, want)
	}
	return nil
}
