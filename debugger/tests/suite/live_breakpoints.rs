//! Breakpoints and stepping against live Godot 4.6 and 3.2.3 games: a breakpoint set while the
//! game runs stops it there (`debug_enter` with the reason "Breakpoint", can continue), `next`
//! stops at the following line, and after the breakpoint is cleared `continue` lets the game
//! finish.

use godot_serde_debugger::{Command, Event};
use godot_serde_test_support::engine::Engine;

use crate::game;

/// Line 9 (`x += 1`) runs every frame, line 10 follows it; the game quits with 3 once the
/// debugger sets `done` on the script's object (its id printed with "ready").
fn script(engine: Engine) -> String {
    game::ready_loop_script(engine, "", "frames")
}

fn breakpoints(which: Engine) {
    let Some(game::Launched { mut game, run, dir }) = game::launch(
        which,
        "debugger::live_breakpoints",
        "dbg_bp",
        &script(which),
        &[],
    ) else {
        return;
    };
    let id = game::ready_id(&mut game);
    let callback = game::callback(which);
    let at = |line| game::frame(callback, line);
    game::breakpoint(&mut game, 9, true);
    let (b, stack) = game::wait_break(&mut game);
    assert!(b.can_continue, "{b:?}");
    assert_eq!(b.reason, "Breakpoint");
    assert_eq!(stack, [at(9)]);
    // `next` runs line 9 and stops at line 10.
    game.send(Command::Next).unwrap();
    let (b, stack) = game::wait_break(&mut game);
    assert!(b.can_continue);
    assert_eq!(stack, [at(10)]);
    game::breakpoint(&mut game, 9, false);
    game.send(Command::Continue).unwrap();
    let end = game::end_on_done(&mut game, id, false);
    assert!(
        !end.iter().any(|e| matches!(e, Event::DebugEnter(_))),
        "stopped again after the breakpoint was cleared: {end:?}"
    );
    game::exited(run, 3);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn godot4_breakpoint_next_and_clear() {
    breakpoints(Engine::Godot4);
}

#[test]
fn godot3_breakpoint_next_and_clear() {
    breakpoints(Engine::Godot3);
}
