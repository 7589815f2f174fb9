// Package genclients holds the test that generates Go clients from the
// project's OpenAPI document with two third-party generators (ogen and
// oapi-codegen, pinned as Go tool dependencies of the separate module in
// tools/) and decodes one recorded simulator answer of every operation and
// every status the document lists with each of them. The package has no
// code of its own: the generated code lives only in the test's temporary
// directory, so it is neither linted nor shipped.
package genclients
