package octal

// Notation names this package's canonical form and the order of Children
// (by text). Certificates record it because their hints are indices into
// that order; it changes whenever either would.
const Notation = "octal-canonical/1"

// Game is the name certificates use for octal games. The code is part of
// every position's text, so one name serves every code.
const Game = "octal"
