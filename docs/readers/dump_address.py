#!/usr/bin/env python3
"""Recompute the content address of a spots certificate from its rows.

Reads what `spots-verify --dump FILE.arrow` writes (JSON lines: a header
object, then one object per entry; see docs/certificate-format.md), builds
the bytes the content address hashes, hashes them with BLAKE3 and
compares the result with the address the header gives. Python's standard
library only: no pyarrow, no pip. The hash is the `b3sum` command's where
it is installed (Debian and Ubuntu: apt install b3sum; fast), otherwise
that of spots_blake3.py beside this file (pure Python, about a megabyte a
second).

A certificate that cites others (format spots-certificate/2) has its
citations in the header ("cites"), and they are hashed into its address;
its dump holds its own rows only, since each cited certificate is a file
of its own (dump that one to recompute its address).

    spots-verify --dump corpus/certs/eacf849c….arrow > rows.jsonl
    python3 docs/readers/dump_address.py rows.jsonl

prints the address and "matches" (exit status 0), or what differs (1).
Exit status 2: the input is not a dump, or b3sum failed.
With --entries it also prints each entry as a tab-separated line:
position, grundy, reach, win (lists space-separated).
"""

import json
import re
import shutil
import subprocess
import sys

from spots_blake3 import hex_digest

FORMAT_VERSION = "spots-certificate/1"  # cites no other certificate
FORMAT_CITING = "spots-certificate/2"  # cites others: the header's "cites"


def uvarint(x):
    """Unsigned LEB128: 7 bits a byte, least significant group first."""
    if x < 0:
        raise ValueError("uvarint of a negative number: %d" % x)
    out = bytearray()
    while True:
        b = x & 0x7F
        x >>= 7
        if x:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def varint(x):
    """Zigzag, then uvarint: 2x for x >= 0, -2x - 1 for x < 0."""
    return uvarint(2 * x if x >= 0 else -2 * x - 1)


def string(s):
    b = s.encode("utf-8")
    return uvarint(len(b)) + b


def hashed_bytes(header, entries):
    """The bytes the content address is the BLAKE3 hash of."""
    out = bytearray()
    for key in ("format", "game", "notation", "claim"):
        out += string(header[key])
    cites = header.get("cites", [])
    if cites:
        out += uvarint(len(cites)) + b"".join(string(a) for a in cites)
    out += uvarint(len(entries))
    for e in entries:
        out += string(e["position"]) + uvarint(e["grundy"])
        out += uvarint(len(e["reach"])) + b"".join(uvarint(v) for v in e["reach"])
        out += uvarint(len(e["win"])) + b"".join(varint(v) for v in e["win"])
    return bytes(out)


def b3sum(data):
    """The BLAKE3-256 hash of data, in hexadecimal: from the b3sum command
    where it is installed, from spots_blake3.py otherwise."""
    command = shutil.which("b3sum")
    if command is None:
        return hex_digest(data)
    done = subprocess.run([command, "--no-names"], input=data, capture_output=True, check=False)
    if done.returncode != 0:
        raise SystemExit("dump_address.py: b3sum failed: " + done.stderr.decode(errors="replace").strip())
    return done.stdout.decode().split()[0]


def check_cites(header, name, n):
    """Refuse citations that do not go with the header's format: a
    spots-certificate/2 cites at least one certificate, sorted addresses
    each once, and a spots-certificate/1 none, so that the address has one
    recipe."""
    cites = header.get("cites", [])
    where = "dump_address.py: %s line %d: " % (name, n)
    if not isinstance(cites, list) or not all(isinstance(a, str) and re.fullmatch(r"[0-9a-f]{64}", a) for a in cites):
        raise SystemExit(where + "cites is not a list of content addresses")
    if header["format"] == FORMAT_VERSION and cites:
        raise SystemExit(where + "a %s cites no certificate" % FORMAT_VERSION)
    if header["format"] == FORMAT_CITING and not cites:
        raise SystemExit(where + "a %s without cites" % FORMAT_CITING)
    if any(b <= a for a, b in zip(cites, cites[1:])):
        raise SystemExit(where + "cites are not sorted, each once")


def read_dump(stream, name):
    header, entries = None, []
    for n, line in enumerate(stream, 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as e:
            raise SystemExit("dump_address.py: %s line %d: not JSON: %s" % (name, n, e)) from None
        if header is None:
            if obj.get("format") not in (FORMAT_VERSION, FORMAT_CITING):
                raise SystemExit("dump_address.py: %s line %d: not the header of a dump of a %s or %s (run spots-verify --dump FILE.arrow)" % (name, n, FORMAT_VERSION, FORMAT_CITING))
            check_cites(obj, name, n)
            header = obj
        else:
            entries.append(obj)
    if header is None:
        raise SystemExit("dump_address.py: %s: empty: no header line" % name)
    if len(entries) != header["entries"]:
        raise SystemExit("dump_address.py: %s: %d entries, the header says %d (a dump cut short?)" % (name, len(entries), header["entries"]))
    return header, entries


def main(argv):
    args = [a for a in argv[1:] if a != "--entries"]
    if len(args) > 1 or any(a.startswith("-") and a != "-" for a in args):
        print("usage: dump_address.py [--entries] [DUMP.jsonl]  (standard input without DUMP)", file=sys.stderr)
        return 2
    try:
        if not args or args[0] == "-":
            header, entries = read_dump(sys.stdin, "standard input")
        else:
            with open(args[0], encoding="utf-8") as f:
                header, entries = read_dump(f, args[0])
    except OSError as e:
        print("dump_address.py: %s" % e, file=sys.stderr)
        return 2
    except SystemExit as e:
        print(e, file=sys.stderr)
        return 2
    try:
        data = hashed_bytes(header, entries)
        got = b3sum(data)
    except (KeyError, TypeError, ValueError) as e:
        print("dump_address.py: a malformed entry: %r" % (e,), file=sys.stderr)
        return 2
    except SystemExit as e:
        print(e, file=sys.stderr)
        return 2
    if "--entries" in argv[1:]:
        for e in entries:
            print("%s\t%d\t%s\t%s" % (e["position"], e["grundy"], " ".join(map(str, e["reach"])), " ".join(map(str, e["win"]))))
    n = len(header.get("cites", []))
    cited = ", cites %d certificate%s" % (n, "" if n == 1 else "s") if n else ""
    print("%s  %s  %d entries%s, %d bytes hashed" % (got, header["claim"], len(entries), cited, len(data)))
    if got != header["address"]:
        print("dump_address.py: the rows hash to %s, the header says %s" % (got, header["address"]), file=sys.stderr)
        return 1
    print("matches the address the header gives")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
