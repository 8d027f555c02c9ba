package precision

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"testing"
)

// fakeServerEnv names the behaviour of the fake language server the test
// binary becomes when it is started with it set (see TestMain).
const fakeServerEnv = "CODECORTEX_FAKE_LSP"

func TestMain(m *testing.M) {
	if mode := os.Getenv(fakeServerEnv); mode != "" {
		os.Exit(fakeServer(mode, os.Stdin, os.Stdout))
	}
	os.Exit(m.Run())
}

// fakeLSP returns options that start the test binary as a fake server
// with the given behaviour:
//
//   - "silent": answers initialize, then nothing;
//   - "exit": answers initialize, then exits with status 3 and "boom" on
//     standard error at the first request.
func fakeLSP(t *testing.T, dir, mode string) LSPOptions {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return LSPOptions{Dir: dir, Command: []string{exe}, Env: []string{fakeServerEnv + "=" + mode}}
}

func fakeServer(mode string, in io.Reader, out io.Writer) int {
	r := bufio.NewReader(in)
	for {
		length := -1
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				return 0
			}
			line = strings.TrimSpace(line)
			if line == "" {
				break
			}
			if v, ok := strings.CutPrefix(line, "Content-Length:"); ok {
				length, _ = strconv.Atoi(strings.TrimSpace(v))
			}
		}
		body := make([]byte, max(length, 0))
		if _, err := io.ReadFull(r, body); err != nil {
			return 0
		}
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		json.Unmarshal(body, &msg)
		reply := func(result string) {
			b := fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":%s}`, msg.ID, result)
			fmt.Fprintf(out, "Content-Length: %d\r\n\r\n%s", len(b), b)
		}
		switch {
		case msg.Method == "initialize":
			reply(`{"capabilities":{}}`)
		case msg.Method == "shutdown":
			reply("null")
		case len(msg.ID) == 0:
			// notifications go unanswered
		case mode == "exit":
			fmt.Fprintln(os.Stderr, "boom")
			return 3
		}
	}
}
