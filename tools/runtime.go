// Package tools is a module of its own that pins the OpenAPI client
// generators the project's tests run, ogen and oapi-codegen, as Go tool
// dependencies (go tool ogen, go tool oapi-codegen), with the runtime
// modules the code they generate imports. Keeping them out of the
// campusconf module means that vendors importing the conformance package do
// not inherit them. harness/genclients drives them; `go -C tools mod
// download` fetches them.
//
// The imports below keep the runtime modules in go.mod and go.sum through
// `go mod tidy`: the generated code is compiled against exactly these.
package tools

import (
	_ "github.com/go-faster/errors"
	_ "github.com/go-faster/jx"
	_ "github.com/google/uuid"
	_ "github.com/oapi-codegen/runtime"
	_ "github.com/oapi-codegen/runtime/types"
	_ "github.com/ogen-go/ogen/validate"
)
