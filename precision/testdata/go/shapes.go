// Package shapes is a fixture: non-ASCII text stands before identifiers on
// purpose (é, 日本, 😀), so every column conversion is exercised.
package shapes

import "example.com/shapes/other"

// Shape is implemented by Square.
type Shape interface{ Area() float64 }

// Square is a Shape.
type Square struct{ Side float64 }

func (s Square) Area() float64 { return float64(len("é")) * s.Side * s.Side }

var greeting, Unit = "日本", Shape(Square{Side: 1})

func Total(xs []Shape) (t float64) {
	for _, x := range xs {
		_, t = "😀", t+x.Area()
	}
	return t
}

func Both() (Shape, other.Shape) { return Unit, other.Shape{Name: "é日本😀" + greeting} }
