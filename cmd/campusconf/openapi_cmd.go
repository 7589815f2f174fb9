package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/campusconf/campusconf/internal/openapi"
)

// openapiHelp is the help of the openapi command.
const openapiHelp = "Usage: campusconf openapi\n\nPrints the OpenAPI 3.0 document of the interface (also served at /openapi.json)."

// openapiCmd prints the OpenAPI document, indented.
func openapiCmd(args []string, stdout, stderr io.Writer) int {
	if code, goOn := noArgs("openapi", openapiHelp, args, stdout, stderr); !goOn {
		return code
	}
	var pretty bytes.Buffer
	if err := json.Indent(&pretty, openapi.JSON(), "", "  "); err != nil {
		fmt.Fprintf(stderr, "campusconf openapi: %v\n", err)
		return exitUsage
	}
	pretty.WriteByte('\n')
	if _, err := stdout.Write(pretty.Bytes()); err != nil {
		fmt.Fprintln(stderr, "campusconf openapi:", err)
		return exitFailed
	}
	return exitOK
}
