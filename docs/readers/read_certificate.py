#!/usr/bin/env python3
"""Read a spots proof certificate and recompute its content address.

    pip install pyarrow blake3
    python3 read_certificate.py CERT.arrow

prints one JSON object, the same as read-certificate.mjs: the schema
metadata, with "format" (version 1, or version 2 for a certificate that
cites others) and "cites" (the addresses of the certificates it cites, []
for none), the number of record batches, every entry {position, grundy,
reach, win} in file order (win hints as stored: -1, or component<<20|move)
and "address", the content address recomputed from the citations and the
entries. It exits with status 1 if that differs from the address the file
declares (spots.address) or from the file's name when the name is an
address. The entries are the file's own: those of the certificates it
cites are in their own files.

It reads only: checking the proof needs a Sprouts move generator. See
docs/certificate-format.md. pyarrow decodes the zstd record batch bodies
itself. Unlike read-certificate.mjs, this reader is not run by the tests
of the repository (pyarrow was not installable where it was written).
"""

import json
import os
import re
import sys

try:
    import blake3
    import pyarrow as pa
    import pyarrow.ipc
except ImportError as e:
    print(f"read_certificate.py: {e.msg}: this reader needs pyarrow and blake3; install them with\n"
          "    pip install pyarrow blake3\n"
          "(dump_address.py beside it needs neither: see docs/certificate-format.md)", file=sys.stderr)
    sys.exit(2)

FORMAT_VERSION = "spots-certificate/1"  # cites no other certificate
FORMAT_CITING = "spots-certificate/2"  # cites others: spots.cites
MAX_CITES = 1000
WIN_SHIFT = 20
COLUMNS = ["position", "grundy", "reach", "win"]


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
            raise ValueError(f"spots.cites is not part of {FORMAT_VERSION}")
        return []
    if fmt != FORMAT_CITING:
        raise ValueError(f"spots.format is {fmt!r}, this reader knows {FORMAT_VERSION} and {FORMAT_CITING}")
    if not meta.get("spots.cites"):
        raise ValueError(f"{FORMAT_CITING} without spots.cites")
    cites = meta["spots.cites"].split(",")
    if len(cites) > MAX_CITES:
        raise ValueError(f"cites {len(cites)} certificates, more than {MAX_CITES}")
    for i, a in enumerate(cites):
        if not re.fullmatch(r"[0-9a-f]{64}", a):
            raise ValueError(f"citation {i + 1} {a!r} is not a content address")
        if i > 0 and a <= cites[i - 1]:
            raise ValueError(f"citation {i + 1} {a} is not after {cites[i - 1]}")
    return cites


def read_certificate(path):
    """Return (metadata, cites, batches, entries) of the certificate file at path."""
    with pa.memory_map(path) as source:
        reader = pa.ipc.open_file(source)
        schema = reader.schema
        meta = {k.decode(): v.decode() for k, v in (schema.metadata or {}).items()}
        cites = parse_cites(meta)
        if schema.names != COLUMNS:
            raise ValueError(f"columns {schema.names}, want {COLUMNS}")
        entries = []
        for i in range(reader.num_record_batches):
            batch = reader.get_batch(i).to_pydict()
            for position, grundy, reach, win in zip(*(batch[c] for c in COLUMNS)):
                entries.append({"position": position, "grundy": grundy, "reach": reach, "win": win})
        if str(len(entries)) != meta["spots.entries"]:
            raise ValueError(f"{len(entries)} entries, the metadata says {meta['spots.entries']}")
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
    return blake3.blake3(hashed_bytes(meta, cites, entries)).hexdigest()


def main():
    if len(sys.argv) != 2:
        print("usage: python3 read_certificate.py CERT.arrow", file=sys.stderr)
        sys.exit(2)
    path = sys.argv[1]
    meta, cites, batches, entries = read_certificate(path)
    address = content_address(meta, cites, entries)
    print(json.dumps({
        "format": meta["spots.format"],
        "cites": cites,
        "claim": meta["spots.claim"],
        "game": meta["spots.game"],
        "notation": meta["spots.notation"],
        "producer": meta["spots.producer"],
        "version": meta["spots.version"],
        "created": meta["spots.created"],
        "declaredAddress": meta["spots.address"],
        "address": address,
        "batches": batches,
        "entries": entries,
    }, ensure_ascii=False, separators=(",", ":")))
    named = re.fullmatch(r"([0-9a-f]{64})\.arrow", os.path.basename(path))
    if address != meta["spots.address"] or (named and named.group(1) != address):
        print(f"read_certificate: {path}: the citations and entries hash to {address}, the file declares {meta['spots.address']}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
