extends SceneTree
# The check of an editor-made SceneReplicationConfig against the Rust declaration: loads the
# generated declarations (res://decl.gd) and the generated synchronizer script that runs the
# check at _ready (res://checked_sync.gd), then adds three synchronizers with that script:
# the declared config, the same properties in another order, and another mode. Prints a CASE
# line per check result; the errors the checks push go to stderr.

const H = preload("res://harness.gd")

func synchronizer(name: String, config: SceneReplicationConfig) -> MultiplayerSynchronizer:
	var sync: MultiplayerSynchronizer = load("res://checked_sync.gd").new()
	sync.name = name
	sync.replication_config = config
	root.add_child(sync) # _ready: the check
	return sync

func _initialize() -> void:
	var decl = load("res://decl.gd")
	var good := synchronizer("Good", decl.player_config())
	H.case("declared accepted", decl.check_player(good))
	var swapped_config := SceneReplicationConfig.new()
	swapped_config.add_property(^".:position")
	swapped_config.add_property(^".:name")
	synchronizer("Swapped", swapped_config)
	var mode_config := SceneReplicationConfig.new()
	mode_config.add_property(^".:name")
	mode_config.property_set_replication_mode(^".:name", SceneReplicationConfig.REPLICATION_MODE_ON_CHANGE)
	mode_config.add_property(^".:position")
	synchronizer("Mode", mode_config)
	H.case("done", true)
	quit(0)
