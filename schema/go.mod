// The published JSON Schema of agentnorm's events and its test, in a
// module of its own so that the validator the test uses is no dependency
// of the library.
module github.com/agentnorm/agentnorm/schema

go 1.26.0

require github.com/santhosh-tekuri/jsonschema/v6 v6.0.3

require golang.org/x/text v0.14.0 // indirect
