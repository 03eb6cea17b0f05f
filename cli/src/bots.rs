//! `godot-serde bots`: a load generator of N Godot 4 clients (ENet or WebSocket) from this one
//! process (`godot_serde_multiplayer::bots::Swarm`), calling one `@rpc` method at a rate and
//! timing the server's answers; prints the statistics as text or JSON.

use std::io::Write;
use std::net::{SocketAddr, ToSocketAddrs};
use std::time::{Duration, Instant};

use clap::Args;
use godot_serde::Variant;
use godot_serde_multiplayer::bots::{Behaviour, Bot, Stats, Swarm, SwarmConfig};
use godot_serde_multiplayer::{BotLimits, Event, Limits, RpcMethod, RpcTable, Settings};

use crate::input::Failure;

/// `godot-serde bots`
#[derive(Args, Debug)]
pub struct BotsArgs {
    /// The server: HOST:PORT (ENet; with --ws, the WebSocket server's).
    #[arg(value_name = "ADDR")]
    pub addr: String,
    /// Bots.
    #[arg(long, value_name = "N", default_value_t = 10)]
    pub count: usize,
    /// Calls per second per bot (with --rpc).
    #[arg(long, value_name = "HZ", default_value_t = 10.0)]
    pub rate: f64,
    /// The method each bot calls on the server at --rate: NODE_PATH:METHOD, then optionally
    /// :ARGS in Godot's text form (an Array is the argument list: `[1, "hi"]`; any other value
    /// the one argument). Without it the bots only join and follow the server.
    #[arg(long, value_name = "NODE_PATH:METHOD[:ARGS_TEXT]")]
    pub rpc: Option<String>,
    /// Join over WebSocket (ws://ADDR/) instead of ENet.
    #[arg(long)]
    pub ws: bool,
    /// Bots started per second; 0: all at once.
    #[arg(long, value_name = "PER_S", default_value_t = 0.0)]
    pub ramp: f64,
    /// Seconds to run (from the first bot's start).
    #[arg(long, value_name = "S", default_value_t = 10.0)]
    pub duration: f64,
    /// Print the statistics as one JSON object.
    #[arg(long)]
    pub json: bool,
    /// The method of the node whose calls from the server answer ours, oldest first (the
    /// round-trip times); default: the called method (an echo).
    #[arg(long, value_name = "METHOD")]
    pub answer: Option<String>,
    /// The node's other `@rpc` methods, comma-separated: the node's RPC checksum and method
    /// ids cover all of its method names, so a bot must declare the whole set.
    #[arg(long, value_name = "METHODS", value_delimiter = ',')]
    pub methods: Vec<String>,
    /// The authentication data each bot sends when the server asks (its auth_callback).
    #[arg(long, value_name = "TEXT")]
    pub auth: Option<String>,
    /// ENet bots sharing one UDP socket (1 to 4095).
    #[arg(long, value_name = "N", default_value_t = 64)]
    pub per_socket: usize,
    /// Threads, each running its share of the bots.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub threads: usize,
}

/// The call of `--rpc`.
#[derive(Debug, Clone)]
struct Call {
    node: String,
    method: String,
    args: Vec<Variant>,
}

/// Reads `NODE_PATH:METHOD[:ARGS_TEXT]`.
fn parse_call(text: &str) -> Result<Call, Failure> {
    let mut parts = text.splitn(3, ':');
    let node = parts.next().unwrap_or_default().trim();
    let method = parts.next().unwrap_or_default().trim();
    if node.is_empty() || method.is_empty() {
        return Err(Failure::input(format!(
            "--rpc {text:?}: expected NODE_PATH:METHOD[:ARGS_TEXT], e.g. /root/Game:echo:[1]"
        )));
    }
    let args = match parts.next().map(str::trim) {
        None | Some("") => Vec::new(),
        Some(args) => match godot_serde::text::parse_variant(args) {
            Ok(Variant::Array(list)) => list.into_vec(),
            Ok(value) => vec![value],
            Err(e) => {
                return Err(Failure::input(format!(
                    "--rpc arguments {args:?} are not Godot's text form: {e}"
                )));
            }
        },
    };
    Ok(Call {
        node: node.to_owned(),
        method: method.to_owned(),
        args,
    })
}

/// Calls `call` each tick, timed; an RPC of `answer` on the same node takes the oldest.
struct Caller {
    call: Option<Call>,
    answer: String,
}

