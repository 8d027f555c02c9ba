package syntax

// A Span is a half-open byte span of a source, [Start, End).
type Span struct {
	Start, End int
}
