package game

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// registry holds the registered games by name, in the order of Register.
var registry struct {
	mu    sync.RWMutex
	games []Game
}

// validName is what a game's name may be: it is a flag value, a header
// value of certificates and a file name in a corpus.
var validName = regexp.MustCompile(`^[a-z][a-z0-9]{0,31}$`)

// Reserved is the one lowercase word that names no game: --game list
// lists the games.
const Reserved = "list"

// Register adds g to the games every layer serves. Package game/all calls
// it once for each game, from its init; it panics (a programming error,
// caught by every test) when g's name is not a lowercase word or is
// already registered.
func Register(g Game) {
	info := g.Info()
	if !validName.MatchString(info.Name) {
		panic(fmt.Sprintf("game: cannot register %q: a name is a lowercase word of at most 32 letters and digits", info.Name))
	}
	if info.Name == Reserved {
		panic(fmt.Sprintf("game: cannot register %q: --game %s lists the games", info.Name, Reserved))
	}
	registry.mu.Lock()
	defer registry.mu.Unlock()
	for _, h := range registry.games {
		if h.Info().Name == info.Name {
			panic(fmt.Sprintf("game: %q is registered twice", info.Name))
		}
	}
	registry.games = append(registry.games, g)
}

// Lookup returns the registered game of the given name. Names are
// matched ignoring case (--game Sprouts is sprouts).
func Lookup(name string) (Game, bool) {
	registry.mu.RLock()
	defer registry.mu.RUnlock()
	for _, g := range registry.games {
		if strings.EqualFold(g.Info().Name, name) {
			return g, true
		}
	}
	return nil, false
}

// Get is Lookup with an error for a name that is not registered, naming
// the games that are.
func Get(name string) (Game, error) {
	if g, ok := Lookup(name); ok {
		return g, nil
	}
	return nil, fmt.Errorf("unknown game %q (the games are %s)", name, strings.Join(Names(), ", "))
}

// MustGet is Get for a game the caller registered for sure (the default
// game, Sprouts, in code that serves it alone): it panics when name is not
// registered, a programming error.
func MustGet(name string) Game {
	g, err := Get(name)
	if err != nil {
		panic(err.Error())
	}
	return g
}

// Default returns the default game: the first registered (Sprouts), the
// game of commands without --game and of the corpus's own index.
func Default() Game {
	registry.mu.RLock()
	defer registry.mu.RUnlock()
	if len(registry.games) == 0 {
		return nil
	}
	return registry.games[0]
}

// List returns the registered games, in the order they were registered
// (the default game first).
func List() []Game {
	registry.mu.RLock()
	defer registry.mu.RUnlock()
	return slices.Clone(registry.games)
}

// Names returns the names of the registered games, in the order of List.
func Names() []string {
	var out []string
	for _, g := range List() {
		out = append(out, g.Info().Name)
	}
	return out
}