impl Behaviour for Caller {
    fn tick(&mut self, bot: &mut Bot<'_>) {
        if let Some(call) = &self.call {
            // An error is counted in the statistics.
            let _ = bot.call_timed_variants(&call.node, &call.method, &call.args);
        }
    }

    fn event(&mut self, bot: &mut Bot<'_>, event: &Event) {
        if let (Event::Rpc(rpc), Some(call)) = (event, &self.call) {
            if rpc.method == self.answer && same_node(&rpc.path, &call.node) {
                bot.answered();
            }
        }
    }
}

/// Whether two node paths name one node (`/root/Game` and `Game` both: relative to the
/// multiplayer root).
fn same_node(a: &str, b: &str) -> bool {
    let strip = |p: &str| {
        let p = p.trim_start_matches('/');
        p.strip_prefix("root/").unwrap_or(p).to_owned()
    };
    strip(a) == strip(b)
}

/// `godot-serde bots ADDR ...`: runs the swarm for `--duration`, then prints its statistics.
/// Exit code 1 when no bot joined.
pub fn bots(args: &BotsArgs, out: &mut impl Write) -> Result<(), Failure> {
    let addr: SocketAddr = args
        .addr
        .to_socket_addrs()
        .map_err(|e| Failure::input(format!("ADDR {:?}: {e}", args.addr)))?
        .next()
        .ok_or_else(|| Failure::input(format!("ADDR {:?}: no address", args.addr)))?;
    if args.count == 0 {
        return Err(Failure::input("--count must be at least 1"));
    }
    for (name, value) in [
        ("--rate", args.rate),
        ("--ramp", args.ramp),
        ("--duration", args.duration),
    ] {
        if !value.is_finite() || value < 0.0 {
            return Err(Failure::input(format!(
                "{name} {value}: a number of 0 or more"
            )));
        }
    }
    if !(1..=4095).contains(&args.per_socket) {
        return Err(Failure::input("--per-socket must be 1 to 4095"));
    }
    let call = args.rpc.as_deref().map(parse_call).transpose()?;
    let threads = args.threads.clamp(1, args.count);
    let started = Instant::now();
    let duration = Duration::from_secs_f64(args.duration);
    let handles: Vec<_> = (0..threads)
        .map(|t| {
            // Thread t runs bots t, t + threads, ...: the shares differ by one at most.
            let count = (args.count - t).div_ceil(threads);
            let config = swarm_config(args, addr, count, threads, call.as_ref());
            let behaviour = Caller {
                call: call.clone(),
                answer: args
                    .answer
                    .clone()
                    .or_else(|| call.as_ref().map(|c| c.method.clone()))
                    .unwrap_or_default(),
            };
            std::thread::spawn(move || -> std::io::Result<(Stats, usize)> {
                let mut swarm = Swarm::new(config, behaviour);
                let result = swarm.run_for(duration);
                let stats = (swarm.stats(), swarm.sockets());
                swarm.close();
                result.map(|()| stats)
            })
        })
        .collect();
    let mut stats: Option<Stats> = None;
    let mut sockets = 0;
    for handle in handles {
        let (s, n) = handle
            .join()
            .map_err(|_| Failure::input("a swarm thread panicked"))?
            .map_err(|e| Failure::input(format!("a socket of the swarm failed: {e}")))?;
        sockets += n;
        match &mut stats {
            Some(all) => all.merge(&s),
            None => stats = Some(s),
        }
    }
    let stats = stats.unwrap_or_default();
    let elapsed = started.elapsed().as_secs_f64();
    let text = if args.json {
        json(args, &stats, sockets, elapsed)
    } else {
        text(args, &stats, sockets, elapsed)
    };
    writeln!(out, "{text}").map_err(|e| Failure::input(format!("cannot write: {e}")))?;
    if stats.joined == 0 {
        return Err(Failure::input(format!(
            "no bot joined {addr} ({} failed)",
            stats.failed
        )));
    }
    Ok(())
}

