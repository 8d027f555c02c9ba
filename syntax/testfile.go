package syntax

import (
	"path"
	"strings"
)

// IsTestFile reports whether a path follows a test naming convention:
// foo_test.go, test_foo.py, foo_test.py, foo.test.ts, foo.spec.js,
// FooTest.java, FooTests.cs, foo_spec.rb, or a file under a tests or
// __tests__ directory.
func IsTestFile(p string) bool {
	name := path.Base(p)
	ext := path.Ext(name)
	stem := strings.TrimSuffix(name, ext)
	switch ext {
	case ".go":
		return strings.HasSuffix(stem, "_test")
	case ".py":
		if strings.HasPrefix(stem, "test_") || strings.HasSuffix(stem, "_test") || stem == "conftest" {
			return true
		}
	case ".js", ".jsx", ".ts", ".tsx", ".mjs", ".cjs", ".mts", ".cts":
		if strings.HasSuffix(stem, ".test") || strings.HasSuffix(stem, ".spec") {
			return true
		}
	case ".java", ".kt", ".cs", ".scala":
		if strings.HasSuffix(stem, "Test") || strings.HasSuffix(stem, "Tests") {
			return true
		}
	case ".rb":
		if strings.HasSuffix(stem, "_spec") || strings.HasSuffix(stem, "_test") {
			return true
		}
	case ".rs", ".c", ".cc", ".cpp", ".php", ".kts":
		if strings.HasSuffix(stem, "_test") || strings.HasPrefix(stem, "test_") || strings.HasSuffix(stem, "Test") {
			return true
		}
	default:
		return false
	}
	for _, d := range strings.Split(path.Dir(p), "/") {
		if d == "__tests__" || d == "tests" || d == "test" || d == "spec" {
			return true
		}
	}
	return false
}
