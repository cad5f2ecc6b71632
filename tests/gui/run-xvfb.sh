#!/bin/sh
# Runs a GUI test on its own X server: xvfb-run picks a free display.
# Exit 77 (skipped) when there is no xvfb-run. A private D-Bus session is
# used when dbus-run-session exists, so GtkApplication finds a bus.
if ! command -v xvfb-run >/dev/null 2>&1; then
  echo "xvfb-run not found: skipping the GUI tests (apt-get install xvfb xauth)" >&2
  exit 77
fi
export GDK_BACKEND=x11
export GSK_RENDERER="${GSK_RENDERER:-cairo}"
export NO_AT_BRIDGE=1
export GTK_A11Y=none
export GDK_DEBUG="${GDK_DEBUG:-gl-disable}"
export GSETTINGS_BACKEND=memory
if command -v dbus-run-session >/dev/null 2>&1; then
  exec xvfb-run -a -s '-screen 0 1920x1200x24' dbus-run-session -- "$@"
fi
exec xvfb-run -a -s '-screen 0 1920x1200x24' "$@"
