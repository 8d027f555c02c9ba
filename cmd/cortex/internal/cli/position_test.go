package cli

import "testing"

// Positions name their file as the user's system writes it, Windows drives
// and backslashes included; the line and column are the last two numbers.
func TestParsePosition(t *testing.T) {
	tests := []struct {
		in        string
		file      string
		line, col int
		pos, bad  bool
	}{
		{in: "m.go:5:9", file: "m.go", line: 5, col: 9, pos: true},
		{in: `C:\Users\me\repo\m.go:5:9`, file: `C:\Users\me\repo\m.go`, line: 5, col: 9, pos: true},
		{in: `sub\m.go:12:1`, file: `sub\m.go`, line: 12, col: 1, pos: true},
		{in: "a:b.go:3:4", file: "a:b.go", line: 3, col: 4, pos: true},
		{in: "Engine.NewInstantQuery"},
		{in: "a::b"},
		{in: `C:\repo\m.go`, bad: true},
		{in: "m.go:0:1", bad: true},
		{in: "m.go:5", bad: true},
		{in: " ", bad: true},
	}
	for _, tt := range tests {
		file, line, col, pos, err := parsePosition(tt.in)
		if (err != nil) != tt.bad || pos != tt.pos || file != tt.file || line != tt.line || col != tt.col {
			t.Errorf("parsePosition(%q) = %q, %d, %d, %v, %v", tt.in, file, line, col, pos, err)
		}
	}
}
