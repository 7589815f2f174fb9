package simulator

import (
	"container/list"
	"fmt"
	"net/http"
	"strings"
	"sync"

	"github.com/campusconf/campusconf/internal/wire"
	"github.com/campusconf/campusconf/simulator/front"
)

// Named worlds. A request that carries the header WorldHeader, or whose
// path begins with /_w/NAME/, is served by a world of its own: built on
// first use from the same seed, scale, defects and variants as the default
// world, so the fixture file holds for it too, and written to by nobody
// else. Parallel end-to-end workers and several developers each pick a
// name and never see each other's writes. Faults and latency are the
// server's and apply to every world. The default world is the one without
// a name; it is never evicted.
//
// A world is created by the first request naming it that reaches an
// operation (or the self-reset) and passes the credential check, or by
// the control API and a state file; a request refused for its
// credentials, or that reaches no operation, names no world: it is
// answered as a fresh world would answer it, and nothing is created or
// evicted. At most Options.MaxWorlds named worlds are kept; creating one
// more drops the least recently used (any request to an existing world,
// refused or not, marks it used), whose changes are lost (the next request
// to its name starts again from the seed).

// WorldHeader selects a named world.
const WorldHeader = wire.WorldHeader

// worldPrefix is the path prefix that selects a named world: /_w/NAME/...
const worldPrefix = WorldPathPrefix

// WorldPathPrefix is the path prefix that selects a named world:
// /_w/NAME/... (the facts live in internal/wire, where the proxy reads
// them too).
const WorldPathPrefix = wire.WorldPathPrefix

// DefaultMaxWorlds is the bound on named worlds when Options.MaxWorlds is 0.
const DefaultMaxWorlds = 64

// maxWorldName is the longest world name.
const maxWorldName = 64

// CheckWorldName refuses a name that is not 1 to 64 letters, digits, - or _.
func CheckWorldName(name string) error {
	if name == "" || len(name) > maxWorldName {
		return fmt.Errorf("world name: expected 1 to %d letters, digits, - or _, got %d characters", maxWorldName, len(name))
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_') {
			return fmt.Errorf("world name: expected only letters, digits, - and _, got %q", front.Clip(name))
		}
	}
	return nil
}

// worlds holds the named worlds, most recently used first.
type worlds struct {
	mu      sync.Mutex
	max     int
	byName  map[string]*list.Element // of *namedWorld
	lru     list.List
	evicted int
}

type namedWorld struct {
	name string
	sim  *Simulator
}

func newWorlds(max int) *worlds {
	return &worlds{max: max, byName: map[string]*list.Element{}}
}

// lookup returns the named world if it exists, marking it used.
func (ws *worlds) lookup(name string) *Simulator {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	if e, ok := ws.byName[name]; ok {
		ws.lru.MoveToFront(e)
		return e.Value.(*namedWorld).sim
	}
	return nil
}

// World returns the simulator of the named world, creating it from the
// seed on first use (and evicting the least recently used beyond
// Options.MaxWorlds). It is nil in a named world's simulator.
func (s *Simulator) World(name string) (*Simulator, error) {
	if err := CheckWorldName(name); err != nil {
		return nil, err
	}
	ws := s.worlds
	if sim := ws.lookup(name); sim != nil {
		return sim, nil
	}
	// built outside the lock: other worlds keep answering meanwhile
	opts := s.opts
	opts.Control, opts.ControlToken = false, ""
	log := s.log
	if log != nil {
		log = log.With("world", name)
	}
	sim := build(opts, s.shared, log, name)
	ws.mu.Lock()
	defer ws.mu.Unlock()
	if e, ok := ws.byName[name]; ok { // another request built it first
		ws.lru.MoveToFront(e)
		return e.Value.(*namedWorld).sim, nil
	}
	ws.byName[name] = ws.lru.PushFront(&namedWorld{name: name, sim: sim})
	for ws.lru.Len() > ws.max {
		old := ws.lru.Remove(ws.lru.Back()).(*namedWorld)
		delete(ws.byName, old.name)
		ws.evicted++
		if s.log != nil {
			s.log.Info("named world evicted (least recently used)", "world", old.name, "max", ws.max)
		}
	}
	return sim, nil
}

