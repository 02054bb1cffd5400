// Package faultcheck holds, in its tests, the evidence that the
// independent check (spots-verify --independent) does not share the bugs
// of package sprouts: with a fault planted in package sprouts (build tag
// spotsfault, see sprouts/fault_on.go), the solver proves something, and
// the independent check rejects the certificate while the default check,
// which shares the faulty rules, often accepts it. Run them with
//
//	go test -tags spotsfault ./internal/faultcheck
//
// (make test does). The package has no code of its own.
package faultcheck
