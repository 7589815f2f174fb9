package pace

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// ParseRate reads a rate as the flags take it (`--rate` of run and of
// load, one syntax): "N/s" or "N/min", N a positive number of requests;
// "" and "0" mean no cap (0). It returns requests per second.
func ParseRate(s string) (float64, error) {
	s = strings.TrimSpace(s)
	if s == "" || s == "0" {
		return 0, nil
	}
	num, unit, ok := strings.Cut(s, "/")
	per := 0.0
	switch strings.TrimSpace(unit) {
	case "s":
		per = 1
	case "min":
		per = 60
	}
	n, err := strconv.ParseFloat(strings.TrimSpace(num), 64)
	if !ok || per == 0 || err != nil || n <= 0 || math.IsInf(n, 0) || math.IsNaN(n) {
		return 0, fmt.Errorf("rate %q: expected N/s or N/min with N a positive number of requests, e.g. 20/s", s)
	}
	return n / per, nil
}

// FormatRate writes a rate in requests per second as ParseRate reads it.
func FormatRate(perSecond float64) string {
	if perSecond <= 0 {
		return "0"
	}
	return strconv.FormatFloat(perSecond, 'f', -1, 64) + "/s"
}
