// Command bare is the yardstick of bench/loopback.sh: a bare net/http
// handler that answers the bytes another server answered, with the same
// status and headers, and nothing else.
//
// At start it sends each -route once to -from (the simulator, with the
// -H headers), keeps the status, the headers (but Date, which net/http
// writes itself) and the body, then serves those answers on -addr: a
// request whose method and URI match a route gets its answer, after its
// body is read; anything else is 404. Framing follows the captured
// answer: a Content-Length answer gets the same Content-Length, a chunked
// one is written without it.
//
// It is a program of its own, not a campusconf subcommand, so that its
// start-up and resident memory are those of net/http alone: the campusconf
// binary links the suite, the simulator and their dependencies, whose
// initialisation and heap would count against the yardstick.
//
//	bare -addr 127.0.0.1:18402 -from http://127.0.0.1:18401 \
//	  -H 'Ocp-Apim-Subscription-Key: KEY' -H 'Authorization: Bearer TOKEN' \
//	  -route 'GET /resource/ID/students?limit=20' \
//	  -route 'POST /Attendance/Default {"resourceID":"ID"}'
package main

import (
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"time"
)

// answer is one captured answer.
type answer struct {
	status int
	header http.Header
	body   []byte
}

// list is a repeatable string flag.
type list []string

func (l *list) String() string     { return strings.Join(*l, ", ") }
func (l *list) Set(s string) error { *l = append(*l, s); return nil }

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "bare:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	var headers, routes list
	fs := flag.NewFlagSet("bare", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:18402", "`ADDR`ess to listen on")
	from := fs.String("from", "", "`URL` of the server whose answers are copied")
	fs.Var(&headers, "H", "`HEADER` (Name: value) sent with every captured request (repeatable)")
	fs.Var(&routes, "route", "`ROUTE`: METHOD URI [BODY], one request to copy (repeatable)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *from == "" || len(routes) == 0 {
		return fmt.Errorf("expected -from and at least one -route")
	}
	answers := map[string]*answer{}
	for _, rt := range routes {
		method, rest, _ := strings.Cut(rt, " ")
		uri, body, _ := strings.Cut(rest, " ")
		a, err := capture(*from, method, uri, body, headers)
		if err != nil {
			return fmt.Errorf("route %q: %w", rt, err)
		}
		answers[method+" "+uri] = a
	}
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		a, ok := answers[r.Method+" "+r.RequestURI]
		if !ok {
			http.NotFound(w, r)
			return
		}
		for k, v := range a.header {
			w.Header()[k] = v
		}
		w.WriteHeader(a.status)
		w.Write(a.body)
	})
	fmt.Printf("bare: serving %d answers on %s\n", len(answers), *addr)
	srv := &http.Server{Addr: *addr, Handler: h, ReadHeaderTimeout: 10 * time.Second}
	return srv.ListenAndServe()
}

// capture sends one request to base and keeps its answer.
func capture(base, method, uri, body string, headers []string) (*answer, error) {
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, base+uri, rd)
	if err != nil {
		return nil, err
	}
	for _, h := range headers {
		k, v, ok := strings.Cut(h, ":")
		if !ok {
			return nil, fmt.Errorf("-H %q: expected Name: value", h)
		}
		req.Header.Set(strings.TrimSpace(k), strings.TrimSpace(v))
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode >= 300 {
		return nil, fmt.Errorf("status %d: %s", resp.StatusCode, b)
	}
	hdr := resp.Header.Clone()
	hdr.Del("Date")
	hdr.Del("Content-Length")
	if len(resp.TransferEncoding) == 0 && resp.ContentLength >= 0 {
		hdr.Set("Content-Length", fmt.Sprint(resp.ContentLength))
	}
	return &answer{status: resp.StatusCode, header: hdr, body: b}, nil
}
