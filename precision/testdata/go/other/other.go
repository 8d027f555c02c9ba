// Package other exports a type with the same name as package shapes.
package other

// Shape is not the shapes.Shape interface.
type Shape struct{ Name string }

func (s Shape) Label() string { x := "日本" + s.Name; return x }
