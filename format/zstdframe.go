package format

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/klauspost/compress/zstd"
)

// MaxZstdWindow bounds the window of every zstd frame the readers of this
// package decompress: a certificate's compressed buffers (and, through
// NewZstdReader, a checkpoint's files). The decoder keeps a window's worth
// of history, so a frame may make it allocate that much whatever the
// frame's size: by default klauspost/compress accepts 512 MiB, and a
// certificate of a few kilobytes declaring such a window made spots-verify
// take 1.3 GB. 8 MiB is the window of every encoder spots uses
// (klauspost/compress's default, and the zstd library's at levels up to
// 19); a frame that declares more is refused as corrupt.
const MaxZstdWindow = 8 << 20

// NewZstdReader returns a zstd decoder of r whose window is bounded by
// MaxZstdWindow (a frame declaring more is an error) and which decodes on
// the calling goroutine: its memory is about twice the window, whatever r
// holds. The caller must Close it.
func NewZstdReader(r io.Reader) (*zstd.Decoder, error) {
	return zstd.NewReader(r, zstd.WithDecoderMaxWindow(MaxZstdWindow), zstd.WithDecoderMaxMemory(MaxZstdWindow),
		zstd.WithDecoderConcurrency(1), zstd.WithDecoderLowmem(true))
}

// The flatbuffer slots of body compression.
const (
	fbRecordCompression = 3 // RecordBatch slots: length 0, nodes 1, buffers 2, compression 3
	fbCompressionCodec  = 0 // BodyCompression slots: codec 0, method 1
	fbCodecZstd         = 1 // CompressionType: LZ4_FRAME 0, ZSTD 1
)

// checkZstdBody checks, before Arrow decompresses them, the zstd frames of
// the compressed buffers of a record batch message (meta, accepted by
// checkIPCMessage) whose body is the bytes [body, body+bodyLen) of r: every
// frame must declare a window of at most MaxZstdWindow (Arrow's decoder
// cannot be given that bound) and its blocks must fit the buffer. A body
// that is not zstd-compressed is left alone.
func checkZstdBody(r io.ReaderAt, meta []byte, body, bodyLen int64) error {
	msg, err := fbRoot(meta)
	if err != nil {
		return err
	}
	if typ, err := msg.u8(fbMessageType); err != nil || typ != fbHeaderRecord {
		return err
	}
	rb, err := msg.table(fbMessageHeader, "record batch header")
	if err != nil || !rb.has(fbRecordCompression) {
		return err
	}
	comp, err := rb.table(fbRecordCompression, "body compression")
	if err != nil {
		return err
	}
	if codec, err := comp.u8(fbCompressionCodec); err != nil || codec != fbCodecZstd {
		return err
	}
	start, n, err := rb.vector(fbRecordBuffers, fbBufferBytes, "buffers")
	if err != nil {
		return err
	}
	for k := range n {
		q := start + fbBufferBytes*k
		off := int64(binary.LittleEndian.Uint64(rb.buf[q:]))
		size := int64(binary.LittleEndian.Uint64(rb.buf[q+8:]))
		if size < 8 || off < 0 || off > bodyLen || size > bodyLen-off {
			continue // empty, or refused by checkIPCMessage
		}
		var prefix [8]byte // the uncompressed length, -1 for a buffer left uncompressed
		if err := readAt(r, prefix[:], body+off); err != nil {
			return err
		}
		if int64(binary.LittleEndian.Uint64(prefix[:])) == -1 {
			continue
		}
		if err := checkZstdFrames(io.NewSectionReader(r, body+off+8, size-8)); err != nil {
			return fmt.Errorf("buffer %d: %w", k, err)
		}
	}
	return nil
}

// maxZstdBlock is the largest block of a zstd frame.
const maxZstdBlock = 128 << 10

// checkZstdFrames walks the zstd frames of a buffer, its frame and block
// headers only, and refuses a window over MaxZstdWindow, a block larger
// than its frame allows (the window, at most 128 KiB) or a block that does
// not fit the buffer. Its memory is a fixed buffer.
func checkZstdFrames(sr *io.SectionReader) error {
	br := bufio.NewReaderSize(sr, 32<<10)
	left := sr.Size()
	skip := func(n int64) error {
		if n > left {
			return errors.New("a zstd block runs past the end of its buffer")
		}
		left -= n
		_, err := br.Discard(int(n))
		return err
	}
	for frame := 1; left > 0; frame++ {
		head, _ := br.Peek(int(min(left, zstd.HeaderMaxSize)))
		var h zstd.Header
		if _, err := h.DecodeAndStrip(head); err != nil {
			return fmt.Errorf("zstd frame %d: %v", frame, err)
		}
		if err := skip(int64(h.HeaderSize)); err != nil {
			return err
		}
		if h.Skippable {
			if err := skip(int64(h.SkippableSize)); err != nil {
				return err
			}
			continue
		}
		window := h.WindowSize
		if h.SingleSegment {
			window = h.FrameContentSize
		}
		if window > MaxZstdWindow {
			return fmt.Errorf("zstd frame %d declares a window of %d bytes, over the limit of %d", frame, window, MaxZstdWindow)
		}
		maxBlock := int64(min(max(window, zstd.MinWindowSize), maxZstdBlock)) // the format's Block_Maximum_Size
		for last := false; !last; {
			var bh [3]byte
			if left < 3 {
				return errors.New("a zstd frame is cut short")
			}
			if _, err := io.ReadFull(br, bh[:]); err != nil {
				return err
			}
			left -= 3
			v := uint32(bh[0]) | uint32(bh[1])<<8 | uint32(bh[2])<<16
			last = v&1 != 0
			size := int64(v >> 3)
			if size > maxBlock {
				return fmt.Errorf("zstd frame %d has a block of %d bytes, over its largest, %d", frame, size, maxBlock)
			}
			switch (v >> 1) & 3 {
			case 1: // RLE: one byte, repeated
				size = 1
			case 3:
				return errors.New("a zstd block of the reserved type")
			}
			if err := skip(size); err != nil {
				return err
			}
		}
		if h.HasCheckSum {
			if err := skip(4); err != nil {
				return err
			}
		}
	}
	return nil
}
