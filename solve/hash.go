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

func mix64(x uint64) uint64 {
	hi, lo := bits.Mul64(x, 0x9FB21C651E98DF25)
	return hi ^ lo
}
