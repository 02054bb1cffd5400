// read-certificate.mjs reads a spots proof certificate and recomputes its
// content address, as docs/certificate-format.md describes. It reads only:
// it does not check the proof, which needs a Sprouts move generator.
//
//	npm ci                      # apache-arrow, fzstd (zstd), @noble/hashes (BLAKE3)
//	node read-certificate.mjs CERT.arrow
//
// prints one JSON object: the schema metadata, with "format" (version 1,
// or version 2 for a certificate that cites others) and "cites" (the
// addresses of the certificates it cites, [] for none), the number of
// record batches, every entry {position, grundy, reach, win} in file order
// (win hints as stored: -1, or component<<20|move), and "address", the
// content address recomputed from the citations and the entries. It exits
// with status 1 if that differs from the address the file declares
// (spots.address) or from the file's name when the name is an address.
// The entries are the file's own: those of the certificates it cites are
// in their own files. format/node_test.go runs it.
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { pathToFileURL } from 'node:url';
import { compressionRegistry, CompressionType, tableFromIPC } from 'apache-arrow';
import { decompress } from 'fzstd';
import { blake3 } from '@noble/hashes/blake3.js';

// Record batch bodies are zstd-compressed; Arrow JS decodes them with the
// codec registered for ZSTD, here fzstd (pure JS).
compressionRegistry.set(CompressionType.ZSTD, { decode: (data) => decompress(data) });

export const FORMAT_VERSION = 'spots-certificate/1'; // cites no other certificate
export const FORMAT_CITING = 'spots-certificate/2'; // cites others: spots.cites
export const MAX_CITES = 1000;
export const WIN_SHIFT = 20;

// splitWin returns the land (component) and move a win hint w >= 0 names.
export function splitWin(w) {
  return { component: w >>> WIN_SHIFT, move: w & ((1 << WIN_SHIFT) - 1) };
}

// parseCites returns the citations the metadata gives: [] for version 1,
// which has no spots.cites key, and for version 2 the addresses of
// spots.cites, which must be sorted, each once (so the address has one
// recipe).
export function parseCites(meta) {
  const format = meta['spots.format'];
  const has = Object.hasOwn(meta, 'spots.cites');
  if (format === FORMAT_VERSION) {
    if (has) throw new Error(`spots.cites is not part of ${FORMAT_VERSION}`);
    return [];
  }
  if (format !== FORMAT_CITING) {
    throw new Error(`spots.format is ${JSON.stringify(format)}, this reader knows ${FORMAT_VERSION} and ${FORMAT_CITING}`);
  }
  if (!has || meta['spots.cites'] === '') throw new Error(`${FORMAT_CITING} without spots.cites`);
  const cites = meta['spots.cites'].split(',');
  if (cites.length > MAX_CITES) throw new Error(`cites ${cites.length} certificates, more than ${MAX_CITES}`);
  cites.forEach((a, i) => {
    if (!/^[0-9a-f]{64}$/.test(a)) throw new Error(`citation ${i + 1} ${JSON.stringify(a)} is not a content address`);
    if (i > 0 && a <= cites[i - 1]) throw new Error(`citation ${i + 1} ${a} is not after ${cites[i - 1]}`);
  });
  return cites;
}

// readCertificate decodes the bytes of a certificate file.
export function readCertificate(bytes) {
  const table = tableFromIPC(bytes);
  const meta = Object.fromEntries(table.schema.metadata);
  const cites = parseCites(meta);
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
  return { meta, cites, batches: table.batches.length, entries };
}

// hashedBytes returns the bytes a content address hashes: see
// "The content address" in docs/certificate-format.md. cites is [] for a
// certificate that cites none (version 1).
export function hashedBytes(meta, cites, entries) {
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
  str(cites.length > 0 ? FORMAT_CITING : FORMAT_VERSION);
  str(meta['spots.game']);
  str(meta['spots.notation']);
  str(meta['spots.claim']);
  if (cites.length > 0) {
    uvarint(cites.length);
    for (const a of cites) str(a);
  }
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
export function contentAddress(meta, cites, entries) {
  return Buffer.from(blake3(hashedBytes(meta, cites, entries))).toString('hex');
}

function main() {
  const path = process.argv[2];
  if (!path) {
    console.error('usage: node read-certificate.mjs CERT.arrow');
    process.exit(2);
  }
  const { meta, cites, batches, entries } = readCertificate(readFileSync(path));
  const address = contentAddress(meta, cites, entries);
  console.log(JSON.stringify({
    format: meta['spots.format'],
    cites,
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
    console.error(`read-certificate: ${path}: the citations and entries hash to ${address}, the file declares ${meta['spots.address']}`);
    process.exit(1);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();
