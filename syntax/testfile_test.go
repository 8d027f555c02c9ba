package syntax

import "testing"

func TestIsTestFile(t *testing.T) {
	for p, want := range map[string]bool{
		"a/b_test.go": true, "a/b.go": false, "test_x.py": true, "x_test.py": true, "conftest.py": true, "x.py": false,
		"src/a.test.ts": true, "src/a.spec.js": true, "src/a.mts": false, "FooTest.java": true, "FooTests.cs": true,
		"Foo.java": false, "a_spec.rb": true, "a_test.rs": true, "tests/helpers.py": true, "pkg/__tests__/util.js": true,
		"tests/data.json": false, "README.md": false, "test/x.c": true, "src/testing.go": false,
	} {
		if got := IsTestFile(p); got != want {
			t.Errorf("IsTestFile(%q) = %v, want %v", p, got, want)
		}
	}
}
