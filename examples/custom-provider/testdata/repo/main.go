package main

// TODO(ana): read the port from the environment.
func main() {}

func helper() {} // TODO(bo): remove once the client is gone.
