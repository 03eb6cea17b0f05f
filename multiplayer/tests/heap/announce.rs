//! A join burst on a server with relay on: what it makes the session hold is bounded by the
//! round budgets (`Limits::announce_per_round`, 256 a client, and
//! `Limits::announce_per_round_total`, 16,384 all together), not by the square of the burst.
//! Before them, 1,000 joins in one frame queued 999,000 `SYS_ADD_PEER` packets at once
//! (40 MB; Godot's `_admit_peer` does the same).

use std::collections::HashMap;

use godot_serde_multiplayer::{Output, Session, Settings, wire};

use crate::{HEAP, alone};

const PEERS: i32 = 1_000;

/// The round's packets, as (to, the peer it is told of), checked to be SYS ADD_PEER.
fn drain(s: &mut Session) -> Vec<(i32, i32)> {
    drain_sys(s)
        .into_iter()
        .map(|(to, sub, about)| {
            assert_eq!(sub, wire::SYS_ADD_PEER);
            (to, about)
        })
        .collect()
}

/// The round's packets, as (to, SYS sub-command, the peer it is about).
fn drain_sys(s: &mut Session) -> Vec<(i32, u8, i32)> {
    let mut out = Vec::new();
    while let Some(o) = s.poll_output() {
        let Output::Packet { to, data, .. } = o else {
            panic!("{o:?}");
        };
        // SYS (7), ADD_PEER (0) or DEL_PEER (1), the peer as a little-endian u32:
        // `_admit_peer`'s and `_del_peer`'s buf.
        assert_eq!((data.len(), data[0]), (6, 7));
        out.push((
            to,
            data[1],
            i32::from_le_bytes(data[2..6].try_into().unwrap()),
        ));
    }
    out
}

#[test]
fn a_burst_is_announced_within_the_round_budgets() {
    let _alone = alone();
    let mut s = Session::server(Settings::default());
    let before = HEAP.current_usage();
    for peer in 2..PEERS + 2 {
        s.connected(peer, crate::clock::at_ms(0));
    }
    while s.poll_event().is_some() {}
    // What one frame of joins left queued: within the budgets. Each queued packet is an
    // `Output` in a deque (40 bytes) and a 6-byte Vec (a 16- to 32-byte allocation): at most
    // 16,384 × 72 bytes, about 1.2 MB, plus the peers' records (measured 1.27 MB); the
    // 999,000 packets of the code before held 40 MB.
    let held = HEAP.current_usage().saturating_sub(before);
    println!("{PEERS} joins in one round hold {held} bytes");
    assert!(held < 3 << 20, "{held} bytes held after one round of joins");
    let mut told: HashMap<i32, Vec<i32>> = HashMap::new();
    let mut rounds = 0;
    let mut first = true;
    loop {
        let round = drain(&mut s);
        let mut per_peer: HashMap<i32, usize> = HashMap::new();
        for &(to, about) in &round {
            *per_peer.entry(to).or_default() += 1;
            told.entry(to).or_default().push(about);
        }
        assert!(round.len() <= 16_384, "{} in one round", round.len());
        let most = per_peer.values().copied().max().unwrap_or(0);
        assert!(most <= 256, "{most} to one peer in one round");
        if first {
            // The first round is the frame of the joins: full.
            assert_eq!(round.len(), 16_384);
            first = false;
        }
        if s.announcing() == 0 && round.is_empty() {
            break;
        }
        rounds += 1;
        assert!(rounds < 1_000, "never done");
        s.announce_round(&|_| false);
    }
    // Everyone was told of everyone, in the order of admission (here the order of ids).
    for peer in 2..PEERS + 2 {
        let expected: Vec<i32> = (2..PEERS + 2).filter(|&p| p != peer).collect();
        assert_eq!(told.get(&peer), Some(&expected), "peer {peer}");
    }
    drop(told);
    // 999,000 notices at 16,384 a round: 61 rounds.
    assert_eq!(rounds, 999_000usize.div_ceil(16_384));
    // Announced, the queues drained: what is left is the peers' records (under a kilobyte
    // each, `session.rs`) and the output queue's capacity, one round's 16,384 entries
    // (about 1.3 MB at 40 bytes, a slot each up to the next power of two).
    let per_peer = HEAP.current_usage().saturating_sub(before) / PEERS as usize;
    println!("after the burst: {per_peer} bytes per peer");
    assert!(per_peer < 2 * 1024, "{per_peer} bytes per peer");
}

