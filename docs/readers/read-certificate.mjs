// read-certificate.mjs reads a spots proof certificate and recomputes its
// content address, as docs/certificate-format.md describes. It reads only:
// it does not check the proof, which needs a Sprouts move generator.
//
//	npm ci                      # apache-arrow, fzstd (zstd), @noble/hashes (BLAKE3)
//	node read-certificate.mjs CERT.arrow
//
// prints one JSON object: the schema metadata, the number of record
// batches, every entry {position, grundy, reach, win} in file order (win
// hints as stored: -1, or component<<20|move), and "address", the content
// address recomputed from the entries. It exits with status 1 if that
// differs from the address the file declares (spots.address) or from the
// file's name when the name is an address. format/node_test.go runs it.
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { pathToFileURL } from 'node:url';
import { compressionRegistry, CompressionType, tableFromIPC } from 'apache-arrow';
import { decompress } from 'fzstd';
import { blake3 } from '@noble/hashes/blake3.js';

// Record batch bodies are zstd-compressed; Arrow JS decodes them with the
// codec registered for ZSTD, here fzstd (pure JS).
compressionRegistry.set(CompressionType.ZSTD, { decode: (data) => decompress(data) });

export const FORMAT_VERSION = 'spots-certificate/1';
export const WIN_SHIFT = 20;

// splitWin returns the land (component) and move a win hint w >= 0 names.
export function splitWin(w) {
  return { component: w >>> WIN_SHIFT, move: w & ((1 << WIN_SHIFT) - 1) };
}

// readCertificate decodes the bytes of a certificate file.
export function readCertificate(bytes) {
  const table = tableFromIPC(bytes);
  const meta = Object.fromEntries(table.schema.metadata);
  if (meta['spots.format'] !== FORMAT_VERSION) {
    throw new Error(`spots.format is ${JSON.stringify(meta['spots.format'])}, this reader knows ${FORMAT_VERSION}`);
  }
  const names = table.schema.fields.map((f) => f.name).join(',');
  if (names !== 'position,grundy,reach,win') {
    throw new Error(`columns ${names}, want position,grundy,reach,win`);
  }
  const entries = [];
  for (const row of table) {
    entries.push({
      position: row.position,
      grundy: row.grundy,
      reach: Array.from(row.reach),
      win: Array.from(row.win),
    });
  }
  if (String(entries.length) !== meta['spots.entries']) {
    throw new Error(`${entries.length} entries, the metadata says ${meta['spots.entries']}`);
  }
  return { meta, batches: table.batches.length, entries };
}

// hashedBytes returns the bytes a content address hashes: see
// "The content address" in docs/certificate-format.md.
export function hashedBytes(meta, entries) {
  const out = [];
  const utf8 = new TextEncoder();
  const uvarint = (x) => { // x: a non-negative integer below 2^53
    while (x >= 0x80) {
      out.push((x % 0x80) | 0x80);
      x = Math.floor(x / 0x80);
    }
    out.push(x);
  };
  const zigzag = (x) => (x >= 0 ? 2 * x : -2 * x - 1);
  const str = (s) => {
    const b = utf8.encode(s);
    uvarint(b.length);
    for (const c of b) out.push(c);
  };
  str(FORMAT_VERSION);
  str(meta['spots.game']);
  str(meta['spots.notation']);
  str(meta['spots.claim']);
  uvarint(entries.length);
  for (const e of entries) {
    str(e.position);
    uvarint(e.grundy);
    uvarint(e.reach.length);
    for (const r of e.reach) uvarint(r);
    uvarint(e.win.length);
    for (const w of e.win) uvarint(zigzag(w));
  }
  return Uint8Array.from(out);
}

// contentAddress is the lowercase hex BLAKE3-256 of hashedBytes.
export function contentAddress(meta, entries) {
  return Buffer.from(blake3(hashedBytes(meta, entries))).toString('hex');
}

function main() {
  const path = process.argv[2];
  if (!path) {
    console.error('usage: node read-certificate.mjs CERT.arrow');
    process.exit(2);
  }
  const { meta, batches, entries } = readCertificate(readFileSync(path));
  const address = contentAddress(meta, entries);
  console.log(JSON.stringify({
    claim: meta['spots.claim'],
    game: meta['spots.game'],
    notation: meta['spots.notation'],
    producer: meta['spots.producer'],
    version: meta['spots.version'],
    created: meta['spots.created'],
    declaredAddress: meta['spots.address'],
    address,
    batches,
    entries,
  }));
  const named = basename(path).match(/^([0-9a-f]{64})\.arrow$/);
  if (address !== meta['spots.address'] || (named && named[1] !== address)) {
    console.error(`read-certificate: ${path}: the entries hash to ${address}, the file declares ${meta['spots.address']}`);
    process.exit(1);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();
