// The recorded captures and golden files are test data of this repository,
// not part of the library: this go.mod makes testdata its own module, so
// the module that users download (github.com/agentnorm/agentnorm) does not
// carry tens of megabytes of recordings. Tests read these files by path.
module github.com/agentnorm/agentnorm/testdata

go 1.26.0
