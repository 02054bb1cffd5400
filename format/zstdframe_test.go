package format

import (
	"bytes"
	"errors"
	"io"
	"slices"
	"strings"
	"testing"
)

// zstdMagic starts every zstd frame.
var zstdMagic = []byte{0x28, 0xB5, 0x2F, 0xFD}

// TestZstdWindowBounded rewrites the window descriptor of every zstd frame
// of a certificate's compressed buffers (Arrow writes them with one, and
// without a content size) to 512 MiB, the decoder's default limit
// (exponent 19: 2^29 bytes). Such a file decodes to the same certificate,
// but a window is what the decoder allocates by: it must be refused as
// corrupt, naming the window, with little allocated.
func TestZstdWindowBounded(t *testing.T) {
	data := encode(t, sampleCert(3), WriteOptions{})
	if _, err := decode(data); err != nil {
		t.Fatalf("the unchanged file: %v", err)
	}
	bad := slices.Clone(data)
	patched := 0
	for i := 0; ; {
		j := bytes.Index(bad[i:], zstdMagic)
		if j < 0 {
			break
		}
		i += j + len(zstdMagic)
		if bad[i]&0x20 == 0 { // not single-segment: a window descriptor follows
			bad[i+1] = 19 << 3
			patched++
		}
	}
	if patched == 0 {
		t.Fatal("no frame to patch")
	}
	var err error
	used := allocated(func() { _, err = decode(bad) })
	if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "window of 536870912 bytes") {
		t.Errorf("%d frames declaring a 512 MiB window: %v, want a corrupt file naming the window", patched, err)
	}
	if used > 8<<20 {
		t.Errorf("%d bytes allocated to refuse a file of %d", used, len(data))
	}
}

// TestZstdFramesCutShort: a frame with a block larger than its window, or
// running past the end of its buffer, or of the reserved block type, is
// refused before Arrow sees it.
func TestZstdFramesCutShort(t *testing.T) {
	data := encode(t, sampleCert(3), WriteOptions{})
	i := bytes.Index(data, zstdMagic)
	if i < 0 {
		t.Fatal("no zstd frame")
	}
	if data[i+len(zstdMagic)]&^0x04 != 0 {
		t.Fatalf("the first frame's descriptor is %#x, want a window and a checksum only", data[i+len(zstdMagic)])
	}
	head := i + len(zstdMagic) + 2 // after the frame and window descriptors
	for _, tc := range []struct {
		name  string
		block [3]byte
		want  string
	}{
		{"block of 2^20 bytes", [3]byte{0x01, 0x00, 0x80}, "has a block of 1048576 bytes, over its largest, 1024"},
		{"block of 1000 bytes", [3]byte{0x41, 0x1F, 0x00}, "past the end of its buffer"},
		{"reserved block", [3]byte{0x07, 0x00, 0x00}, "reserved type"},
	} {
		bad := slices.Clone(data)
		copy(bad[head:], tc.block[:])
		if _, err := decode(bad); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want a corrupt file and %q", tc.name, err, tc.want)
		}
	}
}

// TestZstdReaderWindow: NewZstdReader refuses a frame that declares a
// window over MaxZstdWindow (16 MiB here: exponent 14), and reads one
// within it.
func TestZstdReaderWindow(t *testing.T) {
	frame := func(exponent byte) []byte {
		// No single segment, checksum or content size; one raw last block
		// of one byte.
		return append(slices.Clone(zstdMagic), 0x00, exponent<<3, 0x09, 0x00, 0x00, 'x')
	}
	for _, tc := range []struct {
		exponent byte
		ok       bool
	}{{13, true}, {14, false}, {19, false}} {
		z, err := NewZstdReader(bytes.NewReader(frame(tc.exponent)))
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(z)
		z.Close()
		if tc.ok != (err == nil) || tc.ok && string(got) != "x" {
			t.Errorf("window 2^%d: %q, %v", 10+tc.exponent, got, err)
		}
	}
}

// FuzzZstdFrames: the frame walker never panics, and what it accepts
// declares no window over MaxZstdWindow (the decoder, given the same
// bound, never refuses a frame for its window).
func FuzzZstdFrames(f *testing.F) {
	f.Add(append(slices.Clone(zstdMagic), 0x00, 13<<3, 0x09, 0x00, 0x00, 'x'))
	f.Add(append(slices.Clone(zstdMagic), 0x00, 19<<3, 0x09, 0x00, 0x00, 'x'))
	f.Add([]byte{0x50, 0x2A, 0x4D, 0x18, 0x01, 0x00, 0x00, 0x00, 0xff})
	f.Fuzz(func(t *testing.T, data []byte) {
		if checkZstdFrames(io.NewSectionReader(bytes.NewReader(data), 0, int64(len(data)))) != nil {
			return
		}
		z, err := NewZstdReader(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		defer z.Close()
		if _, err := io.Copy(io.Discard, io.LimitReader(z, 1<<24)); err != nil && strings.Contains(err.Error(), "window size exceeded") {
			t.Errorf("accepted, but the decoder refuses its window: %v", err)
		}
	})
}
