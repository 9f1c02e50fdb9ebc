#!/bin/sh
# Writes asktui's man page to manpages/, for the release archives (a
# goreleaser before hook). fang provides the hidden `man` command.
set -e
rm -rf manpages
mkdir manpages
go run . man | gzip -c -9 >manpages/asktui.1.gz
