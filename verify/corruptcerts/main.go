// Command corruptcerts makes the corrupt certificates of
// verify/testdata/corrupt from two small certificates of the corpus
// (0*4=W for Sprouts, gn(3x3)=0 for Cram). Each file breaks one thing a
// checker must refuse: the file cut short, a flipped byte, a wrong
// address, a wrong Grundy value, a missing entry, a claim not proved, a
// position not in canonical form, a bad magic or schema, an unknown game.
// The verdict and the rule each one gets are in
// verify/testdata/corrupt/manifest.txt, which verify's
// TestCorruptCertificates checks.
//
// The files are committed: run it again only to add a file or to change
// how one is made, and review the manifest's diff (go test ./verify -run
// TestCorruptCertificates -rewrite rewrites it from what the checker
// says):
//
//	go generate ./verify
//
// It writes every file from its sources alone (the header fields and
// creation time are the source's), so a second run writes the same
// bytes.
package main

import (
	"bytes"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spots-dev/spots/format"
	"github.com/spots-dev/spots/sprouts"
)

// The sources, certificates of the corpus named by their addresses.
const (
	sproutsSource = "5f5dcd7e857208cccc456bcf060c5b4a46e7ea360fa938ef341e4edbaf1e8995" // 0*4=W, 17 entries
	cramSource    = "ce72cdafc85da36ad77c130e3a51538ae4997f971b96b3a348778e719ba8fd7d" // gn(3x3)=0, 2 entries
	// otherAddress is the address of another certificate of the corpus
	// (gn(0*3)=1): the one a misnamed or misdeclared file pretends to be.
	otherAddress = "7fb62f98c91ecc258630477c8685b1ae510d30b02aa34f2967dc12e9728bed5f"
)

// source is a certificate of the corpus, as bytes and as read.
type source struct {
	data []byte
	cert *format.Certificate
}

// fixture is one file to write: its name and how to make its bytes.
type fixture struct {
	name string
	from *source
	make func(s *source) ([]byte, error)
}

func main() {
	corpusDir := flag.String("corpus", "corpus", "the corpus directory (certs/, cram/)")
	out := flag.String("out", filepath.Join("verify", "testdata", "corrupt"), "the directory to write the files into")
	flag.Parse()
	if err := run(*corpusDir, *out); err != nil {
		fmt.Fprintln(os.Stderr, "corruptcerts:", err)
		os.Exit(1)
	}
}

