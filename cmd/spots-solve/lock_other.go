//go:build !unix

package main

// lockStateDir does nothing where flock is missing: two processes using
// one state directory at the same time must then be avoided by hand.
func lockStateDir(flag, dir string) error { return nil }
