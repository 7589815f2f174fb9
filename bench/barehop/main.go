//go:build ignore

// Command barehop is the bare reverse-proxy hop bench/proxy.sh measures
// `campusconf proxy` against: net/http/httputil.ReverseProxy with the same
// transport settings as the proxy (256 idle connections per host, no
// compression asked), and no checks. It is a separate program, not a
// hidden flag of the proxy, so that nothing of the proxy (its handler, its
// capture of bodies, its queues) can slip into the baseline.
//
//	go run bench/barehop/main.go -addr 127.0.0.1:18082 -target http://127.0.0.1:18080
package main

import (
	"flag"
	"log"
	"net/http"
	"net/http/httputil"
	"net/url"
	"time"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:18082", "address to listen on (loopback)")
	target := flag.String("target", "http://127.0.0.1:18080", "URL forwarded to")
	flag.Parse()
	u, err := url.Parse(*target)
	if err != nil {
		log.Fatal(err)
	}
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConnsPerHost = 256
	t.DisableCompression = true
	rp := &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			pr.SetURL(u)
			pr.Out.Header["X-Forwarded-For"] = pr.In.Header["X-Forwarded-For"]
			pr.SetXForwarded()
		},
		Transport: t,
	}
	srv := &http.Server{Addr: *addr, Handler: rp, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 120 * time.Second}
	log.Fatal(srv.ListenAndServe())
}
