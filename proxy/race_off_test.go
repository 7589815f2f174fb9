//go:build !race

package proxy

// raceEnabled is true when the race detector is on (race_on_test.go).
const raceEnabled = false
