package rules

import (
	"fmt"
	"mime"
	"strings"
)

// The media types of a request body the specification names: the
// documented one, and plain JSON.
const (
	MediaJSONPatch = "application/json-patch+json"
	MediaJSON      = "application/json"
)

// ReqResponseJSON: a JSON answer declares its media type as JSON.
const ReqResponseJSON = "ALL.response-json"

// MediaTypeRequirement returns the requirement that calls for a request
// body sent under the Content-Type ct to be served: the documented media
// type (ALL.media-type), plain JSON (ALL.media-json), none at all
// (ALL.no-content-type). Any other media type is open (OpenContentType):
// "" then, and a refusal of it (415) is no verdict.
func MediaTypeRequirement(ct string) string {
	if strings.TrimSpace(ct) == "" {
		return "ALL.no-content-type"
	}
	mt, _, err := mime.ParseMediaType(ct)
	switch {
	case err != nil:
		return ""
	case mt == MediaJSONPatch:
		return "ALL.media-type"
	case mt == MediaJSON:
		return "ALL.media-json"
	}
	return ""
}

// IsJSONMediaType reports whether the Content-Type ct declares JSON:
// application/json, or an application/*+json type, parameters allowed.
func IsJSONMediaType(ct string) bool {
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil {
		return false
	}
	return mt == MediaJSON || strings.HasPrefix(mt, "application/") && strings.HasSuffix(mt, "+json")
}

// ResponseMediaType judges the Content-Type ct of an answer whose body is
// JSON (ReqResponseJSON): nil when it declares JSON (IsJSONMediaType).
func ResponseMediaType(status int, ct string) *Breach {
	got := "no Content-Type"
	if ct != "" {
		got = fmt.Sprintf("Content-Type %q", ct)
	}
	return breachIf(!IsJSONMediaType(ct), "a JSON answer declared as application/json (or an application/*+json type)", fmt.Sprintf("%d with %s", status, got))
}
