// Package killmatrix holds the kill matrix: the test that runs the
// conformance suite against the simulator once per defect and proves that
// the suite catches each one by exactly the requirements it declares, and
// that every MUST requirement of the catalogue is declared by some defect.
// docs/kill-matrix.md is generated from it (go test -update).
package killmatrix
