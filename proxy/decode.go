package proxy

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"io"
	"net/http"
	"strings"
)

// decode replaces the compressed bodies of ex by their decoded copies,
// for the checks only: the proxy forwards every body as it came. At most
// max decoded bytes are kept; a body cut before its end, or under an
// encoding the proxy cannot decode (br, zstd), is marked cut, and the
// rules that need it are not judged.
func decode(ex *Exchange, max int) {
	ex.RequestBody, ex.RequestCut = decoded(ex.RequestHeader, ex.RequestBody, ex.RequestCut, max)
	ex.ResponseBody, ex.ResponseCut = decoded(ex.ResponseHeader, ex.ResponseBody, ex.ResponseCut, max)
}

func decoded(h http.Header, body []byte, cut bool, max int) ([]byte, bool) {
	enc := strings.ToLower(strings.TrimSpace(h.Get("Content-Encoding")))
	if enc == "" || enc == "identity" || len(body) == 0 {
		return body, cut
	}
	var r io.Reader
	switch enc {
	case "gzip", "x-gzip":
		zr, err := gzip.NewReader(bytes.NewReader(body))
		if err != nil {
			return nil, true
		}
		r = zr
	case "deflate":
		// zlib-wrapped as the RFC says, or raw as some servers send it
		if zr, err := zlib.NewReader(bytes.NewReader(body)); err == nil {
			r = zr
		} else {
			r = flate.NewReader(bytes.NewReader(body))
		}
	default:
		return nil, true
	}
	out, err := io.ReadAll(io.LimitReader(r, int64(max)+1))
	if len(out) > max {
		return out[:max], true
	}
	if err != nil || cut {
		// the compressed copy was cut, or is broken: what came out is a
		// prefix
		return out, true
	}
	return out, false
}
