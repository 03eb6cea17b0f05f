//! The TCP game server of `tcp_server.rs`, on tokio: one task per client, values framed by
//! [`GodotCodec`] in a `tokio_util::codec::Framed`.
//!
//! ```sh
//! cargo run --example async_server --features tokio             # Godot 4 clients, port 4242
//! godot --headless --path examples/godot -s client.gd           # in another terminal
//! ```
//!
//! `--godot3` serves Godot 3 clients, `--port N` picks the port. The protocol and message
//! types are those of `tcp_server.rs`.
//!
//! Each item of the `Framed` stream is `Result<Message<ClientMsg>>` (`Message<T>` is
//! `Result<T>`): the outer error means the
//! connection cannot go on (oversized or truncated frame, I/O), the inner one that a single
//! well-framed message did not decode as a `ClientMsg`; that one is logged and skipped.

#[allow(dead_code)]
#[path = "tcp_server.rs"]
pub mod protocol;

use futures_util::{SinkExt, StreamExt};
use godot_serde::Config;
use godot_serde::codec::GodotCodec;
use protocol::{BoxError, ClientMsg, Session};
use tokio::io::{AsyncRead, AsyncWrite};
use tokio_util::codec::Framed;

/// Runs the protocol with one client over any async byte stream (a `TcpStream`, or an
/// in-memory `tokio::io::duplex` in tests) and returns what it sent.
pub async fn handle_client<S: AsyncRead + AsyncWrite + Unpin>(
    io: S,
    config: Config,
) -> Result<Session, BoxError> {
    let mut framed = Framed::new(io, GodotCodec::<ClientMsg>::new(config));
    let hello = match framed
        .next()
        .await
        .ok_or("client closed the connection")???
    {
        ClientMsg::Hello(player) => player,
        other => return Err(format!("expected Hello, got {other:?}").into()),
    };
    let welcome = protocol::welcome(&hello);
    framed.send(&welcome).await?;
    let mut session = Session {
        hello,
        updates: Vec::new(),
        chats: Vec::new(),
        skipped: 0,
    };
    loop {
        let message = framed
            .next()
            .await
            .ok_or("client closed the connection")??;
        match message {
            Ok(ClientMsg::Hello(_)) => return Err("second Hello".into()),
            Ok(ClientMsg::Update(player)) => session.updates.push(player),
            Ok(ClientMsg::Chat(text)) => session.chats.push(text),
            Ok(ClientMsg::Bye) => break,
            // One message of the wrong shape: the connection goes on.
            Err(e) => {
                eprintln!("{}: skipped a message: {e}", session.hello.name);
                session.skipped += 1;
            }
        }
    }
    framed.send(&protocol::summary(&welcome, &session)).await?;
    Ok(session)
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), BoxError> {
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
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port)).await?;
    println!(
        "listening on {} for Godot {} clients",
        listener.local_addr()?,
        config.version()
    );
    loop {
        let (socket, peer) = listener.accept().await?;
        tokio::spawn(async move {
            match handle_client(socket, config).await {
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
