//go:build race

package faithful

// raceEnabled is true when the race detector is on: the test then runs a
// sample of the variants, since the plain test run covers them all.
const raceEnabled = true
