package simulator

import (
	"net"

	"github.com/campusconf/campusconf/internal/registry"
	"github.com/campusconf/campusconf/internal/wire"
	"github.com/campusconf/campusconf/simulator/decisions"
	"github.com/campusconf/campusconf/simulator/front"
)

// What the simulator's parts define and its importers name through the
// simulator.

// MaxHeaderBytes bounds the request line and headers `campusconf serve`
// reads (front.MaxHeaderBytes).
const MaxHeaderBytes = front.MaxHeaderBytes

// MaxBodyBytes is the largest request body accepted; larger bodies get
// 413.
const MaxBodyBytes = front.MaxBodyBytes

// JSONErrors wraps ln so that what http.Server answers by itself, before
// any handler runs, carries a JSON string body like every other answer of
// the simulator (front.JSONErrors).
func JSONErrors(ln net.Listener) net.Listener { return front.JSONErrors(ln) }

// AnyHost in Options.AllowedHosts switches the host check off.
const AnyHost = wire.AnyHost

// CheckAllowedHosts refuses an entry of Options.AllowedHosts that is not a
// host name ("campus-api", "dev.example.edu"), a domain with its
// subdomains (".example.edu" or "*.example.edu"), an IP address, or "*".
func CheckAllowedHosts(hosts []string) error { return wire.CheckAllowedHosts(hosts) }

// Decision is one documented choice of the simulator that an answer can
// depend on (simulator/decisions).
type Decision = decisions.Decision

// Decisions returns every documented choice the simulator can report a
// request relying on, in report order.
func Decisions() []Decision { return decisions.All() }

// Example is a request as the traffic record keeps it.
type Example = wire.Example

// OperationIDs returns the id of every operation (registry.IDs), in route
// table order.
func OperationIDs() []string { return registry.Strings(registry.IDs()) }
