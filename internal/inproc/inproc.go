// Package inproc carries HTTP requests to an http.Handler in the same
// process, so the suite can run against the embedded simulator with no port.
package inproc

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
)

// Transport is an http.RoundTripper that serves each request with Handler.
type Transport struct {
	Handler http.Handler
}

// RoundTrip serves req in-process. The request body is read fully first,
// as a server would receive it.
func (t Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	in := req.Clone(req.Context())
	if req.Body != nil {
		data, err := io.ReadAll(req.Body)
		_ = req.Body.Close()
		if err != nil {
			return nil, err
		}
		in.Body = io.NopCloser(bytes.NewReader(data))
		in.ContentLength = int64(len(data))
	} else {
		// a server's request always has a body, empty when none was sent
		in.Body = http.NoBody
	}
	in.RemoteAddr = "127.0.0.1:0"
	in.RequestURI = req.URL.RequestURI()
	if in.Host == "" {
		in.Host = req.URL.Host
	}
	rec := httptest.NewRecorder()
	t.Handler.ServeHTTP(rec, in)
	resp := rec.Result()
	resp.Request = req
	return resp, nil
}

// Client returns an *http.Client whose requests h serves.
func Client(h http.Handler) *http.Client {
	return &http.Client{Transport: Transport{Handler: h}}
}
