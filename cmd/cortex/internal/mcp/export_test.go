package mcp

// Fixture is fixture for the external tests.
var Fixture = fixture

// NewServer is newServer for the external tests.
var NewServer = newServer
