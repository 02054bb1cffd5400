//go:build unix

package format

import (
	"os"
	"syscall"
)

// openNoBlock opens path for reading without blocking on a FIFO that has
// no writer (O_NONBLOCK; reads of a regular file are not affected by it).
func openNoBlock(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