#[test]
fn a_congested_peer_waits_and_the_others_go_on() {
    let _alone = alone();
    let mut s = Session::server(
        Settings::default().with_limits(
            godot_serde_multiplayer::Limits::default()
                .with_announce_per_round(4)
                .with_announce_per_round_total(1_000),
        ),
    );
    for peer in 2..12 {
        s.connected(peer, crate::clock::at_ms(0));
    }
    drain(&mut s);
    // Peer 2 cannot take more; the others are served until they know everyone.
    for _ in 0..10 {
        s.announce_round(&|p| p == 2);
        assert!(drain(&mut s).iter().all(|&(to, _)| to != 2));
    }
    assert_eq!(s.announcing(), 1);
    s.announce_round(&|_| false);
    let last = drain(&mut s);
    assert!(!last.is_empty() && last.iter().all(|&(to, _)| to == 2));
}

#[test]
fn a_departure_burst_is_paced_too_and_ordered_before_a_return() {
    let _alone = alone();
    let mut s = Session::server(Settings::default());
    for peer in 2..PEERS + 2 {
        s.connected(peer, crate::clock::at_ms(0));
    }
    while s.announcing() > 0 {
        s.announce_round(&|_| false);
        drain_sys(&mut s);
    }
    drain_sys(&mut s);
    while s.poll_event().is_some() {}
    // Half leave in one round: 500 × 999 notices before, all at once (as Godot sends them).
    let before = HEAP.current_usage();
    HEAP.reset_peak_usage();
    for peer in (2..PEERS + 2).filter(|p| p % 2 == 0) {
        s.disconnected(peer);
    }
    // One of them comes back (the same id): it is told gone before it is told there.
    s.connected(2, crate::clock::at_ms(0));
    let held = HEAP.peak_usage().saturating_sub(before);
    println!("500 departures in one round: peak {held} bytes above the start");
    // At most one round's 16,384 notices (about 1.2 MB) and the departures' log.
    assert!(held < 3 << 20, "{held} bytes held");
    let mut told: HashMap<i32, Vec<(u8, i32)>> = HashMap::new();
    let mut rounds = 0;
    loop {
        let round = drain_sys(&mut s);
        assert!(round.len() <= 16_384, "{} in one round", round.len());
        for (to, sub, about) in round {
            told.entry(to).or_default().push((sub, about));
        }
        if s.announcing() == 0 {
            break;
        }
        rounds += 1;
        assert!(rounds < 1_000, "never done");
        s.announce_round(&|_| false);
    }
    drain_sys(&mut s)
        .into_iter()
        .for_each(|(to, sub, about)| told.entry(to).or_default().push((sub, about)));
    // Each one still there: the 500 departures in order, then peer 2 again.
    let mut expected: Vec<(u8, i32)> = (2..PEERS + 2)
        .filter(|p| p % 2 == 0)
        .map(|p| (wire::SYS_DEL_PEER, p))
        .collect();
    expected.push((wire::SYS_ADD_PEER, 2));
    for peer in (2..PEERS + 2).filter(|p| p % 2 == 1) {
        assert_eq!(told.get(&peer), Some(&expected), "peer {peer}");
    }
    // Peer 2, back, is told of the 500 still there, in admission order.
    let back: Vec<(u8, i32)> = (2..PEERS + 2)
        .filter(|p| p % 2 == 1)
        .map(|p| (wire::SYS_ADD_PEER, p))
        .collect();
    assert_eq!(told.get(&2), Some(&back));
    // 500 × 500 DEL_PEER + 2 × 500 ADD_PEER at 16,384 a round: 16 rounds (one more
    // where the 256 a peer cut a round short).
    assert!(
        rounds <= (500 * 500 + 1_000usize).div_ceil(16_384) + 1,
        "{rounds}"
    );
}
