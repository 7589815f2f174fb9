package rules

// Open is a matter the specification leaves open. Where a request touches
// one, no status the operation documents is wrong: every producer accepts
// any 2xx or 4xx the operation lists (Accepts), and none fails an
// implementation for choosing differently from the simulator.
type Open struct {
	// Topic says what is open, in a few words.
	Topic string
	// Section is where the specification leaves it open.
	Section string
}

// The open matters a request rule may meet.
var (
	// OpenPaging: the syntax, default and maximum of limit and offset
	// (Endpoints, Limits).
	OpenPaging = Open{Topic: "values of limit and offset beyond their int32 type", Section: "Endpoints; Limits"}
	// OpenDateRange: how a date range reads (whether its ends are
	// included, a start after its end, one end alone).
	OpenDateRange = Open{Topic: "how a date range reads", Section: "Endpoints (E10, E15)"}
	// OpenUnknownID: an id that names no record on an operation that
	// documents no 404.
	OpenUnknownID = Open{Topic: "an unknown id on an operation without a documented 404", Section: "Errors"}
	// OpenContentType: a body sent under a media type that is not JSON.
	OpenContentType = Open{Topic: "a body under a media type other than JSON", Section: "Endpoints / common"}
)

// Accepts reports whether status is acceptable where the specification
// is open: a 2xx or a 4xx among documented, the statuses the operation
// lists (registry.Operation.Documented).
func (Open) Accepts(status int, documented []int) bool {
	if status < 200 || status >= 500 || status >= 300 && status < 400 {
		return false
	}
	for _, s := range documented {
		if s == status {
			return true
		}
	}
	return false
}

// OpenQuerySyntax: the syntax of sortby and where, and of any query
// string the specification gives no format (Endpoints).
var OpenQuerySyntax = Open{Topic: "the syntax of sortby, where and other query strings", Section: "Endpoints"}
