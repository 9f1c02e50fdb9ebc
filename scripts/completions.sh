#!/bin/sh
# Writes asktui's shell completions to completions/, for the release
# archives (a goreleaser before hook).
set -e
rm -rf completions
mkdir completions
for sh in bash zsh fish; do
	go run . completion "$sh" >"completions/asktui.$sh"
done
