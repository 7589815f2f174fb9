package main

import "github.com/campusconf/campusconf/reports"

// consoleText makes text that may come from a target safe to print; see
// reports.SafeText.
func consoleText(s string) string { return reports.SafeText(s) }
