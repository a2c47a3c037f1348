package tools

import (
	"encoding/base64"
	"fmt"

	"github.com/selenium-flow/selenium-flow/internal/refusal"
)

// missing refuses a call that left out a required argument.
func missing(arg, example string) error {
	return refusal.New(fmt.Sprintf("The argument %q is required.", arg), "Pass "+example+".")
}

// encode is base64 for image content.
func encode(b []byte) string { return base64.StdEncoding.EncodeToString(b) }
