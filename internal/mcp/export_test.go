package mcp

// Fixture is fixture for the external tests.
var Fixture = fixture
