package cramgame

// publishedName names the table of published: where its values come from.
const publishedName = "beling/impartial-games"

// publishedBoards holds the Grundy values of empty boards that
// beling/impartial-games publishes in its README (computed with its solver
// igsolve; the smaller boards first by Glop, Lemoine and Viennot's solver,
// and 5x11 = 0 also by Uiterwijk), keyed by the board's canonical text:
// rows x columns, rows ≤ columns. No one here computed them.
var publishedBoards = map[string]uint32{
	"4x4": 0, "4x5": 2, "4x6": 0, "4x7": 3, "4x8": 0, "4x9": 1, "4x10": 0, "4x11": 1,
	"4x12": 0, "4x13": 3, "4x14": 0, "4x15": 4,
	"5x5": 0, "5x6": 2, "5x7": 1, "5x8": 1, "5x9": 1, "5x10": 2, "5x11": 0, "5x12": 3,
	"6x6": 0, "6x7": 5, "6x8": 0, "6x9": 1, "6x10": 0, "6x12": 0, "6x14": 0,
	"7x7": 1, "7x8": 3, "7x9": 1,
}

// published returns the Grundy value beling/impartial-games publishes for
// the position written canonically text, and false when it gives none
// (every position but the empty boards of its table): the corpus holds
// every claim about such a board to it (game.Table.Published).
func published(text string) (uint32, bool) {
	g, ok := publishedBoards[text]
	return g, ok
}
