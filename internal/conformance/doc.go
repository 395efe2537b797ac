// Package conformance checks the canonical shape that the universal
// package's Conventions promise for every agent: [Check] finds the places
// where one stream breaks a rule (tool calls and results under the
// message of their response, sub-agent items under a task call, one
// message per model response, a tool kind on every call, failed commands
// as failed results, session endings), and [Project] reduces a stream to
// what a client depends on, so that the same scenario can be compared
// across agents and across the formats of one agent.
//
// The package is internal: it is the test of the promise, used by the
// golden harness and by this package's own tests over every recorded
// session.
package conformance
