#!/usr/bin/env bash
# Installs the Debian packages asktui's checks need beyond Go: the OpenSSH
# client, for the end-to-end test of `serve --ssh` with a real client; and
# for the check of the .deb (scripts/check-deb.sh), man-db to open its man
# page, and bash-completion and zsh to find its completions as they would
# once installed. .ci/run calls it; it does nothing when everything is
# there already.
#
#   bash scripts/deps.sh
#
# It installs with apt-get as root, or through sudo when that needs no
# password; otherwise it says what to install and fails.
set -euo pipefail

missing=()
command -v ssh >/dev/null || missing+=(openssh-client)
command -v man >/dev/null || missing+=(man-db)
[[ -r /usr/share/bash-completion/bash_completion ]] || missing+=(bash-completion)
command -v zsh >/dev/null || missing+=(zsh)

if ((${#missing[@]} == 0)); then
	exit 0
fi

apt=(apt-get)
if [[ $(id -u) != 0 ]]; then
	if sudo -n true 2>/dev/null; then
		apt=(sudo -n apt-get)
	else
		echo "asktui's tests need: ${missing[*]}; install them (sudo apt-get install ${missing[*]}) and run again" >&2
		exit 1
	fi
fi
echo "installing ${missing[*]}"
DEBIAN_FRONTEND=noninteractive "${apt[@]}" update -qq
DEBIAN_FRONTEND=noninteractive "${apt[@]}" install -y -qq --no-install-recommends "${missing[@]}"
