package format

import (
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"time"

	"github.com/zeebo/blake3"
)

// FormatVersion names the certificate format of a certificate that cites
// no other: version 1, which every certificate made before citations
// existed has, so that their files and addresses stay as they are. It is
// the first thing hashed into a content address and the value of the
// "spots.format" metadata key.
const FormatVersion = "spots-certificate/1"

// FormatCiting names the format of a certificate that cites others
// (Certificate.Cites): version 2, which adds the "spots.cites" metadata
// key and hashes the citations into the content address. A writer uses
// it exactly when there are citations, so a certificate has one spelling
// and one address.
const FormatCiting = "spots-certificate/2"

// MaxCites is the most certificates one certificate may cite: the
// addresses, 65 bytes each with their separator, fill at most one
// metadata value.
const MaxCites = 1000

// Format returns the format version c is written in: FormatCiting when it
// cites others, FormatVersion otherwise.
func (c *Certificate) Format() string {
	if len(c.Cites) > 0 {
		return FormatCiting
	}
	return FormatVersion
}

// Limits of a certificate entry. Readers refuse larger lists or positions as
// corrupt; writers refuse to write them.
const (
	MaxReach         = 1 << 16 // longest Entry.Reach, so also the largest Grundy value
	MaxWin           = 1 << 20 // longest Entry.Win: the most children a position may have
	MaxPositionBytes = 1 << 16 // longest Entry.Position, in bytes
)

// MaxBatchBytes bounds the decoded size of one record batch of a
// certificate file. WriteCertificate cuts batches so that their column
// buffers stay under it; a reader refuses a batch whose decoding would
// hold more than twice this much memory (its compressed body and its
// decoded buffers together), so a hostile file cannot make it allocate
// without bound. A single entry always fits: see MaxReach, MaxWin and
// MaxPositionBytes.
const MaxBatchBytes = 32 << 20

// Entry says gn(Position) = Grundy for an atomic position, with the hints a
// checker needs so that it never searches.
type Entry struct {
	Position string   // canonical text of an atomic position
	Grundy   uint32   // the Grundy value of Position
	Reach    []uint32 // len == Grundy; Reach[m] is the index (in the game's child order) of a child whose value is m
	Win      []int32  // one per child of Position, in the game's child order: -1 means "the child's components are all entries and their xor differs from Grundy"; a reply (see WinReply) means "this move in one component of the child reaches a position whose components are all entries with xor == Grundy"
}

// WinShift places the component of a winning reply in a Win hint: the hint
// is component<<WinShift | move, naming move number `move` (in the game's
// child order) of component number `component` (in the game's order of
// components) of the child. Naming the component lets a checker generate
// the moves of that component alone.
const WinShift = 20

// WinReply returns the Win hint for move number move of component number
// component, and false if either is out of range for the hint.
func WinReply(component, move int) (int32, bool) {
	if component < 0 || move < 0 || move >= 1<<WinShift || component >= 1<<(31-WinShift) {
		return 0, false
	}
	return int32(component<<WinShift | move), true
}

// SplitWin returns the component and move a Win hint w >= 0 names.
func SplitWin(w int32) (component, move int) {
	return int(w >> WinShift), int(w & (1<<WinShift - 1))
}

// A Certificate proves its Claim: every entry is justified by the entries
// before it and the rules of the game, and the claim follows from the
// entries. This package only stores it; checking is the verifier's job.
type Certificate struct {
	Claim Claim
	// Cites are the content addresses of the certificates whose entries
	// this one relies on without repeating them, in increasing order, each
	// once. A checker takes the entries of each cited certificate as
	// earlier rows once it has checked that certificate (and what it
	// cites). Empty for a self-contained certificate.
	Cites    []string
	Entries  []Entry   // in file order (the producer sorts them; checkers enforce the order)
	Game     string    // "sprouts"
	Notation string    // e.g. "spots-canonical/1": the version of the canonical form and child order the indices refer to
	Producer string    // e.g. "spots-solve"
	Version  string    // producer version
	Created  time.Time // not part of the content address
}

// Address returns the content address of c: the lowercase hexadecimal
// BLAKE3-256 hash of its logical content (docs/certificate-format.md has a
// worked example). It depends on FormatVersion,
// Game, Notation, Claim and Entries only: not on the Arrow encoding, the
// compression, the batch size, Producer, Version or Created.
//
// The hashed bytes are, in this order:
//
//	str(FormatVersion) str(Game) str(Notation) str(Claim.String())
//	uvarint(len(Entries))
//	then for each entry, in order:
//	    str(Position) uvarint(Grundy)
//	    uvarint(len(Reach)) uvarint(Reach[0]) … uvarint(Reach[len-1])
//	    uvarint(len(Win))   varint(Win[0])   … varint(Win[len-1])
//
// where uvarint(x) is the unsigned LEB128 encoding of x (7 bits a byte,
// least significant group first, high bit set on every byte but the last:
// Go's binary.AppendUvarint), varint(x) is uvarint of the zigzag encoding
// of x ((x << 1) ^ (x >> 63) on 64 bits: Go's binary.AppendVarint), and
// str(s) is uvarint(len(s)) followed by the bytes of s. For example the
// empty certificate of the claim "!=L" for game "g" and notation "n"
// hashes the 29 bytes
//
//	13 "spots-certificate/1" 01 "g" 01 "n" 03 "!=L" 00
//
// (lengths in hexadecimal), and its address is
//
//	2de01a61b9bfda12f51a8df8f4a57a2c3cf1ab9dc40d9bfdfaa69829a78e5e6c
func (c *Certificate) Address() string {
	a := newAddresser(c.Game, c.Notation, c.Claim, c.Cites, uint64(len(c.Entries)))
	for i := range c.Entries {
		a.entry(&c.Entries[i])
	}
	return a.sum()
}