// WorldNames returns the names of the named worlds, most recently used
// first.
func (s *Simulator) WorldNames() []string {
	ws := s.worlds
	ws.mu.Lock()
	defer ws.mu.Unlock()
	out := make([]string, 0, ws.lru.Len())
	for e := ws.lru.Front(); e != nil; e = e.Next() {
		out = append(out, e.Value.(*namedWorld).name)
	}
	return out
}

// ResetWorld puts the named world back in its seeded state; a world that
// does not exist is in it already. It reports whether the world existed.
func (s *Simulator) ResetWorld(name string) (bool, error) {
	if err := CheckWorldName(name); err != nil {
		return false, err
	}
	if sim := s.worlds.lookup(name); sim != nil {
		sim.Reset()
		return true, nil
	}
	return false, nil
}

// serveWorld serves a request that names a world by header or path.
func (s *Simulator) serveWorld(w http.ResponseWriter, r *http.Request) {
	name := r.Header.Get(WorldHeader)
	if front.IsControlPath(r.URL.Path) {
		// the control API is the server's; it names worlds in its paths
		(*s.handler.Load()).ServeHTTP(w, r)
		return
	}
	if rest, ok := strings.CutPrefix(r.URL.EscapedPath(), worldPrefix); ok {
		// the name is read from the escaped path, so a %2F cannot hide in it
		pathName, _, _ := strings.Cut(rest, "/")
		if err := CheckWorldName(pathName); err != nil {
			s.worldRefused(w, r, "path "+worldPrefix+"NAME/: "+err.Error())
			return
		}
		if name != "" && name != pathName {
			s.worldRefused(w, r, fmt.Sprintf("world: the %s header names %q and the path names %q; name one world", WorldHeader, front.Clip(name), front.Clip(pathName)))
			return
		}
		name = pathName
		r = r.WithContext(r.Context()) // a shallow copy whose URL may change
		u := *r.URL
		// a valid name has nothing to escape: both forms share the prefix
		cut := len(worldPrefix) + len(pathName)
		u.Path = u.Path[cut:]
		if u.RawPath != "" {
			u.RawPath = u.RawPath[cut:]
		}
		if u.Path == "" {
			u.Path = "/"
		}
		r.URL = &u
		r.RequestURI = u.RequestURI()
	}
	if name == "" { // an empty header: the default world
		(*s.handler.Load()).ServeHTTP(w, r)
		return
	}
	if err := CheckWorldName(name); err != nil {
		s.worldRefused(w, r, err.Error())
		return
	}
	sim := s.worlds.lookup(name)
	if sim == nil {
		if !s.createsWorld(r) {
			// refused, or no operation: answered as a fresh world of
			// the seed would answer it, which the default world does
			// without a change (its credentials are the seed's); no
			// world is created, none evicted
			(*s.handler.Load()).ServeHTTP(w, r)
			return
		}
		var err error
		if sim, err = s.World(name); err != nil {
			s.worldRefused(w, r, err.Error())
			return
		}
	}
	// the world that answered, which a page may read (wire.CORSExposeHeaders)
	w.Header().Set(WorldHeader, name)
	(*sim.handler.Load()).ServeHTTP(w, r)
}

// createsWorld reports whether r may create the world it names: it reaches
// an operation (or the self-reset) and passes the credential check. A
// request refused for its credentials, or that reaches no operation
// (/healthz, a 404, a 405, a preflight, the docs), creates none: a page
// the developer opens, or a client without the key, cannot push named
// worlds out.
func (s *Simulator) createsWorld(r *http.Request) bool {
	t := s.table.Load()
	return t != nil && t.Acts(r) && s.env.Authenticates(r)
}

// worldRefused answers 400 for a bad world name, readable by browsers.
func (s *Simulator) worldRefused(w http.ResponseWriter, r *http.Request, msg string) {
	if v, ok := s.cors.AllowOrigin(r.Header.Get("Origin")); ok {
		w.Header().Set("Access-Control-Allow-Origin", v)
	}
	front.Fail(w, s.defects, http.StatusBadRequest, msg)
}
