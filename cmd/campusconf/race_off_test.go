//go:build !race

package main

// raceEnabled is true when the race detector is on (race_on_test.go).
const raceEnabled = false
