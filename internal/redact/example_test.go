package redact_test

import (
	"fmt"

	"github.com/codecortex/codecortex/internal/redact"
)

func ExampleRedactor_String() {
	// The configured key, as read from its environment variable.
	r := redact.New("my-configured-key-42")
	fmt.Println(r.String("GET https://api.example.com/v1?key=my-configured-key-42 failed"))
	fmt.Println(r.String("Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.e30.abc"))
	fmt.Println(r.String(`{"password": "hunter2", "user": "bob"}`))
	fmt.Println(r.String("passwords are hashed"))
	// Output:
	// GET https://api.example.com/v1?key=[REDACTED] failed
	// Authorization: Bearer [REDACTED]
	// {"password": "[REDACTED]", "user": "bob"}
	// passwords are hashed
}
