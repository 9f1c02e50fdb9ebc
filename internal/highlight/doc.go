// Package highlight colours source code for the terminal with chroma:
// fenced code in the Markdown agents write, and the files of a diff.
//
// It has its own, curated set of chroma's lexers (lexers.txt: the
// languages agents write, about fifty), where chroma's lexers package
// parses the definitions of all of its 240 languages in its initialiser,
// about 25 ms and 2 MB before main runs in every process that links it.
// Here nothing is parsed until the first code is highlighted: then the
// set is registered (each definition's header only), and a lexer's rules
// are compiled the first time it is used.
//
// The definitions in lexers/ are chroma's own, copied from the chroma
// module go.mod requires (go generate runs gen.go; TestLexersAreChromas
// checks they match), except Go's, which chroma writes in Go and this
// package in golang.go.
package highlight

//go:generate go run gen.go
