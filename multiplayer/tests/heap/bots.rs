//! Memory per bot of a swarm (`bots::Swarm`): N ENet bots started against a UDP socket that
//! never answers (so only the swarm allocates: each bot's record, session with its declared
//! table, and its ENet connection), at N = 250 and N = 1,000 in the same run.

use std::time::Duration;

use godot_serde_multiplayer::bots::{Bot, Swarm, SwarmConfig};
use godot_serde_multiplayer::{EnetLimits, Limits, RpcMethod, RpcTable, Settings};

use crate::{HEAP, alone};

/// The heap the swarm of `n` bots holds once every bot started (its connection asked for).
fn swarm_heap(n: usize, limits: Limits) -> usize {
    let silent = std::net::UdpSocket::bind("127.0.0.1:0").unwrap();
    let before = HEAP.current_usage();
    let config = SwarmConfig::enet(silent.local_addr().unwrap(), n)
        .settings(Settings::default().with_limits(limits))
        .declare(RpcTable::new("Swarm").with(RpcMethod::any_peer("echo")));
    let mut swarm = Swarm::new(config, |_: &mut Bot<'_>| {});
    for _ in 0..3 {
        swarm.service().unwrap();
        std::thread::sleep(Duration::from_millis(1));
    }
    assert_eq!(swarm.stats().started, n);
    let held = HEAP.current_usage().saturating_sub(before);
    drop(swarm);
    held
}

#[test]
fn memory_per_bot_is_bounded_and_linear() {
    let _alone = alone();
    for (what, limits, budget) in [
        // Godot's default: every ENet channel (255), each with its records in the peer
        // (22,552 bytes per bot measured).
        (
            "255 ENet channels (Godot's default)",
            Limits::default(),
            28_000,
        ),
        // A game that uses user channel 0 only: 2 + 1 channels (2,394 bytes measured).
        (
            "3 ENet channels (user_channels 1)",
            Limits::default().with_enet(EnetLimits::default().with_user_channels(1)),
            3_000,
        ),
    ] {
        let small = swarm_heap(250, limits);
        let large = swarm_heap(1_000, limits);
        let per_bot = (large - small) / 750;
        println!(
            "{what}: {small} bytes for 250 bots, {large} for 1,000: {per_bot} bytes per bot, ratio {:.2}",
            large as f64 / small as f64
        );
        assert!(per_bot < budget, "{what}: {per_bot} bytes per bot");
        // Linear in the bots: 4 times the bots, at most 4.4 times the memory.
        assert!(large * 10 <= small * 44, "{what}: {small} then {large}");
    }
}

/// What a bot's session holds for each peer a relaying server announces (SYS ADD_PEER, as
/// Godot's `server_relay` does for every client): with N bots on such a server, each bot
/// holds N − 1 of these (at most 4,094: ENet's peer ids). A bot sends no path to another bot
/// and replicates nothing to it: the peer is its id in the path cache's and replication's
/// sorted vectors of connected peers (4 bytes each, a vector at most twice its entries):
/// 16 bytes. (Each peer's records took 519 bytes before they were made lazily.)
#[test]
fn memory_per_announced_peer() {
    use godot_serde_multiplayer::{Session, TransferMode, wire};
    let _alone = alone();
    let mut s = Session::client(5, Settings::default());
    s.declare(RpcTable::new("Swarm").with(RpcMethod::any_peer("echo")));
    s.connected(1, crate::clock::at_ms(0));
    // Warm the queues up, so their capacity is not counted per peer.
    for round in 0..2 {
        for p in 10..100 {
            let mut d = Vec::new();
            wire::write_sys(&mut d, wire::SYS_ADD_PEER + round, p);
            s.receive(1, 0, TransferMode::Reliable, &d);
        }
        while s.poll_event().is_some() {}
        while s.poll_output().is_some() {}
    }
    let before = HEAP.current_usage();
    for p in 10..1010 {
        let mut d = Vec::new();
        wire::write_sys(&mut d, wire::SYS_ADD_PEER, p);
        s.receive(1, 0, TransferMode::Reliable, &d);
        while s.poll_event().is_some() {}
    }
    assert_eq!(s.peers().count(), 1001);
    let per_peer = HEAP.current_usage().saturating_sub(before) / 1000;
    println!("a bot's session per announced peer: {per_peer} bytes");
    assert!(per_peer <= 16, "{per_peer} bytes per announced peer");
}
