#!/usr/bin/env python3
"""Read a spots proof certificate and recompute its content address.

    python3 read_certificate.py CERT.arrow
    python3 read_certificate.py --pyarrow CERT.arrow   # read it with pyarrow instead

prints one JSON object, the same as read-certificate.mjs: the schema
metadata, with "format" (version 1, or version 2 for a certificate that
cites others) and "cites" (the addresses of the certificates it cites, []
for none), the number of record batches, every entry {position, grundy,
reach, win} in file order (win hints as stored: -1, or component<<20|move)
and "address", the content address recomputed from the citations and the
entries. It exits with status 1 if that differs from the address the file
declares (spots.address) or from the file's name when the name is an
address, and with status 2 if the file cannot be read as a certificate.
The entries are the file's own: those of the certificates it cites are in
their own files.

It needs no package from the Python Package Index. It reads the Arrow IPC
file itself (the footer, the schema and the record batches are
FlatBuffers; docs/certificate-format.md says what is in them) with
Python's standard library, and hashes with spots_blake3.py beside it (the
blake3 package where it is installed). The record batch bodies are zstd
frames, which it decodes with the first of: Python 3.14's compression.zstd,
the zstandard package (Debian: apt install python3-zstandard), the zstd
command (Debian: apt install zstd). With --pyarrow it reads the file with
pyarrow instead (pip install pyarrow; Debian packages none). format/
python_test.go runs both routes, the second where pyarrow is installed.

It reads only: checking the proof needs a Sprouts move generator.
"""

import json
import os
import re
import shutil
import struct
import subprocess
import sys

from spots_blake3 import hex_digest

FORMAT_VERSION = "spots-certificate/1"  # cites no other certificate
FORMAT_CITING = "spots-certificate/2"  # cites others: spots.cites
MAX_CITES = 1000
WIN_SHIFT = 20
COLUMNS = ["position", "grundy", "reach", "win"]
MAX_BUFFER = 1 << 31  # the most bytes one decoded buffer may hold
NAME = "read_certificate.py"


class Malformed(Exception):
    """The file is not a certificate this reader can read."""


def split_win(w):
    """Return (component, move) of a win hint w >= 0."""
    return w >> WIN_SHIFT, w & ((1 << WIN_SHIFT) - 1)


def parse_cites(meta):
    """Return the citations the metadata gives: [] for version 1, which has
    no spots.cites key, and for version 2 the addresses of spots.cites,
    which must be sorted, each once (so the address has one recipe)."""
    fmt = meta.get("spots.format")
    if fmt == FORMAT_VERSION:
        if "spots.cites" in meta:
            raise Malformed(f"spots.cites is not part of {FORMAT_VERSION}")
        return []
    if fmt != FORMAT_CITING:
        raise Malformed(f"spots.format is {fmt!r}, this reader knows {FORMAT_VERSION} and {FORMAT_CITING}")
    if not meta.get("spots.cites"):
        raise Malformed(f"{FORMAT_CITING} without spots.cites")
    cites = meta["spots.cites"].split(",")
    if len(cites) > MAX_CITES:
        raise Malformed(f"cites {len(cites)} certificates, more than {MAX_CITES}")
    for i, a in enumerate(cites):
        if not re.fullmatch(r"[0-9a-f]{64}", a):
            raise Malformed(f"citation {i + 1} {a!r} is not a content address")
        if i > 0 and a <= cites[i - 1]:
            raise Malformed(f"citation {i + 1} {a} is not after {cites[i - 1]}")
    return cites


# FlatBuffers, as far as Arrow's metadata needs them: tables (a signed
# offset back to a vtable of field offsets), vectors and strings (a
# length, then the elements) and structs inline in vectors. Every read is
# bounded by the buffer: a malformed file raises Malformed, never reads
# past its end and never loops.

