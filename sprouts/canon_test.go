package sprouts

import (
	"math/rand/v2"
	"testing"
)

// hashRot hashes the rotation of s that starts at k: the definition that
// hash1, hash2 and rotate's hashes compute in unrolled form.
func hashRot(s []uint64, k int) uint64 {
	h := uint64(len(s))
	for _, t := range s[k:] {
		h = (h ^ t) * hashPrime
		h ^= h >> 29
	}
	for _, t := range s[:k] {
		h = (h ^ t) * hashPrime
		h ^= h >> 29
	}
	return mix(h)
}

// TestShortHashes checks hash1 and hash2, the hashes of boundaries of one
// and two corners, against hashRot: a boundary hashes the same whichever
// way its length took.
func TestShortHashes(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	tokens := []uint64{0, 1, 2, tUpper, tUpper | 1, 1 << 40}
	for range 200 {
		tokens = append(tokens, rng.Uint64())
	}
	for _, a := range tokens {
		if got, want := hash1(a), hashRot([]uint64{a}, 0); got != want {
			t.Fatalf("hash1(%#x) = %#x, hashRot %#x", a, got, want)
		}
		for _, b := range tokens[:20] {
			if got, want := hash2(a, b), hashRot([]uint64{a, b}, 0); got != want {
				t.Fatalf("hash2(%#x, %#x) = %#x, hashRot %#x", a, b, got, want)
			}
		}
	}
}
