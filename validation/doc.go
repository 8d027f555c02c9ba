// Package validation runs a project's checks — builds, vet, type checks,
// tests — and gives the caller their outcome: pass or fail, exit code,
// duration, and every diagnostic and failing test with its location, as
// results and as evidence records of kind validation.
//
// # Commands
//
// A [Command] is an argument vector with a timeout; [Detect] proposes the
// defaults for the ecosystems it finds (go build and go vet for a go.mod;
// tsc --noEmit for a tsconfig.json when a tsc outside the project is on
// the PATH). Nothing that runs the repository's own code is a default, and
// a program that resolves inside the project root is refused. Commands run
// through the project's safe subprocess runner only: the resolved absolute
// program, an argument vector, the project root as working directory, a
// small environment ([PassEnv], GOTOOLCHAIN=local so that no toolchain is
// downloaded), a timeout and an output cap.
//
// # Outputs
//
// [ParseGoOutput] reads the go command, the compiler and go vet
// ("file.go:line:col: message"); [ParseGoTestJSON] reads go test -json
// (each failing test with its package, name, output and the file and line
// of its failure, build failures included); [ParseTSCOutput] reads tsc
// ("file.ts(line,col): error TSnnnn: message"). A [Result] holds the
// diagnostics with paths relative to the project root; a diagnostic
// located outside it is dropped and counted.
//
// # Never on a read-only question
//
// [Run] (and [Provider.Run]) runs the commands and stores the [Outcome] in
// .codecortex/validation/last.json; it is what a host calls when the user
// asks for validation. [Provider.Gather] answers questions from that stored
// outcome and never starts a process, unless the host set
// [Options].RunOnQuery and the query names the validation kind explicitly.
// A diagnostic in a file changed since the run is marked stale, and the
// report says to run the checks again.
package validation
