#!/bin/sh
# Writes asktui's shell completions to completions/, for the release
# archives, packages and Homebrew cask (a goreleaser before hook).
#
# asktui runs built as the release builds it (-trimpath, no cgo): the
# release build then reuses the compiled packages, `go run` caches the
# binary for the other hooks, and the cache holds in any directory, such
# as the copy .ci/run releases from.
set -e
rm -rf completions
mkdir completions
for sh in bash zsh fish; do
	CGO_ENABLED=0 go run -trimpath . completion "$sh" >"completions/asktui.$sh"
done
