#!/bin/sh
# Installs the headless Godot 3.2.3 engine (Debian package godot3-server) used by the Godot 3
# conformance scripts, unless it is already there. Needs root (apt-get).
set -eu
command -v godot3-server >/dev/null 2>&1 || (apt-get update && apt-get install -y godot3-server)
command -v godot3-server