class Table:
    """A FlatBuffers table in buf at pos."""

    def __init__(self, buf, pos, what):
        self.buf, self.pos, self.what = buf, pos, what
        vt = pos - _unpack(buf, "<i", pos, what)
        size = _unpack(buf, "<H", vt, what)
        if size < 4 or size % 2:
            raise Malformed(f"{what}: a vtable of {size} bytes")
        self.slots = [_unpack(buf, "<H", vt + 4 + 2 * i, what) for i in range((size - 4) // 2)]

    def _at(self, slot):
        """The position of a field, or None when it is absent."""
        if slot < len(self.slots) and self.slots[slot]:
            return self.pos + self.slots[slot]
        return None

    def scalar(self, slot, fmt, default=0):
        at = self._at(slot)
        return default if at is None else _unpack(self.buf, fmt, at, self.what)

    def _ref(self, slot):
        at = self._at(slot)
        return None if at is None else at + _unpack(self.buf, "<I", at, self.what)

    def table(self, slot, what):
        at = self._ref(slot)
        return None if at is None else Table(self.buf, at, what)

    def string(self, slot):
        at = self._ref(slot)
        return None if at is None else _string(self.buf, at, self.what)

    def vector(self, slot, what):
        """(start, count) of a vector; (0, 0) when it is absent."""
        at = self._ref(slot)
        if at is None:
            return 0, 0
        n = _unpack(self.buf, "<I", at, what)
        if n > len(self.buf):
            raise Malformed(f"{what}: a vector of {n} elements in {len(self.buf)} bytes")
        return at + 4, n

    def tables(self, slot, what):
        start, n = self.vector(slot, what)
        return [Table(self.buf, start + 4 * i + _unpack(self.buf, "<I", start + 4 * i, what), what) for i in range(n)]

    def structs(self, slot, fmt, what):
        start, n = self.vector(slot, what)
        size = struct.calcsize(fmt)
        if start + n * size > len(self.buf):
            raise Malformed(f"{what}: {n} elements run past the end")
        return [struct.unpack_from(fmt, self.buf, start + size * i) for i in range(n)]


def _unpack(buf, fmt, pos, what):
    if pos < 0 or pos + struct.calcsize(fmt) > len(buf):
        raise Malformed(f"{what}: an offset outside the metadata")
    return struct.unpack_from(fmt, buf, pos)[0]


def _string(buf, pos, what):
    n = _unpack(buf, "<I", pos, what)
    if pos + 4 + n > len(buf):
        raise Malformed(f"{what}: a string runs past the end")
    try:
        return bytes(buf[pos + 4:pos + 4 + n]).decode("utf-8")
    except UnicodeDecodeError:
        raise Malformed(f"{what}: a string that is not UTF-8") from None


def root_table(buf, what):
    return Table(buf, _unpack(buf, "<I", 0, what), what)


def key_values(t, slot):
    return {kv.string(0) or "": kv.string(1) or "" for kv in t.tables(slot, "metadata")}


# Arrow's Type union (Schema.fbs): the types of the four columns.
TYPE_INT, TYPE_UTF8, TYPE_LIST = 2, 5, 12
WANT_TYPES = {"position": ("utf8",), "grundy": ("uint32",), "reach": ("list", "uint32"), "win": ("list", "int32")}


def field_type(f):
    """The type of a Field table: ("utf8",), ("uint32",), ("list", child)…"""
    kind = f.scalar(2, "<B")
    if kind == TYPE_UTF8:
        return ("utf8",)
    if kind == TYPE_INT:
        t = f.table(3, "an Int type")
        width, signed = (t.scalar(0, "<i"), t.scalar(1, "<?")) if t else (0, False)
        return (("int" if signed else "uint") + str(width),)
    if kind == TYPE_LIST:
        children = f.tables(5, "a list's children")
        if len(children) != 1:
            raise Malformed(f"a list of {len(children)} children")
        return ("list",) + field_type(children[0])
    return (f"Arrow type {kind}",)


class Decoder:
    """Decodes zstd frames: Python 3.14's compression.zstd, the zstandard
    package or the zstd command, the first there is."""

    def __init__(self):
        self.module = self.command = None
        try:
            from compression import zstd  # Python 3.14
            self.module = lambda data, size: zstd.decompress(data)
            return
        except ImportError:
            pass
        try:
            import zstandard
            self.module = lambda data, size: zstandard.ZstdDecompressor().decompress(data, max_output_size=size)
            return
        except ImportError:
            pass
        self.command = shutil.which("zstd")
        if self.command is None:
            raise SystemExit(f"{NAME}: no zstd decoder, which the record batch bodies need: install Debian's zstd "
                             "(apt install zstd) or python3-zstandard, or run Python 3.14 or later "
                             "(or use dump_address.py beside this, which needs none: see docs/certificate-format.md)")

    def decode(self, frames, sizes):
        """The contents of the zstd frames (one buffer each), which must
        decode to sizes bytes each."""
        if self.module:
            out = [bytes(self.module(f, n)) for f, n in zip(frames, sizes)]
        else:
            # One process for them all: zstd decodes frames one after
            # another into the concatenation of their contents.
            want = sum(sizes)
            p = subprocess.Popen([self.command, "-d", "-c", "-q"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE)
            got, err = p.communicate(b"".join(frames))
            if p.returncode != 0:
                raise Malformed(f"zstd: {err.decode(errors='replace').strip()}")
            if len(got) != want:
                raise Malformed(f"the zstd frames hold {len(got)} bytes, the buffers say {want}")
            out, at = [], 0
            for n in sizes:
                out.append(got[at:at + n])
                at += n
        for b, n in zip(out, sizes):
            if len(b) != n:
                raise Malformed(f"a zstd frame holds {len(b)} bytes, its buffer says {n}")
        return out


def read_builtin(path):
    """Return (metadata, cites, batches, entries) of the certificate file at
    path, read with the standard library (and a zstd decoder)."""
    with open(path, "rb") as f:
        data = f.read()
    if len(data) < 18 or data[:6] != b"ARROW1" or data[-6:] != b"ARROW1":
        raise Malformed("not an Arrow IPC file (no ARROW1 at its start or its end)")
    size = struct.unpack_from("<i", data, len(data) - 10)[0]
    if size <= 0 or size > len(data) - 18:
        raise Malformed(f"a footer of {size} bytes in a file of {len(data)}")
    footer = root_table(memoryview(data)[len(data) - 10 - size:len(data) - 10], "the footer")
    schema = footer.table(1, "the schema")
    if schema is None:
        raise Malformed("the footer has no schema")
    if footer.vector(2, "dictionaries")[1]:
        raise Malformed("dictionary batches, which a certificate has none of")
    meta = key_values(schema, 2)
    cites = parse_cites(meta)
    fields = schema.tables(1, "the fields")
    names = [f.string(0) for f in fields]
    if names != COLUMNS:
        raise Malformed(f"columns {names}, want {COLUMNS}")
    for f, name in zip(fields, names):
        if field_type(f) != WANT_TYPES[name]:
            raise Malformed(f"column {name} is {'<'.join(field_type(f))}, want {'<'.join(WANT_TYPES[name])}")
    blocks = footer.structs(3, "<qi4xq", "the record batches")
    decoder = Decoder()
    entries = []
    for offset, meta_len, body_len in blocks:
        entries += read_batch(data, offset, meta_len, body_len, decoder)
    if str(len(entries)) != meta.get("spots.entries"):
        raise Malformed(f"{len(entries)} entries, the metadata says {meta.get('spots.entries')}")
    return meta, cites, len(blocks), entries


def read_batch(data, offset, meta_len, body_len, decoder):
    """The entries of the record batch whose block is (offset, meta_len,
    body_len)."""
    where = f"the record batch at byte {offset}"
    if offset < 8 or meta_len < 8 or body_len < 0 or offset + meta_len + body_len > len(data):
        raise Malformed(f"{where}: its block lies outside the file")
    prefix, n = struct.unpack_from("<Ii", data, offset)
    if prefix != 0xFFFFFFFF or n <= 0 or 8 + n > meta_len:
        raise Malformed(f"{where}: not an encapsulated message")
    msg = root_table(memoryview(data)[offset + 8:offset + 8 + n], where)
    batch = msg.table(2, where) if msg.scalar(1, "<B") == 3 else None
    if batch is None:
        raise Malformed(f"{where}: not a record batch")
    rows = batch.scalar(0, "<q")
    nodes = batch.structs(1, "<qq", where)
    buffers = batch.structs(2, "<qq", where)
    comp = batch.table(3, where)
    if comp is None or comp.scalar(0, "<b") != 1:
        raise Malformed(f"{where}: its body is not zstd-compressed")
    if len(nodes) != 6 or len(buffers) != 13 or any(nulls for _, nulls in nodes):
        raise Malformed(f"{where}: {len(nodes)} arrays and {len(buffers)} buffers with nulls {[x for _, x in nodes]}, "
                        "want 6 and 13, no null")
    body = offset + meta_len
    frames, sizes, plain = [], [], {}
    for i, (off, length) in enumerate(buffers):
        if off < 0 or length < 0 or off + length > body_len:
            raise Malformed(f"{where}: buffer {i} lies outside its body")
        if length == 0:
            plain[i] = b""
            continue
        if length < 8:
            raise Malformed(f"{where}: buffer {i} is shorter than its length prefix")
        raw = struct.unpack_from("<q", data, body + off)[0]
        if raw == -1:
            plain[i] = data[body + off + 8:body + off + length]
        elif 0 <= raw <= MAX_BUFFER:
            frames.append(data[body + off + 8:body + off + length])
            sizes.append(raw)
        else:
            raise Malformed(f"{where}: buffer {i} says it holds {raw} bytes")
    decoded = iter(decoder.decode(frames, sizes))
    bufs = [plain[i] if i in plain else next(decoded) for i in range(len(buffers))]
    # position: validity, offsets, bytes; grundy: validity, values; reach
    # and win: validity, offsets, then their items' validity, values.
    positions = strings(bufs[1], bufs[2], rows, "position")
    grundy = ints(bufs[4], "<I", rows, "grundy")
    reach = lists(bufs[6], ints(bufs[8], "<I", nodes[3][0], "reach"), rows, "reach")
    win = lists(bufs[10], ints(bufs[12], "<i", nodes[5][0], "win"), rows, "win")
    if any(length != rows for length, _ in (nodes[0], nodes[1], nodes[2], nodes[4])):
        raise Malformed(f"{where}: columns of {[length for length, _ in nodes]} rows, the batch has {rows}")
    return [{"position": p, "grundy": g, "reach": r, "win": w} for p, g, r, w in zip(positions, grundy, reach, win)]


def ints(buf, fmt, n, column):
    size = struct.calcsize(fmt)
    if n < 0 or len(buf) < n * size:
        raise Malformed(f"column {column}: {n} values in {len(buf)} bytes")
    return list(struct.unpack_from(f"<{n}{fmt[1]}", buf))


def offsets(buf, rows, end, column):
    offs = ints(buf, "<i", rows + 1, column) if rows else [0]
    if any(b < a for a, b in zip(offs, offs[1:])) or offs[0] < 0 or offs[-1] > end:
        raise Malformed(f"column {column}: offsets out of order or past the end")
    return offs


def strings(offs_buf, data, rows, column):
    offs = offsets(offs_buf, rows, len(data), column)
    try:
        return [bytes(data[a:b]).decode("utf-8") for a, b in zip(offs, offs[1:])]
    except UnicodeDecodeError:
        raise Malformed(f"column {column}: a value that is not UTF-8") from None


def lists(offs_buf, items, rows, column):
    offs = offsets(offs_buf, rows, len(items), column)
    return [items[a:b] for a, b in zip(offs, offs[1:])]


def read_pyarrow(path):
    """Return what read_builtin does, read with pyarrow."""
    try:
        import pyarrow as pa
        import pyarrow.ipc
    except ImportError as e:
        raise SystemExit(f"{NAME}: --pyarrow: {e.msg}; install it with\n    pip install pyarrow\n"
                         f"(without --pyarrow, {NAME} reads the file itself)") from None
    with pa.memory_map(path) as source:
        reader = pa.ipc.open_file(source)
        schema = reader.schema
        meta = {k.decode(): v.decode() for k, v in (schema.metadata or {}).items()}
        cites = parse_cites(meta)
        if schema.names != COLUMNS:
            raise Malformed(f"columns {schema.names}, want {COLUMNS}")
        entries = []
        for i in range(reader.num_record_batches):
            batch = reader.get_batch(i).to_pydict()
            for position, grundy, reach, win in zip(*(batch[c] for c in COLUMNS)):
                entries.append({"position": position, "grundy": grundy, "reach": reach, "win": win})
        if str(len(entries)) != meta.get("spots.entries"):
            raise Malformed(f"{len(entries)} entries, the metadata says {meta.get('spots.entries')}")
        return meta, cites, reader.num_record_batches, entries


def uvarint(x):
    """Unsigned LEB128 of x >= 0."""
    out = bytearray()
    while x >= 0x80:
        out.append((x & 0x7F) | 0x80)
        x >>= 7
    out.append(x)
    return bytes(out)


def zigzag(x):
    return 2 * x if x >= 0 else -2 * x - 1


def text(s):
    b = s.encode("utf-8")
    return uvarint(len(b)) + b


def hashed_bytes(meta, cites, entries):
    """The bytes a content address hashes (docs/certificate-format.md);
    cites is [] for a certificate that cites none (version 1)."""
    out = bytearray()
    out += text(FORMAT_CITING if cites else FORMAT_VERSION)
    out += text(meta["spots.game"])
    out += text(meta["spots.notation"])
    out += text(meta["spots.claim"])
    if cites:
        out += uvarint(len(cites))
        for a in cites:
            out += text(a)
    out += uvarint(len(entries))
    for e in entries:
        out += text(e["position"])
        out += uvarint(e["grundy"])
        out += uvarint(len(e["reach"]))
        for r in e["reach"]:
            out += uvarint(r)
        out += uvarint(len(e["win"]))
        for w in e["win"]:
            out += uvarint(zigzag(w))
    return bytes(out)


def content_address(meta, cites, entries):
    return hex_digest(hashed_bytes(meta, cites, entries))


def main(argv):
    args = argv[1:]
    use_pyarrow = "--pyarrow" in args
    args = [a for a in args if a != "--pyarrow"]
    if len(args) != 1 or args[0].startswith("-"):
        print(f"usage: python3 {NAME} [--pyarrow] CERT.arrow", file=sys.stderr)
        return 2
    path = args[0]
    try:
        meta, cites, batches, entries = (read_pyarrow if use_pyarrow else read_builtin)(path)
        address = content_address(meta, cites, entries)
        out = {key: meta[f"spots.{key}"] for key in ("format", "claim", "game", "notation", "producer", "version", "created")}
    except OSError as e:
        print(f"{NAME}: {e}", file=sys.stderr)
        return 2
    except SystemExit as e:  # no zstd decoder, no pyarrow: what to install
        print(e, file=sys.stderr)
        return 2
    except KeyError as e:
        print(f"{NAME}: {path}: the metadata has no {e.args[0]}", file=sys.stderr)
        return 2
    except Exception as e:  # Malformed, or pyarrow's own errors with --pyarrow
        print(f"{NAME}: {path}: {e}", file=sys.stderr)
        return 2
    out = {"format": out["format"], "cites": cites, "claim": out["claim"], "game": out["game"],
           "notation": out["notation"], "producer": out["producer"], "version": out["version"],
           "created": out["created"], "declaredAddress": meta.get("spots.address"), "address": address,
           "batches": batches, "entries": entries}
    print(json.dumps(out, ensure_ascii=False, separators=(",", ":")))
    named = re.fullmatch(r"([0-9a-f]{64})\.arrow", os.path.basename(path))
    if address != meta.get("spots.address") or (named and named.group(1) != address):
        print(f"{NAME}: {path}: the citations and entries hash to {address}, the file declares {meta.get('spots.address')}",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
