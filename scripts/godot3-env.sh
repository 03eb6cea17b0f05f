# Sourced by the scripts/godot3-*.sh scripts: a throw-away project directory for headless
# Godot 3 runs and a function running one GDScript with it.
#   godot3_run /abs/script.gd [args after --...]
# Environment: GODOT3 (engine binary, default godot3-server), GODOT3_TIMEOUT (seconds, default 120).
GODOT3=${GODOT3:-godot3-server}
GODOT3_TIMEOUT=${GODOT3_TIMEOUT:-120}
GODOT3_TMP=$(mktemp -d)
trap 'rm -rf "$GODOT3_TMP"' EXIT
mkdir -p "$GODOT3_TMP/project"
cat > "$GODOT3_TMP/project/project.godot" <<'PROJ'
config_version=4

[logging]

file_logging/enable_file_logging=false
file_logging/enable_file_logging.pc=false
PROJ

godot3_run() {
	script=$1
	shift
	LANG=en_US.UTF-8 LC_ALL=en_US.UTF-8 timeout "$GODOT3_TIMEOUT" \
		"$GODOT3" --no-window --path "$GODOT3_TMP/project" -s "$script" -- "$@"
}
