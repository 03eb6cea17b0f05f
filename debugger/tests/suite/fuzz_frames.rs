//! The body of the `frames` fuzz target (`debugger/fuzz`), and its seeds replayed: bytes from
//! a game, as either dialect, through the frame reader and the session. The first byte picks
//! the dialect (bit 0: Godot 3) and the size of the reads the rest is cut into (the other
//! bits, at least 1); every event is taken and a break answered. Nothing may panic.

use godot_serde_debugger::{Command, Event, Limits, Protocol, Session};

/// The events of `data` (the fuzz target ignores them).
pub fn frames(data: &[u8]) -> Vec<Event> {
    let Some((&head, rest)) = data.split_first() else {
        return Vec::new();
    };
    let protocol = if head & 1 == 0 {
        Protocol::Godot4
    } else {
        Protocol::Godot3
    };
    // Small limits, so that inputs reach them.
    let limits = Limits {
        max_frame_size: 4096,
        max_items: 64,
        max_message_size: 8192,
        ..Limits::default()
    };
    let mut session = Session::new(protocol, limits);
    let mut events = Vec::new();
    for piece in rest.chunks(usize::from(head >> 1).max(1)) {
        session.receive(piece);
        while let Some(event) = session.poll_event() {
            if matches!(event, Event::DebugEnter(_)) {
                let _ = session.send(Command::GetStackDump);
                let _ = session.send(Command::Continue);
            }
            events.push(event);
        }
    }
    session.close(None);
    events.extend(std::iter::from_fn(|| session.poll_event()));
    let _ = session.take_outgoing();
    events
}

#[cfg(test)]
mod tests {
    use super::frames;
    use godot_serde_debugger::Event;

    fn seed(name: &str) -> Vec<u8> {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/fuzz/seeds/frames/");
        std::fs::read(format!("{path}{name}")).unwrap()
    }

    fn kinds(events: &[Event]) -> Vec<&'static str> {
        events
            .iter()
            .map(|e| match e {
                Event::Pid(_) => "pid",
                Event::DebugEnter(_) => "debug_enter",
                Event::DebugExit => "debug_exit",
                Event::StackDump(_) => "stack",
                Event::Variables(_) => "variables",
                Event::SceneTree(_) => "tree",
                Event::Bandwidth(_) => "bandwidth",
                Event::RpcProfile(_) => "rpc",
                Event::Monitors(_) => "monitors",
                Event::Disconnected { .. } => "disconnected",
                _ => "other",
            })
            .collect()
    }

    /// The seeds are well-formed sessions (written by hand from the engines' layouts, read in
    /// 8-byte pieces): every message is typed, none is bad.
    #[test]
    fn seeds_replay_as_typed_events() {
        assert_eq!(
            kinds(&frames(&seed("godot4"))),
            [
                "pid",
                "debug_enter",
                "stack",
                "variables",
                "rpc",
                "bandwidth",
                "tree",
                "debug_exit",
                "disconnected"
            ]
        );
        assert_eq!(
            kinds(&frames(&seed("godot3"))),
            [
                "debug_enter",
                "bandwidth",
                "monitors",
                "debug_exit",
                "disconnected"
            ]
        );
        // Any prefix of a seed: events or a bad frame, no panic.
        let all = seed("godot4");
        for end in 0..all.len() {
            frames(all.get(..end).unwrap());
        }
    }
}