// addresser computes a content address incrementally, so that a reader
// can hash entries as it streams them.
type addresser struct {
	h   *blake3.Hasher
	buf []byte
}

func newAddresser(game, notation string, claim Claim, cites []string, entries uint64) *addresser {
	a := &addresser{h: blake3.New()}
	if len(cites) == 0 {
		a.str(FormatVersion)
	} else {
		a.str(FormatCiting)
	}
	a.str(game)
	a.str(notation)
	a.str(claim.String())
	if len(cites) > 0 {
		a.buf = binary.AppendUvarint(a.buf, uint64(len(cites)))
		for _, c := range cites {
			a.str(c)
		}
	}
	a.buf = binary.AppendUvarint(a.buf, entries)
	a.flush()
	return a
}

func (a *addresser) str(s string) {
	a.buf = binary.AppendUvarint(a.buf, uint64(len(s)))
	a.buf = append(a.buf, s...)
	a.flush()
}

func (a *addresser) entry(e *Entry) {
	a.str(e.Position)
	a.buf = binary.AppendUvarint(a.buf, uint64(e.Grundy))
	a.buf = binary.AppendUvarint(a.buf, uint64(len(e.Reach)))
	for _, r := range e.Reach {
		a.buf = binary.AppendUvarint(a.buf, uint64(r))
	}
	a.buf = binary.AppendUvarint(a.buf, uint64(len(e.Win)))
	for _, w := range e.Win {
		a.buf = binary.AppendVarint(a.buf, int64(w))
	}
	a.flush()
}

func (a *addresser) flush() {
	a.h.Write(a.buf) // a blake3.Hasher never fails
	a.buf = a.buf[:0]
}

func (a *addresser) sum() string {
	return hex.EncodeToString(a.h.Sum(nil))
}

// IsAddress reports whether s is written as a content address: 64
// lowercase hexadecimal digits (what Certificate.Address returns and
// certificate files are named by).
func IsAddress(s string) bool {
	if len(s) != 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !('0' <= s[i] && s[i] <= '9' || 'a' <= s[i] && s[i] <= 'f') {
			return false
		}
	}
	return true
}

// checkHeader returns why the fields of c other than Entries cannot be
// written to (or were not read from) a certificate file, or nil.
func checkHeader(c *Certificate) error {
	if err := c.Claim.check(); err != nil {
		return err
	}
	if err := checkCites(c.Cites); err != nil {
		return err
	}
	if n := len(c.Claim.String()); n > maxHeaderText {
		return fmt.Errorf("claim of %d bytes is longer than %d", n, maxHeaderText)
	}
	fields := []struct {
		name, value string
		token       bool
	}{
		{"game", c.Game, true},
		{"notation", c.Notation, true},
		{"producer", c.Producer, false},
		{"version", c.Version, false},
	}
	for _, f := range fields {
		reason := checkText(f.value)
		if len(f.value) > maxHeaderText {
			reason = fmt.Sprintf("is longer than %d bytes", maxHeaderText)
		} else if f.token {
			reason = checkToken(f.value)
		}
		if reason != "" {
			return fmt.Errorf("%s %q %s", f.name, cutString(f.value), reason)
		}
	}
	return nil
}

// checkEntry returns why e cannot be an entry of a certificate file, or
// "". It checks the shape only, never the game.
func checkEntry(e *Entry) string {
	switch {
	case len(e.Position) > MaxPositionBytes:
		return fmt.Sprintf("position of %d bytes is longer than %d", len(e.Position), MaxPositionBytes)
	case len(e.Reach) > MaxReach:
		return fmt.Sprintf("reach has %d values, more than %d", len(e.Reach), MaxReach)
	case uint64(len(e.Reach)) != uint64(e.Grundy):
		return fmt.Sprintf("reach has %d values, want one per value below the Grundy value %d", len(e.Reach), e.Grundy)
	case len(e.Win) > MaxWin:
		return fmt.Sprintf("win has %d values, more than %d", len(e.Win), MaxWin)
	}
	if reason := checkToken(e.Position); reason != "" {
		return fmt.Sprintf("position %q %s", cutString(e.Position), reason)
	}
	for i, w := range e.Win {
		if w < -1 {
			return fmt.Sprintf("win[%d] is %d: want -1 or a child number", i, w)
		}
	}
	return ""
}

// checkCites returns why cites cannot be the citations of a certificate:
// more than MaxCites, one that is not written as an address, or not in
// strictly increasing order (so each once).
func checkCites(cites []string) error {
	if len(cites) > MaxCites {
		return fmt.Errorf("cites %d certificates, more than %d", len(cites), MaxCites)
	}
	for i, a := range cites {
		if !IsAddress(a) {
			return fmt.Errorf("citation %d %q is not a content address (64 lowercase hexadecimal digits)", i+1, cutString(a))
		}
		if i > 0 && a <= cites[i-1] {
			return fmt.Errorf("citation %d %s is not after %s: citations are sorted, each once", i+1, a, cites[i-1])
		}
	}
	return nil
}
