#!/bin/sh
# Installs what planviz needs on Debian 12, or says exactly what to run.
# Usage: .ci/install-deps.sh   (as root: installs; otherwise prints the command)
set -eu

packages="meson ninja-build pkg-config gcc clang libclang-rt-14-dev
protobuf-c-compiler libprotobuf-c-dev libcjson-dev libglib2.0-dev
libgtk-4-dev libgtksourceview-5-dev libcairo2-dev libpango1.0-dev
xvfb xauth dbus-daemon xdotool fonts-dejavu-core python3-onnx time bc"

# onnxruntime-node (the reference ORT) needs Node.js; use the system's if any.
command -v node >/dev/null 2>&1 || packages="$packages nodejs npm"

missing=""
for p in $packages; do
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  case "$status" in
    *"install ok installed"*) ;;
    *) missing="$missing $p" ;;
  esac
done

if [ -z "$missing" ]; then
  exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
  echo "planviz needs these Debian packages. Run:" >&2
  echo "  sudo apt-get install -y$missing" >&2
  exit 1
fi

echo "Installing:$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
# shellcheck disable=SC2086
apt-get install -y -q --no-install-recommends $missing
