// Package verifytest holds test helpers built on package verify. It lives
// apart from verify so that programs linking the checker do not link
// package testing.
package verifytest

import (
	"testing"

	"github.com/spots-dev/spots/verify"
)

// Certificate fails t unless the certificate file at path verifies (with
// verify.File and default options), and returns what was checked. Tests
// use it to assert that what they wrote is a valid proof.
func Certificate(t testing.TB, path string) verify.Result {
	t.Helper()
	res, err := verify.File(path, verify.Options{})
	if err != nil {
		t.Fatalf("certificate %s: %v", path, err)
	}
	return res
}
