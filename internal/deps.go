//go:build tools

// Package internal holds small shared helpers; this file pins module
// dependencies that are wired in later steps, so `go mod tidy` keeps them.
package internal

import (
	_ "github.com/brianvoe/gofakeit/v7"
	_ "github.com/chromedp/chromedp"
	_ "github.com/cucumber/godog"
	_ "github.com/getkin/kin-openapi/openapi3filter"
	_ "github.com/google/go-cmp/cmp"
	_ "github.com/testcontainers/testcontainers-go"
	_ "github.com/tidwall/gjson"
)
