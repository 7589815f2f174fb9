package proxy

import (
	"net/url"

	"github.com/campusconf/campusconf/internal/openapi"
	"github.com/campusconf/campusconf/internal/registry"
)

// requestProblems lists the request rules the request breaks that the
// catalogue names (openapi.Violations, which the simulator reads too): a
// rule whose requirement the catalogue lacks is left out, as the proxy
// does not judge what the catalogue does not name.
//
// doubt says why a refusal of the request may be right when it breaks
// none (openapi.Validator.Judge): "" for a plainly valid request. A rule
// the catalogue does not name is a doubt too.
func (c *checker) requestProblems(op registry.OpID, params map[string]string, q url.Values, ex *Exchange) (out []openapi.Violation, doubt string) {
	vs, doubt := c.v.Judge(op, params, q, ex.RequestBody, ex.RequestCut, c.knownID)
	for _, v := range vs {
		if c.known(v.Requirement) {
			out = append(out, v)
		} else if doubt == "" {
			doubt = v.What
		}
	}
	return out, doubt
}
