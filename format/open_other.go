//go:build !unix

package format

import "os"

// openNoBlock opens path for reading (this system has no FIFO that blocks
// an open).
func openNoBlock(path string) (*os.File, error) {
	return os.Open(path)
}
