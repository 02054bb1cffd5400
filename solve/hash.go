package solve

import (
	"encoding/binary"
	"math/bits"
	"unsafe"
)

// hashKey hashes a couple for the transposition table. It is fixed (no
// random seed) so that a search, and the certificate it leads to, are the
// same from run to run: which entries a full bucket gives up depends on
// where keys land.
func hashKey(key string, n uint32) uint64 {
	b := unsafe.Slice(unsafe.StringData(key), len(key))
	h := uint64(len(key))*0x9E3779B97F4A7C15 ^ uint64(n)*0xC2B2AE3D27D4EB4F
	for len(b) >= 8 {
		h = mix64(h ^ binary.LittleEndian.Uint64(b))
		b = b[8:]
	}
	var tail uint64
	for i, c := range b {
		tail |= uint64(c) << (8 * i)
	}
	return mix64(h ^ tail ^ 0x165667B19E3779F9)
}

// fingerprint returns two independent 64-bit hashes of a couple, the
// first of which is hashKey's: the transposition table's bucket and its
// identity of the couple.
func fingerprint(key string, n uint32) [2]uint64 {
	b := unsafe.Slice(unsafe.StringData(key), len(key))
	h1 := uint64(len(key))*0x9E3779B97F4A7C15 ^ uint64(n)*0xC2B2AE3D27D4EB4F
	h2 := uint64(len(key))*0xD6E8FEB86659FD93 ^ uint64(n)*0x94D049BB133111EB ^ 0x2545F4914F6CDD1D
	for len(b) >= 8 {
		w := binary.LittleEndian.Uint64(b)
		h1 = mix64(h1 ^ w)
		h2 = mix64b(h2 ^ w)
		b = b[8:]
	}
	var tail uint64
	for i, c := range b {
		tail |= uint64(c) << (8 * i)
	}
	return [2]uint64{mix64(h1 ^ tail ^ 0x165667B19E3779F9), mix64b(h2 ^ tail ^ 0x27D4EB2F165667C5)}
}

func mix64b(x uint64) uint64 {
	hi, lo := bits.Mul64(x, 0xBF58476D1CE4E5B9)
	return (hi ^ lo) + 0x9E3779B97F4A7C15
}

func mix64(x uint64) uint64 {
	hi, lo := bits.Mul64(x, 0x9FB21C651E98DF25)
	return hi ^ lo
}
