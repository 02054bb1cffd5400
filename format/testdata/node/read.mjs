// read.mjs reads a spots certificate with Apache Arrow JS, the proof that
// a non-Go Arrow implementation reads the container (format/node_test.go).
//
//	node read.mjs CERT.arrow
//
// prints {"rows": N, "batches": B, "claim": "...", "firstPosition": "...",
// "grundySum": G, "reachItems": R, "winSum": W}: the sums show that the
// numeric and list columns decode too.
// Record batch bodies are zstd-compressed; Arrow JS decodes them with the
// codec registered in its compressionRegistry, here fzstd (pure JS).
import { readFileSync } from 'node:fs';
import { compressionRegistry, CompressionType, tableFromIPC } from 'apache-arrow';
import { decompress } from 'fzstd';

compressionRegistry.set(CompressionType.ZSTD, { decode: (data) => decompress(data) });

const path = process.argv[2];
if (!path) {
  console.error('usage: node read.mjs CERT.arrow');
  process.exit(2);
}
const table = tableFromIPC(readFileSync(path));
const positions = table.getChild('position');
let grundySum = 0, reachItems = 0, winSum = 0;
for (const row of table) {
  grundySum += row.grundy;
  reachItems += row.reach.length;
  for (const w of row.win) winSum += w;
}
console.log(JSON.stringify({
  rows: table.numRows,
  batches: table.batches.length,
  claim: table.schema.metadata.get('spots.claim') ?? null,
  firstPosition: table.numRows > 0 ? positions.get(0) : null,
  grundySum,
  reachItems,
  winSum,
}));
