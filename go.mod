module github.com/codecortex/codecortex

go 1.26
