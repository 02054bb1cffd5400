package verify

import "testing"

// TestCertificate fails t unless the certificate at path verifies. Other
// packages' tests use it to assert that what they wrote is a valid proof.
func TestCertificate(t testing.TB, path string) Result {
	t.Helper()
	res, err := File(path, Options{})
	if err != nil {
		t.Fatalf("certificate %s: %v", path, err)
	}
	return res
}
