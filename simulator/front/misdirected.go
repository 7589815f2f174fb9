package front

import (
	"fmt"
	"log/slog"
	"net/http"

	"github.com/campusconf/campusconf/internal/wire"
)

// The host check is wire.HostPolicy, the one of every server of the
// project (the simulator, the proxy): a web page can reach a simulator on
// the developer's machine through DNS rebinding, and read /docs (which
// holds credentials) or reset the world, so the simulator answers only
// Host values it is served as: localhost and names under .localhost, IP
// addresses, and the names Options.AllowedHosts lists (`campusconf serve`
// adds its --addr host and --allowed-hosts). Other requests get 421
// Misdirected Request with a JSON string body, before anything else runs.

// Misdirected answers a request sent to a Host the simulator is not
// served as: 421 with a JSON string body (always a string, whatever the
// defects in force: this is the server's answer, not the interface's), and
// a line on log (when not nil).
func Misdirected(w http.ResponseWriter, r *http.Request, log *slog.Logger) {
	name := Clip(wire.HostName(r.Host))
	msg := fmt.Sprintf("host %q: this simulator is not served under that name; it answers localhost, IP addresses and the names it is told to allow (campusconf serve --allowed-hosts %s, or Options.AllowedHosts)", name, name)
	WriteJSON(w, http.StatusMisdirectedRequest, msg)
	if log != nil {
		log.LogAttrs(r.Context(), slog.LevelWarn, r.Method+" "+LogPath(r.URL.Path),
			slog.Int("status", http.StatusMisdirectedRequest), slog.String("host", name))
	}
}
