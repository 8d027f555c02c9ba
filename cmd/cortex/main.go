// Command cortex is the reference command line of CodeCortex: it answers
// questions about the repository it runs in, with the evidence behind each
// answer. Run "cortex help" for the commands.
package main

import (
	"os"

	"github.com/codecortex/codecortex/cmd/cortex/internal/cli"
)

func main() { os.Exit(cli.Main()) }
