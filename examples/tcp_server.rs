//! A TCP game server for Godot clients that use `StreamPeerTCP.put_var` / `get_var`.
//!
//! ```sh
//! cargo run --example tcp_server                      # Godot 4 clients, port 4242
//! godot --headless --path examples/godot -s client.gd  # in another terminal (any Godot 4)
//! ```
//!
//! `--godot3` serves Godot 3 clients instead, `--port N` picks the port. Each connection runs
//! this exchange (the protocol of `examples/godot/client.gd`):
//!
//! 1. the client sends `{"Hello": player}`;
//! 2. the server answers with a [`Welcome`] holding the player as the server sees it;
//! 3. the client sends `{"Update": player}`, `{"Chat": "gg"}` and `"Bye"` in a single write
//!    (they arrive joined in one TCP segment: the server splits them with a `FrameDecoder`);
//! 4. the server answers `"Bye"` with a [`Summary`] of what it received.
//!
//! Structs travel as Dictionaries with their field names as keys, enums as `"Variant"` or
//! `{"Variant": payload}`, so the GDScript side builds and reads plain Dictionaries.
//!
//! Clients are untrusted: [`serve`] never ends because of one. A client's bad frame, wrong
//! message or early close ends that client's connection (logged with its address); at most
//! [`ServeLimits::max_clients`] are served at once (one thread each; one more is closed at
//! once), a client silent for [`ServeLimits::idle`] is dropped, a frame is at most
//! [`ServeLimits::max_frame`] bytes, and an accept error (no file descriptor left) pauses
//! accepting for 100 ms instead of ending the server. So the server holds at most about
//! `max_clients` × (`max_frame` + a thread's stack).

use godot_serde::frame::{FrameDecoder, Framing};
use godot_serde::{Color, Config, PackedInt32Array, PackedStringArray, Rect2, Vector2, Vector3};
use serde::{Deserialize, Serialize, de::DeserializeOwned};
use std::io::Read;
use std::net::{TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

/// An inventory entry.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Item {
    /// Item name.
    pub name: String,
    /// How many.
    pub count: i32,
}

/// What a player carries.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Loadout {
    /// Outfit colour.
    pub color: Color,
    /// Equipment slots.
    pub slots: Vec<Vector3>,
    /// Area the player may build in.
    pub area: Rect2,
}

/// A player, as both sides see it.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Player {
    /// Display name.
    pub name: String,
    /// Level.
    pub level: i32,
    /// Position in the world.
    pub position: Vector2,
    /// Inventory.
    pub inventory: Vec<Item>,
    /// Equipment.
    pub loadout: Loadout,
    /// Free-form tags (`PackedStringArray` / `PoolStringArray`).
    pub tags: PackedStringArray,
    /// Guild, `null` when none.
    pub guild: Option<String>,
}

/// Messages from the client.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub enum ClientMsg {
    /// First message: who is connecting.
    Hello(Player),
    /// The player changed.
    Update(Player),
    /// A chat line.
    Chat(String),
    /// Last message.
    Bye,
}

/// The server's answer to [`ClientMsg::Hello`].
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Welcome {
    /// Id given to the player.
    pub player_id: u32,
    /// Message of the day.
    pub motd: String,
    /// Where the player spawns.
    pub spawn: Vector3,
    /// The player as the server keeps it: one level up, every count doubled, in a guild.
    pub player: Player,
    /// High scores.
    pub scores: PackedInt32Array,
}

/// The server's answer to [`ClientMsg::Bye`].
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Summary {
    /// How many updates arrived.
    pub updates: u32,
    /// The chat lines received.
    pub chats: Vec<String>,
    /// The player after the last update.
    pub player: Player,
}

/// What one client session sent.
#[derive(Debug, Clone, PartialEq)]
pub struct Session {
    /// The player of the Hello message.
    pub hello: Player,
    /// Every Update received, in order.
    pub updates: Vec<Player>,
    /// Every Chat line received.
    pub chats: Vec<String>,
    /// Messages that did not decode and were skipped (the async server goes on after one).
    pub skipped: usize,
}

/// The Welcome for a player who said Hello.
pub fn welcome(hello: &Player) -> Welcome {
    let mut player = hello.clone();
    player.level += 1;
    for item in &mut player.inventory {
        item.count *= 2;
    }
    player.guild = Some("rustaceans".into());
    Welcome {
        player_id: 1,
        motd: format!("welcome, {}", hello.name),
        spawn: Vector3::new(10.0, 0.0, -5.0),
        player,
        scores: PackedInt32Array(vec![10, 20, 30]),
    }
}

/// The Summary answering Bye at the end of `session`.
pub fn summary(welcome: &Welcome, session: &Session) -> Summary {
    Summary {
        updates: u32::try_from(session.updates.len()).unwrap_or(u32::MAX),
        chats: session.chats.clone(),
        player: session
            .updates
            .last()
            .cloned()
            .unwrap_or_else(|| welcome.player.clone()),
    }
}

/// Errors of a session.
pub type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// One client connection: a decoder for what arrives, framing for what leaves.
struct Connection {
    stream: TcpStream,
    decoder: FrameDecoder,
    framing: Framing,
}

impl Connection {
    fn new(stream: TcpStream, config: Config, max_frame: usize) -> Self {
        let framing = Framing::new(config).with_max_frame_size(max_frame);
        Self {
            stream,
            decoder: FrameDecoder::with_framing(framing),
            framing,
        }
    }

