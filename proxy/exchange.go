package proxy

import (
	"bytes"
	"net/http"
	"net/url"
	"time"
)

// Exchange is one request and its answer as the proxy saw them. Bodies are
// the first bytes only (see Options.MaxCapture); the Truncated flags say
// when there was more.
type Exchange struct {
	Method        string
	URL           *url.URL // the request's URL as received (path and query)
	RequestHeader http.Header
	RequestBody   []byte
	RequestCut    bool

	Status         int
	ResponseHeader http.Header
	ResponseBody   []byte
	ResponseCut    bool
	// Err is set when the target gave no answer (the proxy answered 502).
	Err      error
	Started  time.Time
	Duration time.Duration

	pooled *bytes.Buffer // ResponseBody's buffer, reused once checked
	held   int64         // bytes held for the checks (Options.QueueBytes)
	noRoom bool          // a capture found no room: the exchange is not checked
	judged []string      // the requirements the checks judged on it, in order
}
