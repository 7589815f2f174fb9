package front

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"strconv"
)

// MaxHeaderBytes bounds the request line and headers `campusconf serve`
// reads (http.Server.MaxHeaderBytes; net/http allows 4 KiB of slack on
// top). A request with more gets 431, with a JSON string body through
// JSONErrors. The interface's own headers are a key and a token.
const MaxHeaderBytes = 64 << 10

// JSONErrors wraps ln so that what http.Server answers by itself, before
// any handler runs, carries a JSON string body and Content-Type
// application/json like every other answer of the simulator: 400 for a
// request it cannot parse (a bad %-escape in the path, a malformed header,
// no Host), 431 for headers over MaxHeaderBytes, 501 for an unknown
// transfer encoding, 505 for an unknown protocol version, 417 for an
// Expect other than 100-continue. Everything else passes untouched.
//
// net/http writes those answers in one Write on the connection, in two
// fixed forms (status line, then exactly "Content-Type: text/plain;
// charset=utf-8" and "Connection: close"; or an error status with
// "Content-Length: 0" and no Content-Type). The simulator's own answers
// never match either: its errors are JSON, and the line breaks of a body
// are escaped by JSON. Should a Go release change the forms, the answers
// pass unchanged; TestServerLevelAnswersAreJSON would say so.
func JSONErrors(ln net.Listener) net.Listener { return jsonErrorListener{ln} }

type jsonErrorListener struct{ net.Listener }

func (l jsonErrorListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &jsonErrorConn{Conn: c}, nil
}

// jsonErrorConn rewrites the server's own error answers on the way out.
type jsonErrorConn struct{ net.Conn }

func (c *jsonErrorConn) Write(p []byte) (int, error) {
	out, ok := jsonServerAnswer(p)
	if !ok {
		return c.Conn.Write(p)
	}
	if _, err := c.Conn.Write(out); err != nil {
		return 0, err
	}
	return len(p), nil
}

// CloseWrite keeps http.Server's half-close before it drops a connection
// after a 431 (it looks for the method on the connection).
func (c *jsonErrorConn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}

const (
	textErrorHeaders = "\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n"
	emptyLength      = "\r\nContent-Length: 0\r\n"
)

// jsonServerAnswer returns p rewritten when it is one of http.Server's own
// error answers.
func jsonServerAnswer(p []byte) ([]byte, bool) {
	rest, ok := bytes.CutPrefix(p, []byte("HTTP/1.1 "))
	if !ok || len(rest) < 4 || rest[3] != ' ' {
		return nil, false
	}
	code, err := strconv.Atoi(string(rest[:3]))
	if err != nil || code < 400 {
		return nil, false
	}
	eol := bytes.Index(rest, []byte("\r\n"))
	if eol < 0 {
		return nil, false
	}
	statusLine := string(rest[:eol])
	var msg string
	switch after := rest[eol:]; {
	case bytes.HasPrefix(after, []byte(textErrorHeaders)):
		msg = string(after[len(textErrorHeaders):])
	case bytes.HasSuffix(after, []byte("\r\n\r\n")) && bytes.Contains(after, []byte(emptyLength)) &&
		!bytes.Contains(bytes.ToLower(after), []byte("\r\ncontent-type:")):
		msg = statusLine
	default:
		return nil, false
	}
	if code == 431 {
		msg += fmt.Sprintf(" (the request line and headers may hold %d bytes)", MaxHeaderBytes)
	}
	body, _ := json.Marshal("request refused before it reached an operation: " + msg)
	body = append(body, '\n')
	return fmt.Appendf(nil, "HTTP/1.1 %s\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: %d\r\n\r\n%s", statusLine, len(body), body), true
}
