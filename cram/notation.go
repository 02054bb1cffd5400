package cram

// Notation names this package's canonical form and the order of Children
// (by text). Certificates record it because their hints are indices into
// that order; it changes whenever either would.
const Notation = "cram-canonical/1"

// Game is the name certificates use for Cram.
const Game = "cram"
