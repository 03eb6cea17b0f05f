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
//!
//! Clients are untrusted: [`serve`] never ends because of one, and bounds what they can make
//! it hold with the [`ServeLimits`] of `tcp_server.rs` (clients at once, an idle timeout per
//! message, the largest frame); an accept error (no file descriptor left) pauses accepting for
//! 100 ms.

#[allow(dead_code)]
#[path = "tcp_server.rs"]
pub mod protocol;

use futures_util::{SinkExt, StreamExt};
use godot_serde::Config;
use godot_serde::codec::GodotCodec;
use godot_serde::frame::Framing;
use protocol::{BoxError, ClientMsg, ServeLimits, Session};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio_util::codec::Framed;

/// Runs the protocol with one client over any async byte stream (a `TcpStream`, or an
/// in-memory `tokio::io::duplex` in tests) and returns what it sent, with
/// [`ServeLimits::default`]'s bounds.
pub async fn handle_client<S: AsyncRead + AsyncWrite + Unpin>(
    io: S,
    config: Config,
) -> Result<Session, BoxError> {
    handle_client_with(io, config, ServeLimits::default()).await
}

/// [`handle_client`] within `limits`: frames up to `max_frame`, each message (and each send)
/// within `idle`.
pub async fn handle_client_with<S: AsyncRead + AsyncWrite + Unpin>(
    io: S,
    config: Config,
    limits: ServeLimits,
) -> Result<Session, BoxError> {
    let framing = Framing::new(config).with_max_frame_size(limits.max_frame);
    let mut framed = Framed::new(io, GodotCodec::<ClientMsg>::with_framing(framing));
    let idle = limits.idle;
    let hello = match tokio::time::timeout(idle, framed.next())
        .await
        .map_err(|_| "client silent for too long")?
        .ok_or("client closed the connection")???
    {
        ClientMsg::Hello(player) => player,
        other => return Err(format!("expected Hello, got {other:?}").into()),
    };
    let welcome = protocol::welcome(&hello);
    tokio::time::timeout(idle, framed.send(&welcome))
        .await
        .map_err(|_| "client not reading")??;
    let mut session = Session {
        hello,
        updates: Vec::new(),
        chats: Vec::new(),
        skipped: 0,
    };
    loop {
        let message = tokio::time::timeout(idle, framed.next())
            .await
            .map_err(|_| "client silent for too long")?
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
    tokio::time::timeout(idle, framed.send(&protocol::summary(&welcome, &session)))
        .await
        .map_err(|_| "client not reading")??;
    Ok(session)
}

/// Serves clients on `listener` forever, one task each, logging each session or error with
/// the client's address. Nothing a client does ends the loop.
pub async fn serve(listener: tokio::net::TcpListener, config: Config, limits: ServeLimits) {
    let active = Arc::new(AtomicUsize::new(0));
    loop {
        let (socket, peer) = match listener.accept().await {
            Ok(accepted) => accepted,
            Err(e) => {
                // No descriptor left, ...: the listener itself is fine.
                eprintln!("accept: {e}");
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        if active.load(Ordering::Acquire) >= limits.max_clients {
            eprintln!("{peer}: refused, {} clients already", limits.max_clients);
            continue; // dropping the socket closes it
        }
        active.fetch_add(1, Ordering::AcqRel);
        let slot = Slot(Arc::clone(&active));
        tokio::spawn(async move {
            let _slot = slot;
            match handle_client_with(socket, config, limits).await {
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

/// A client's place in [`serve`]'s count, given back when its task ends.
struct Slot(Arc<AtomicUsize>);

impl Drop for Slot {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
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
    serve(listener, config, ServeLimits::default()).await;
    Ok(())
}
