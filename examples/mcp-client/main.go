// Command mcp-client is a host program that talks to cortex the way a
// coding agent does: it starts `cortex mcp` over standard input and
// output, lists the tools, and calls one, cortex_ask, printing the
// structured result.
//
//	go run ./examples/mcp-client -C . "where is NewEngine defined?"
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	cortex := flag.String("cortex", "cortex", "the cortex `binary` to start")
	dir := flag.String("C", ".", "the project `dir` cortex answers about")
	budget := flag.Int("budget", 2000, "the result's token `budget`")
	flag.Parse()
	question := strings.Join(flag.Args(), " ")
	if question == "" {
		fmt.Fprintln(os.Stderr, `usage: mcp-client [-cortex BINARY] [-C DIR] [-budget N] "QUESTION"`)
		os.Exit(2)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := run(ctx, os.Stdout, exec.Command(*cortex, "mcp", "-C", *dir), question, *budget); err != nil {
		fmt.Fprintln(os.Stderr, "mcp-client:", err)
		os.Exit(1)
	}
}

// run starts the server cmd, asks it question with cortex_ask and writes
// what it answers to w.
func run(ctx context.Context, w io.Writer, cmd *exec.Cmd, question string, budget int) error {
	client := mcp.NewClient(&mcp.Implementation{Name: "mcp-client-example", Version: "1.0.0"}, nil)
	session, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		return fmt.Errorf("starting %s: %w", strings.Join(cmd.Args, " "), err)
	}
	defer session.Close()

	tools, err := session.ListTools(ctx, nil)
	if err != nil {
		return err
	}
	var names []string
	for _, t := range tools.Tools {
		names = append(names, t.Name)
	}
	fmt.Fprintf(w, "%d tools: %s\n\n", len(names), strings.Join(names, ", "))

	res, err := session.CallTool(ctx, &mcp.CallToolParams{
		Name:      "cortex_ask",
		Arguments: map[string]any{"question": question, "budget": budget},
	})
	if err != nil {
		return err // a protocol error: the server could not be asked
	}
	if res.IsError {
		// A tool error says why and what to do, for the agent to act on.
		for _, c := range res.Content {
			if t, ok := c.(*mcp.TextContent); ok {
				return errors.New(t.Text)
			}
		}
		return errors.New("cortex_ask failed")
	}
	// The structured result: the route, then the evidence, strongest
	// first, each with its location and trust tier.
	var answer struct {
		Intent  string `json:"intent"`
		Records []struct {
			Kind, Trust, Provider, Path, Symbol string
			StartLine                           int `json:"start_line"`
		} `json:"records"`
		Omitted struct {
			Omitted int    `json:"omitted"`
			Note    string `json:"note"`
		} `json:"omitted"`
	}
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, &answer); err != nil {
		return err
	}
	fmt.Fprintf(w, "intent: %s\n", answer.Intent)
	for _, r := range answer.Records {
		loc := "(no location)"
		if r.Path != "" {
			loc = fmt.Sprintf("%s:%d", r.Path, r.StartLine)
		}
		fmt.Fprintf(w, "  %-11s %-16s %s %s (%s)\n", r.Trust, r.Kind, loc, r.Symbol, r.Provider)
	}
	if answer.Omitted.Omitted > 0 {
		fmt.Fprintf(w, "%d more left out: %s\n", answer.Omitted.Omitted, answer.Omitted.Note)
	}
	return nil
}
