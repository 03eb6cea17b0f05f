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

use godot_serde::frame::{FrameDecoder, Framing};
use godot_serde::{Color, Config, PackedInt32Array, PackedStringArray, Rect2, Vector2, Vector3};
use serde::{Deserialize, Serialize, de::DeserializeOwned};
use std::io::Read;
use std::net::{TcpListener, TcpStream};

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
    fn new(stream: TcpStream, config: Config) -> Self {
        Self {
            stream,
            decoder: FrameDecoder::new(config),
            framing: Framing::new(config),
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

/// Runs the protocol with one connected client and returns what it sent.
pub fn handle_client(stream: TcpStream, config: Config) -> Result<Session, BoxError> {
    let mut conn = Connection::new(stream, config);
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
    for stream in listener.incoming() {
        let stream = stream?;
        let peer = stream.peer_addr()?;
        std::thread::spawn(move || match handle_client(stream, config) {
            Ok(session) => println!(
                "{peer}: {} said hello, sent {} updates and {} chat lines {:?}",
                session.hello.name,
                session.updates.len(),
                session.chats.len(),
                session.chats
            ),
            Err(e) => eprintln!("{peer}: {e}"),
        });
    }
    Ok(())
}
