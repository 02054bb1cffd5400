package sprouts

// Notation names this package's canonical form and the order of Children
// (by Key). Certificates record it because their hints are indices into
// that order; it changes whenever either would.
const Notation = "spots-canonical/1"

// Game is the name certificates use for Sprouts.
const Game = "sprouts"
