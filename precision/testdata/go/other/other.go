// Package other exports a type with the same name as package shapes.
package other

// Shape is not the shapes.Shape interface.
type Shape struct{ Name string }

/* 日本 */ func (s Shape) Label() string { x := s.Name; return x }
