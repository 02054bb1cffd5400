//go:build !spotsdebug

package solve

// debugChecks turns on the assertions of the appendix identities; build with
// -tags spotsdebug to enable them.
const debugChecks = false

func assert(bool, string) {}
