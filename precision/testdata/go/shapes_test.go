package shapes

import "testing"

func TestTotal(t *testing.T) {
	if Total([]Shape{Unit}) != 1 {
		t.Fatal("é")
	}
}