fn swarm_config(
    args: &BotsArgs,
    addr: SocketAddr,
    count: usize,
    threads: usize,
    call: Option<&Call>,
) -> SwarmConfig {
    let base = if args.ws {
        SwarmConfig::websocket(addr, &format!("ws://{addr}/"), count)
    } else {
        SwarmConfig::enet(addr, count)
    };
    let limits =
        Limits::default().with_bots(BotLimits::default().with_bots_per_socket(args.per_socket));
    let mut config = base
        .settings(Settings::default().with_limits(limits))
        .rate(if call.is_some() { args.rate } else { 0.0 })
        .ramp(args.ramp / threads as f64);
    if let Some(data) = &args.auth {
        config = config.auth(data.as_bytes());
    }
    if let Some(call) = call {
        let mut names: Vec<&str> = vec![call.method.as_str()];
        names.extend(args.answer.as_deref());
        names.extend(args.methods.iter().map(String::as_str));
        names.sort_unstable();
        names.dedup();
        let table = names
            .into_iter()
            .fold(RpcTable::new(&call.node), |t, name| {
                t.with(RpcMethod::any_peer(name))
            });
        config = config.declare(table);
    }
    config
}

fn ms(d: Option<Duration>) -> String {
    d.map_or_else(
        || "-".to_owned(),
        |d| format!("{:.2} ms", d.as_secs_f64() * 1e3),
    )
}

fn text(args: &BotsArgs, s: &Stats, sockets: usize, elapsed: f64) -> String {
    let link = if args.ws {
        "WebSocket".to_owned()
    } else {
        format!("ENet, {sockets} UDP sockets")
    };
    let per_s = |n: u64| n as f64 / elapsed.max(1e-9);
    format!(
        "bots: {} ({link}): {} started, {} joined, {} failed, {} disconnected, {} connected at the end\n\
         calls: {} sent ({:.1}/s), {} received ({:.1}/s)\n\
         round trips: {} (p50 {}, p99 {}), {} unanswered\n\
         replication: {} spawns, {} despawns, {} syncs\n\
         errors: {}, events dropped: {}, {:.1} s",
        s.bots,
        s.started,
        s.joined,
        s.failed,
        s.disconnected,
        s.connected,
        s.rpcs_sent,
        per_s(s.rpcs_sent),
        s.rpcs_received,
        per_s(s.rpcs_received),
        s.round_trips(),
        ms(s.latency_percentile(50.0)),
        ms(s.latency_percentile(99.0)),
        s.unanswered,
        s.spawns,
        s.despawns,
        s.syncs,
        s.errors,
        s.events_dropped,
        elapsed
    )
}

fn json(args: &BotsArgs, s: &Stats, sockets: usize, elapsed: f64) -> String {
    let us = |d: Option<Duration>| {
        d.map_or(serde_json::Value::Null, |d| {
            serde_json::Value::from(u64::try_from(d.as_micros()).unwrap_or(u64::MAX))
        })
    };
    serde_json::json!({
        "transport": if args.ws { "websocket" } else { "enet" },
        "sockets": sockets,
        "seconds": elapsed,
        "bots": s.bots,
        "started": s.started,
        "joined": s.joined,
        "failed": s.failed,
        "disconnected": s.disconnected,
        "connected": s.connected,
        "rpcs_sent": s.rpcs_sent,
        "rpcs_received": s.rpcs_received,
        "round_trips": s.round_trips(),
        "latency_p50_us": us(s.latency_percentile(50.0)),
        "latency_p99_us": us(s.latency_percentile(99.0)),
        "unanswered": s.unanswered,
        "spawns": s.spawns,
        "despawns": s.despawns,
        "syncs": s.syncs,
        "raw_received": s.raw_received,
        "errors": s.errors,
        "events_dropped": s.events_dropped,
    })
    .to_string()
}

#[cfg(test)]
mod tests {
    use super::{parse_call, same_node};
    use godot_serde::Variant;

    #[test]
    fn calls_and_their_arguments() {
        let c = parse_call("/root/Game:echo").unwrap();
        assert_eq!((c.node.as_str(), c.method.as_str()), ("/root/Game", "echo"));
        assert!(c.args.is_empty());
        // An Array is the argument list; the text after the second ':' may hold ':'.
        let c = parse_call("Game:say:[7, \"a:b\"]").unwrap();
        assert_eq!(c.args, [Variant::Int(7), Variant::String("a:b".into())]);
        // Any other value is the one argument.
        let c = parse_call("Game:move:Vector2(1, 2)").unwrap();
        assert_eq!(c.args.len(), 1);
        for bad in ["", "Game", ":echo", "Game:", "Game:echo:[1,"] {
            assert!(parse_call(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn node_paths_relative_to_the_root() {
        assert!(same_node("/root/Game", "Game"));
        assert!(same_node("Game", "Game"));
        assert!(!same_node("/root/Game", "Other"));
    }
}
