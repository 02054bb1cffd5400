// Package format reads and writes the files of spots: the proof
// certificates (Arrow IPC, zstd, BLAKE3 content addresses) and the text
// nimber databases of GLOP and SPOTS ([Positions+Nimber]). Its decoders are
// strict and hardened: a truncated, corrupted or hostile input gives an
// error naming where it went wrong, never a panic or an unbounded
// allocation. It knows positions only as text; the game package parses them.
//
// The certificate format is published, for readers in other languages, in
// docs/certificate-format.md, with a JavaScript and a Python reader in
// docs/readers/. TestAddressExample, TestNodeReadsCertificate and
// TestPythonReadsCertificate keep the document's worked example and its
// JavaScript and Python readers true to this code.
package format
