package proxy

import (
	"github.com/campusconf/campusconf/internal/openapi"
	"github.com/campusconf/campusconf/internal/registry"
)

// requestProblems lists the request rules the request breaks that the
// catalogue names (openapi.Violations, which the simulator reads too): a
// rule whose requirement the catalogue lacks is left out, as the proxy
// does not judge what the catalogue does not name.
func (c *checker) requestProblems(op registry.OpID, params map[string]string, ex *Exchange) []openapi.Violation {
	var out []openapi.Violation
	for _, v := range c.v.Violations(op, params, ex.URL.Query(), ex.RequestBody, ex.RequestCut) {
		if c.known(v.Requirement) {
			out = append(out, v)
		}
	}
	return out
}