func run(corpusDir, out string) error {
	sp, err := load(filepath.Join(corpusDir, "certs", sproutsSource+".arrow"))
	if err != nil {
		return err
	}
	cr, err := load(filepath.Join(corpusDir, "cram", cramSource+".arrow"))
	if err != nil {
		return err
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	for _, f := range fixtures(sp, cr) {
		data, err := f.make(f.from)
		if err != nil {
			return fmt.Errorf("%s: %w", f.name, err)
		}
		if err := format.WriteFileAtomic(filepath.Join(out, f.name), func(w io.Writer) error {
			_, err := w.Write(data)
			return err
		}); err != nil {
			return err
		}
		fmt.Printf("%s\t%d bytes\n", f.name, len(data))
	}
	return nil
}

func load(path string) (*source, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	c, err := format.ReadCertificate(path)
	if err != nil {
		return nil, err
	}
	return &source{data, c}, nil
}

func fixtures(sp, cr *source) []fixture {
	return []fixture{
		{"original.arrow", sp, func(s *source) ([]byte, error) { return s.data, nil }},
		// A file named by another certificate's address.
		{otherAddress + ".arrow", sp, func(s *source) ([]byte, error) { return s.data, nil }},
		{"truncated.arrow", sp, func(s *source) ([]byte, error) { return s.data[:len(s.data)/2], nil }},
		{"bad-magic.arrow", sp, func(s *source) ([]byte, error) {
			// The leading magic only: the trailing one says the file
			// means to be a certificate.
			return replaceAll(s.data, "ARROW1\x00\x00", "ARROW0\x00\x00", 1)
		}},
		{"bad-schema.arrow", sp, func(s *source) ([]byte, error) {
			// The column grundy renamed, in the schema and in the
			// footer's copy of it.
			return replaceAll(s.data, "grundy", "grunty", 2)
		}},
		{"declared-address.arrow", sp, func(s *source) ([]byte, error) {
			return replaceAll(s.data, s.cert.Address(), otherAddress, 2)
		}},
		{"flipped-offset.arrow", sp, flipOffset},
		{"flipped-text.arrow", sp, flipText},
		{"wrong-grundy.arrow", sp, logical(func(c *format.Certificate) error {
			// 0.2 has the value 1: a child of value 0 (child 0) and none
			// of value 1. Claimed 2, with child 0 named for both.
			e, err := entry(c, "0.2")
			if err != nil {
				return err
			}
			e.Grundy, e.Reach = 2, []uint32{e.Reach[0], e.Reach[0]}
			return nil
		})},
		{"missing-entry.arrow", sp, logical(func(c *format.Certificate) error {
			return drop(c, "0")
		})},
		{"claim-not-proved.arrow", sp, logical(func(c *format.Certificate) error {
			if c.Claim.Kind != format.ClaimWin {
				return errors.New("the source does not claim a win")
			}
			c.Claim.Kind = format.ClaimLoss
			return nil
		})},
		{"not-canonical.arrow", sp, logical(func(c *format.Certificate) error {
			// 2.0 is 0.2 with its boundaries in the other order: the
			// same position, not in canonical form.
			e, err := entry(c, "0.2")
			if err != nil {
				return err
			}
			p, err := sprouts.Parse("2.0")
			if err != nil || p.String() != e.Position {
				return fmt.Errorf("2.0 is not a writing of %s (%v)", e.Position, err)
			}
			e.Position = "2.0"
			return nil
		})},
		{"out-of-order.arrow", sp, logical(func(c *format.Certificate) error {
			i := slices.IndexFunc(c.Entries, func(e format.Entry) bool { return e.Position == "12" })
			if i < 1 || c.Entries[i-1].Position != "0" {
				return errors.New("no row 12 after a row 0")
			}
			c.Entries[i-1], c.Entries[i] = c.Entries[i], c.Entries[i-1]
			return nil
		})},
		{"wrong-reach-hint.arrow", sp, logical(wrongReachHint)},
		{"unknown-game.arrow", sp, logical(func(c *format.Certificate) error {
			c.Game = "go"
			return nil
		})},
		{"cram-wrong-grundy.arrow", cr, logical(func(c *format.Certificate) error {
			// 3x3 has the value 0; claimed 1, with child 0 named for the
			// value 0.
			e, err := entry(c, "3x3")
			if err != nil {
				return err
			}
			e.Grundy, e.Reach = 1, []uint32{0}
			return nil
		})},
	}
}

// replaceAll replaces old with new (of the same length, so that every
// offset of the file holds) where it occurs, and fails unless it occurs n
// times.
func replaceAll(data []byte, old, new string, n int) ([]byte, error) {
	if len(old) != len(new) {
		return nil, fmt.Errorf("%q and %q differ in length", old, new)
	}
	if k := bytes.Count(data, []byte(old)); k != n {
		return nil, fmt.Errorf("%q occurs %d times, want %d", old, k, n)
	}
	return bytes.ReplaceAll(data, []byte(old), []byte(new)), nil
}

// flipOffset flips a bit of the start offset of row 1's position in the
// body of the record batch (the position column's offsets, which the zstd
// frame of so small a buffer holds as they are): row 1's text then starts
// after it ends.
func flipOffset(s *source) ([]byte, error) {
	var offsets []byte
	end := int32(0)
	offsets = binary.LittleEndian.AppendUint32(offsets, 0)
	for _, e := range s.cert.Entries {
		end += int32(len(e.Position))
		offsets = binary.LittleEndian.AppendUint32(offsets, uint32(end))
	}
	return flipIn(s.data, offsets, 0, 0x40)
}

// flipText flips a bit of the position text of row 6 (0.2) in the body of
// the record batch, where the zstd frame holds the column's text as it
// is: '.' becomes '>'.
func flipText(s *source) ([]byte, error) {
	var text strings.Builder
	at := -1
	for _, e := range s.cert.Entries {
		if e.Position == "0.2" {
			at = text.Len() + 1
		}
		text.WriteString(e.Position)
	}
	if at < 0 {
		return nil, errors.New("no row 0.2")
	}
	return flipIn(s.data, []byte(text.String()), at, 0x10)
}

// flipIn flips the bits mask of the byte at of the one occurrence of
// within in data.
func flipIn(data, within []byte, at int, mask byte) ([]byte, error) {
	if k := bytes.Count(data, within); k != 1 {
		return nil, fmt.Errorf("the bytes to flip occur %d times in the file, want 1", k)
	}
	d := slices.Clone(data)
	d[bytes.Index(d, within)+at] ^= mask
	return d, nil
}

// logical makes a fixture by changing the source's certificate with
// change and writing it again with package format: a well-formed file
// with the right content address, whose logic is wrong.
func logical(change func(c *format.Certificate) error) func(s *source) ([]byte, error) {
	return func(s *source) ([]byte, error) {
		c := *s.cert
		c.Entries = make([]format.Entry, len(s.cert.Entries))
		for i, e := range s.cert.Entries {
			e.Reach, e.Win = slices.Clone(e.Reach), slices.Clone(e.Win)
			c.Entries[i] = e
		}
		if err := change(&c); err != nil {
			return nil, err
		}
		if c.Address() == s.cert.Address() {
			return nil, errors.New("the change leaves the content as it was")
		}
		var b bytes.Buffer
		if err := format.EncodeCertificate(&b, &c, format.WriteOptions{}); err != nil {
			return nil, err
		}
		return b.Bytes(), nil
	}
}

// wrongReachHint points the first reach hint that can be pointed wrong
// (in row order, then value order) at the first child that does not have
// the value it must show: a child whose lands are not all entries, or
// whose entries' values xor to another value. The values stay right.
func wrongReachHint(c *format.Certificate) error {
	values := map[string]uint32{}
	for _, e := range c.Entries {
		values[e.Position] = e.Grundy
	}
	valueOf := func(p sprouts.Position) (uint32, bool) {
		x := uint32(0)
		for _, land := range p.Lands() {
			g, ok := values[land.String()]
			if !ok {
				return 0, false
			}
			x ^= g
		}
		return x, true
	}
	for i := range c.Entries {
		e := &c.Entries[i]
		kids := sprouts.MustParse(e.Position).Children()
		for m := range e.Reach {
			for k, kid := range kids {
				if x, ok := valueOf(kid); uint32(k) != e.Reach[m] && (!ok || x != uint32(m)) {
					e.Reach[m] = uint32(k)
					return nil
				}
			}
		}
	}
	return errors.New("no reach hint can be pointed at a child that does not prove it")
}

// entry returns the entry of c for the position text pos.
func entry(c *format.Certificate, pos string) (*format.Entry, error) {
	i := slices.IndexFunc(c.Entries, func(e format.Entry) bool { return e.Position == pos })
	if i < 0 {
		return nil, fmt.Errorf("no entry %s", pos)
	}
	return &c.Entries[i], nil
}

// drop removes the entry of c for pos.
func drop(c *format.Certificate, pos string) error {
	i := slices.IndexFunc(c.Entries, func(e format.Entry) bool { return e.Position == pos })
	if i < 0 {
		return fmt.Errorf("no entry %s", pos)
	}
	c.Entries = slices.Delete(c.Entries, i, i+1)
	return nil
}
