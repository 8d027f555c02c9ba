package safeexec_test

import (
	"context"
	"fmt"
	"time"

	"github.com/codecortex/codecortex/internal/safeexec"
)

func ExampleRun() {
	echo, err := safeexec.LookPath("echo")
	if err != nil {
		fmt.Println("no echo here")
		return
	}
	res, err := safeexec.Run(context.Background(), safeexec.Invocation{
		Path:      echo,
		Args:      []string{"hello; rm -rf /"}, // one argument, never a shell
		Timeout:   10 * time.Second,
		MaxStdout: 1 << 10,
	})
	fmt.Printf("%q %v %v\n", res.Stdout, res.StdoutTruncated, err)
	// Output:
	// "hello; rm -rf /\n" false <nil>
}