    /// The next message, reading from the socket as long as no whole frame is buffered.
    fn recv<T: DeserializeOwned>(&mut self) -> Result<T, BoxError> {
        let mut buf = [0u8; 4096];
        loop {
            if let Some(msg) = self.decoder.next()? {
                return Ok(msg);
            }
            let n = self.stream.read(&mut buf)?;
            if n == 0 {
                self.decoder.finish()?;
                return Err("client closed the connection".into());
            }
            self.decoder.feed(&buf[..n]);
        }
    }

    /// `put_var` equivalent: one length-prefixed frame.
    fn send<T: Serialize>(&mut self, msg: &T) -> Result<(), BoxError> {
        self.framing.write(&mut self.stream, msg)?;
        Ok(())
    }
}

/// Runs the protocol with one connected client and returns what it sent. Frames are at most
/// [`ServeLimits::default`]'s `max_frame`; give the stream a read timeout (as [`serve`] does)
/// so that a silent client cannot hold the call forever.
pub fn handle_client(stream: TcpStream, config: Config) -> Result<Session, BoxError> {
    handle_client_with(stream, config, ServeLimits::default().max_frame)
}

fn handle_client_with(
    stream: TcpStream,
    config: Config,
    max_frame: usize,
) -> Result<Session, BoxError> {
    let mut conn = Connection::new(stream, config, max_frame);
    let hello = match conn.recv::<ClientMsg>()? {
        ClientMsg::Hello(player) => player,
        other => return Err(format!("expected Hello, got {other:?}").into()),
    };
    let welcome = welcome(&hello);
    conn.send(&welcome)?;
    let mut session = Session {
        hello,
        updates: Vec::new(),
        chats: Vec::new(),
        skipped: 0,
    };
    loop {
        match conn.recv::<ClientMsg>()? {
            ClientMsg::Hello(_) => return Err("second Hello".into()),
            ClientMsg::Update(player) => session.updates.push(player),
            ClientMsg::Chat(text) => session.chats.push(text),
            ClientMsg::Bye => break,
        }
    }
    conn.send(&summary(&welcome, &session))?;
    Ok(session)
}

/// What any number of clients can make [`serve`] hold.
#[derive(Clone, Copy, Debug)]
pub struct ServeLimits {
    /// Clients served at once (a thread each); one more is closed as soon as it is accepted.
    pub max_clients: usize,
    /// A client that sends nothing for this long is dropped (the socket's read timeout); so is
    /// one that does not read what we send for this long (the write timeout).
    pub idle: Duration,
    /// The largest frame a client may send, in bytes (`FrameDecoder`'s bound).
    pub max_frame: usize,
}

impl Default for ServeLimits {
    /// 64 clients, 30 s, 64 KiB frames (this protocol's messages are a few hundred bytes).
    fn default() -> Self {
        Self {
            max_clients: 64,
            idle: Duration::from_secs(30),
            max_frame: 64 * 1024,
        }
    }
}

/// Serves clients on `listener` forever, each on its own thread, logging each session or
/// error with the client's address. Nothing a client does ends the loop (see the module
/// docs for the bounds).
pub fn serve(listener: TcpListener, config: Config, limits: ServeLimits) {
    let active = Arc::new(AtomicUsize::new(0));
    loop {
        // The address comes with the connection: asking the socket later can fail if the
        // client has already reset it.
        let (stream, peer) = match listener.accept() {
            Ok(accepted) => accepted,
            Err(e) => {
                // No descriptor left, a connection reset while queued, ...: the listener
                // itself is fine; wait for some connections to end.
                eprintln!("accept: {e}");
                std::thread::sleep(Duration::from_millis(100));
                continue;
            }
        };
        if active.load(Ordering::Acquire) >= limits.max_clients {
            eprintln!("{peer}: refused, {} clients already", limits.max_clients);
            continue; // dropping the stream closes it
        }
        let timeouts = stream
            .set_read_timeout(Some(limits.idle))
            .and_then(|()| stream.set_write_timeout(Some(limits.idle)));
        if let Err(e) = timeouts {
            eprintln!("{peer}: {e}");
            continue;
        }
        active.fetch_add(1, Ordering::AcqRel);
        let slot = Slot(Arc::clone(&active));
        std::thread::spawn(move || {
            let _slot = slot;
            match handle_client_with(stream, config, limits.max_frame) {
                Ok(session) => println!(
                    "{peer}: {} said hello, sent {} updates and {} chat lines {:?}",
                    session.hello.name,
                    session.updates.len(),
                    session.chats.len(),
                    session.chats
                ),
                Err(e) => eprintln!("{peer}: {e}"),
            }
        });
    }
}

/// A client's place in [`serve`]'s count, given back when its thread ends (even by a panic).
struct Slot(Arc<AtomicUsize>);

impl Drop for Slot {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

fn main() -> Result<(), BoxError> {
    let mut config = Config::godot4();
    let mut port = 4242u16;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--godot3" => config = Config::godot3(),
            "--port" => port = args.next().ok_or("--port needs a number")?.parse()?,
            other => return Err(format!("unknown argument {other}").into()),
        }
    }
    let listener = TcpListener::bind(("127.0.0.1", port))?;
    println!(
        "listening on {} for Godot {} clients",
        listener.local_addr()?,
        config.version()
    );
    serve(listener, config, ServeLimits::default());
    Ok(())
}
