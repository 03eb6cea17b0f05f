//! A synchronizer's state as one struct (`replication::typed::TypedSync`): fields go to their
//! properties by path, whatever the config's order; a config and a struct that do not match
//! are refused naming the difference.

use godot_serde::{Variant, Vector2};
use godot_serde_multiplayer::replication::typed::TypedSync;
use godot_serde_multiplayer::replication::{ReplicationConfig, ReplicationMode};
use godot_serde_multiplayer::{ProtocolError, Session, Settings};
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, Default, Debug, PartialEq, Clone)]
struct Player {
    name: String,
    position: Vector2,
    #[serde(rename = "Sprite:frame")]
    frame: i64,
}

fn ann() -> Player {
    Player {
        name: "Ann".into(),
        position: Vector2::new(1.0, 2.0),
        frame: 3,
    }
}

#[test]
fn declared_from_the_struct() {
    let player = TypedSync::<Player>::new("Sync", ReplicationMode::Always)
        .unwrap()
        .property("Sprite:frame", false, ReplicationMode::OnChange)
        .property("name", true, ReplicationMode::Always);
    let props = player.synchronizer().config.properties();
    let got: Vec<_> = props
        .iter()
        .map(|p| (p.path.as_str(), p.spawn, p.mode))
        .collect();
    assert_eq!(
        got,
        [
            (".:name", true, ReplicationMode::Always),
            (".:position", true, ReplicationMode::Always),
            ("Sprite:frame", false, ReplicationMode::OnChange),
        ]
    );
    assert_eq!(
        player.values(&ann()).unwrap(),
        [
            Variant::from("Ann"),
            Variant::Vector2(Vector2::new(1.0, 2.0)),
            Variant::Int(3)
        ]
    );
}

#[test]
fn a_config_in_another_order_gets_each_field_in_its_property() {
    // The editor's order: frame, position, name.
    let config = ReplicationConfig::new()
        .property("Sprite:frame")
        .property(".:position")
        .property(".:name");
    let player = TypedSync::<Player>::with_config("Sync", config).unwrap();
    let mut session = Session::server(Settings::default());
    let sync = session
        .declare_synchronizer(
            player.synchronizer().clone(),
            player.values(&ann()).unwrap(),
        )
        .unwrap();
    assert_eq!(
        session.state(sync).unwrap(),
        [
            Variant::Int(3),
            Variant::Vector2(Vector2::new(1.0, 2.0)),
            Variant::from("Ann")
        ]
    );
    assert_eq!(player.get(&session, sync).unwrap(), ann());
    // By position (the session's state_as), the same values fill the wrong fields.
    assert!(session.state_as::<Player>(sync).is_err());
    let bo = Player {
        name: "Bo".into(),
        ..ann()
    };
    player.set(&mut session, sync, &bo).unwrap();
    assert_eq!(session.state(sync).unwrap()[2], Variant::from("Bo"));
    assert_eq!(player.get(&session, sync).unwrap(), bo);
}

#[test]
fn a_config_that_is_not_the_struct_is_refused() {
    let missing = ReplicationConfig::new()
        .property(".:name")
        .property(".:position");
    match TypedSync::<Player>::with_config("Sync", missing) {
        Err(ProtocolError::Replication(m)) => assert!(m.contains("field \"Sprite:frame\""), "{m}"),
        other => panic!("{other:?}"),
    }
    let extra = ReplicationConfig::new()
        .property(".:name")
        .property(".:position")
        .property("Sprite:frame")
        .property(".:hp");
    match TypedSync::<Player>::with_config("Sync", extra) {
        Err(ProtocolError::Replication(m)) => assert!(m.contains("property \".:hp\""), "{m}"),
        other => panic!("{other:?}"),
    }
    // A state of the wrong length, a value that does not fit its field.
    let player = TypedSync::<Player>::new("Sync", ReplicationMode::Always).unwrap();
    assert!(matches!(
        player.state_from(&[Variant::from("Ann")]),
        Err(ProtocolError::Replication(_))
    ));
    assert!(matches!(
        player.state_from(&[Variant::Int(1), Variant::Nil, Variant::Int(3)]),
        Err(ProtocolError::ArgumentType { .. })
    ));
}
