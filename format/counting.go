package format

import "io"

// CountingWriter passes every write on to W and adds to N the bytes W
// accepted, so that whoever writes through it knows how many bytes
// reached W (for a file written from its start, the offset reached)
// without asking W. W's errors are returned as they are. Set W before the
// first write; a CountingWriter is not safe for concurrent use.
type CountingWriter struct {
	W io.Writer // where the bytes go
	N int64     // bytes W has accepted so far
}

// Write writes p to W and counts what W took, even when W fails part way.
func (c *CountingWriter) Write(p []byte) (int, error) {
	n, err := c.W.Write(p)
	c.N += int64(n)
	return n, err
}
