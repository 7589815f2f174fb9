//go:build race

package main

// raceEnabled is true when the race detector is on: the slowest tests then
// run a sample, since the plain test run covers them whole.
const raceEnabled = true
