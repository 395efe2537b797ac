// Package reduce folds universal events into session state.
//
// The reducer has not landed yet.
package reduce
