"""BLAKE3-256 in Python's standard library alone, for the readers beside it.

The content address of a spots certificate is the BLAKE3 hash of bytes
the readers build (docs/certificate-format.md). Python has no BLAKE3 of
its own, and Debian packages none for it; this is the hash as its
specification gives it (https://github.com/BLAKE3-team/BLAKE3-specs),
unkeyed, 32 bytes of output: slow (about a megabyte a second), exact.
hex_digest uses the blake3 package instead where it is installed.
"""

IV = (0x6A09E667, 0xBB67AE85, 0x3C6EF372, 0xA54FF53A, 0x510E527F, 0x9B05688C, 0x1F83D9AB, 0x5BE0CD19)
PERMUTATION = (2, 6, 3, 10, 7, 0, 4, 13, 1, 11, 12, 5, 9, 14, 15, 8)
CHUNK_START, CHUNK_END, PARENT, ROOT = 1, 2, 4, 8
BLOCK_LEN, CHUNK_LEN = 64, 1024
MASK = 0xFFFFFFFF


def _g(s, a, b, c, d, x, y):
    s[a] = (s[a] + s[b] + x) & MASK
    t = s[d] ^ s[a]
    s[d] = (t >> 16) | (t << 16) & MASK
    s[c] = (s[c] + s[d]) & MASK
    t = s[b] ^ s[c]
    s[b] = (t >> 12) | (t << 20) & MASK
    s[a] = (s[a] + s[b] + y) & MASK
    t = s[d] ^ s[a]
    s[d] = (t >> 8) | (t << 24) & MASK
    s[c] = (s[c] + s[d]) & MASK
    t = s[b] ^ s[c]
    s[b] = (t >> 7) | (t << 25) & MASK


def _compress(cv, block, counter, block_len, flags):
    """The compression function: the 8 words of the new chaining value."""
    m = [int.from_bytes(block[4 * i:4 * i + 4], "little") for i in range(16)]
    s = list(cv) + list(IV[:4]) + [counter & MASK, (counter >> 32) & MASK, block_len, flags]
    for r in range(7):
        _g(s, 0, 4, 8, 12, m[0], m[1])
        _g(s, 1, 5, 9, 13, m[2], m[3])
        _g(s, 2, 6, 10, 14, m[4], m[5])
        _g(s, 3, 7, 11, 15, m[6], m[7])
        _g(s, 0, 5, 10, 15, m[8], m[9])
        _g(s, 1, 6, 11, 12, m[10], m[11])
        _g(s, 2, 7, 8, 13, m[12], m[13])
        _g(s, 3, 4, 9, 14, m[14], m[15])
        if r < 6:
            m = [m[i] for i in PERMUTATION]
    return [s[i] ^ s[i + 8] for i in range(8)]


def _chunk_cv(chunk, index, root):
    """The chaining value of one chunk (at most 1024 bytes) of the input."""
    cv = IV
    blocks = [chunk[i:i + BLOCK_LEN] for i in range(0, len(chunk), BLOCK_LEN)] or [b""]
    for k, block in enumerate(blocks):
        flags = (CHUNK_START if k == 0 else 0) | (CHUNK_END if k == len(blocks) - 1 else 0)
        if root and k == len(blocks) - 1:
            flags |= ROOT
        cv = _compress(cv, block.ljust(BLOCK_LEN, b"\0"), index, len(block), flags)
    return cv


def _words(cv):
    return b"".join(w.to_bytes(4, "little") for w in cv)


def _subtree(cvs, root):
    """The chaining value of the subtree over the chunk values cvs: its
    left part the largest power of two of them short of all."""
    if len(cvs) == 1:
        return cvs[0]
    split = 1 << ((len(cvs) - 1).bit_length() - 1)
    block = _words(_subtree(cvs[:split], False)) + _words(_subtree(cvs[split:], False))
    return _compress(IV, block, 0, BLOCK_LEN, PARENT | (ROOT if root else 0))


def blake3_hex(data):
    """The BLAKE3-256 hash of data (bytes), in hexadecimal."""
    data = bytes(data)
    if len(data) <= CHUNK_LEN:
        return _words(_chunk_cv(data, 0, True)).hex()
    cvs = [_chunk_cv(data[i:i + CHUNK_LEN], i // CHUNK_LEN, False) for i in range(0, len(data), CHUNK_LEN)]
    return _words(_subtree(cvs, True)).hex()


def hex_digest(data):
    """The BLAKE3-256 hash of data in hexadecimal: from the blake3 package
    where it is installed (fast), from blake3_hex otherwise."""
    try:
        import blake3
    except ImportError:
        return blake3_hex(data)
    return blake3.blake3(bytes(data)).hexdigest()


if __name__ == "__main__":
    import sys

    print(blake3_hex(sys.stdin.buffer.read()))
