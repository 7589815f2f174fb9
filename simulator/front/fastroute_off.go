//go:build campusconf_nofastroute

package front

// fastRouting is off in this build: ServeMux routes every request
// (fastroute_on.go).
const fastRouting = false
