package devserver

import (
	_ "embed"
	"net/http"
)

// The console, GET /_sim/TOKEN/ui (Options.Control only): one
// self-contained page (no CDN, no other asset) for the people working on
// a front end against the simulator. It shows the world's users with their
// credentials and a copy button, the records of each kind with a search
// box, the live request log (newest first, from GET /_sim/TOKEN/events),
// and switches for latency, faults, defects and variants that take effect
// at once (PUT /_sim/TOKEN/settings). It talks only to the control API,
// relative to its own address, so it needs nothing but the token in its
// path. Every control is a native button, input, select or checkbox with
// a label: it is usable from the keyboard alone.

//go:embed console/console.html
var consoleHTML []byte

// consoleCSP allows the page's own inline script and style, by the hash
// of their text (so no other inline script runs, should one ever be
// injected), requests to its own origin, and no framing.
var consoleCSP = "default-src 'none'; script-src" + hashSources(inlineScript, consoleHTML) +
	"; style-src" + hashSources(inlineStyle, consoleHTML) +
	"; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// serveConsole is GET /_sim/TOKEN/ui.
func serveConsole(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("Content-Security-Policy", consoleCSP)
	h.Set("Referrer-Policy", "no-referrer") // the token is in the path
	h.Set("X-Content-Type-Options", "nosniff")
	w.Write(consoleHTML)
}
