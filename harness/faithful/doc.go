// Package faithful holds the dual of the kill matrix: the test that runs the
// conformance suite against the simulator with each faithful variant
// (simulator/variants) alone and with all of them together, and requires a
// conformant verdict with no failed scenario, MUST or SHOULD, and exactly
// the skips each variant's fixture implies. A variant makes another choice
// where the specification is silent or permissive, so a failure here is the
// suite holding the simulator's own habit against an implementation.
// docs/variants.md lists the variants and what the suite does with each;
// TestVariantsDoc generates it (-update) from the variants, its rows and
// testdata/variants.md.tmpl.
package faithful
