//go:build !race

package killmatrix

// raceEnabled is true when the race detector is on: the matrix then runs a
// sample of the defects, since the plain test run covers them all.
const raceEnabled = false
