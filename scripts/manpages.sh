#!/bin/sh
# Writes asktui's man page to manpages/, for the release archives,
# packages and Homebrew cask (a goreleaser before hook). asktui runs built
# as in scripts/completions.sh, which says why.
set -e
rm -rf manpages
mkdir manpages
CGO_ENABLED=0 go run -trimpath . man | gzip -c -9 >manpages/asktui.1.gz
