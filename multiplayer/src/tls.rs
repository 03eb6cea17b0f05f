//! `wss://` for the WebSocket transport (feature `tls`): TLS by [rustls] over the same
//! non-blocking sockets, driven by the same `service` calls, with no async runtime and no
//! proxy in front.
//!
//! [`TlsConfig`] is a server's certificate chain and key ([`TlsConfig::from_pem_files`]);
//! give it to [`WsTransport::server_tls`](crate::websocket::WsTransport::server_tls) or
//! [`WsPeer::server_tls`](crate::websocket::WsPeer::server_tls). [`TlsClientConfig`] is what a
//! client trusts ([`TlsClientConfig::from_root_pem_file`]) for
//! [`WsPeer::client_tls`](crate::websocket::WsPeer::client_tls).
//!
//! Every bound of [`WsLimits`](crate::WsLimits) holds for a TLS connection too: the
//! `handshake_timeout_ms` counts from the TCP accept, so it covers the TLS handshake and the
//! HTTP upgrade together; a connection whose TLS handshake is unfinished holds a pending slot
//! (`max_pending`, `max_pending_per_address`) as one whose upgrade is; the read budgets
//! (`inbound_buffer_size` per peer, `inbound_bytes_per_call` for all) count the encrypted
//! bytes taken from the socket and, separately, the decrypted bytes delivered (a record
//! completed in a call may hold more than was read in it: the rest waits in rustls). A call
//! advances at most `tls_handshakes_per_call` TLS handshakes that have new bytes, the oldest
//! first, so that a burst of ClientHellos cannot make one call spend more than 16 × 98 µs
//! (about 1.6 ms with an ECDSA P-256 certificate) on key exchanges and signatures. What rustls itself holds per connection is bounded by
//! rustls: a handshake message of at most 64 KiB (a larger
//! ClientHello is a TLS error), then one record (about 16 KiB) received, and out at most
//! [`TLS_OUT_BUFFER`] bytes besides `outbound_buffer_size` (a peer that does not read fills
//! the latter and is dropped as over plain `ws://`). Garbage instead of a ClientHello, a
//! handshake never finished, a certificate the client refuses: that connection is closed,
//! counted in [`HandshakeStats`](crate::websocket::HandshakeStats), and `service` goes on.
//!
//! A `wss://` server with a check of the token in each upgrade request (the README's
//! example):
//!
//! ```no_run
//! use godot_serde_multiplayer::tls::TlsConfig;
//! use godot_serde_multiplayer::websocket::{Upgrade, WsPeer};
//! use godot_serde_multiplayer::{Event, Settings};
//!
//! let tls = TlsConfig::from_pem_files(
//!     "/etc/letsencrypt/live/game.example.com/fullchain.pem",
//!     "/etc/letsencrypt/live/game.example.com/privkey.pem",
//! )?;
//! let mut server = WsPeer::server_tls("0.0.0.0:443".parse()?, tls, Settings::default())?
//!     .with_upgrade_auth(|request| match request.query_value("token") {
//!         Some(token) if request.path() == "/play" && valid(token) => Upgrade::Accept,
//!         Some(_) => Upgrade::Forbidden,
//!         None => Upgrade::Unauthorized,
//!     });
//! loop {
//!     server.service()?;
//!     while let Some(event) = server.poll_event() {
//!         if let Event::PeerConnected(peer) = event {
//!             println!("{peer} passed the upgrade check");
//!         }
//!     }
//!     std::thread::sleep(std::time::Duration::from_millis(1));
//! }
//! fn valid(token: &str) -> bool {
//!     token == "s3cret"
//! }
//! # #[allow(unreachable_code)] Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::io::{self, ErrorKind, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::sync::Arc;

pub use rustls;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, ServerName};

/// Bytes of ours rustls may hold for one connection beyond what tungstenite queues (the
/// `outbound_buffer_size`): one TLS record's plaintext, 16 KiB. A write waits (`WouldBlock`)
/// while rustls still has encrypted bytes the socket did not take.
pub const TLS_OUT_BUFFER: usize = 16 * 1024;

/// Why a TLS configuration could not be made.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TlsError {
    /// A PEM file could not be read or holds no valid PEM section of the kind.
    #[error("{what}: {detail}")]
    Pem {
        /// Which input: "certificate chain", "private key" or "root certificates".
        what: &'static str,
        /// What went wrong.
        detail: String,
    },
    /// rustls refused the configuration (a key that does not match the certificate, ...).
    #[error("TLS: {0}")]
    Rustls(#[from] rustls::Error),
    /// A client URL without a host name or IP address to check the certificate against.
    #[error("no server name in {0:?}")]
    ServerName(String),
}

fn pem_error(what: &'static str, e: impl std::fmt::Display) -> TlsError {
    TlsError::Pem {
        what,
        detail: e.to_string(),
    }
}

/// The cryptography of every configuration made here: rustls's `ring` provider.
fn provider() -> Arc<rustls::crypto::CryptoProvider> {
    Arc::new(rustls::crypto::ring::default_provider())
}

/// A server's TLS settings: its certificate chain and private key (TLS 1.2 and 1.3, rustls's
/// safe defaults, no client certificates).
#[derive(Clone)]
pub struct TlsConfig {
    pub(crate) server: Arc<rustls::ServerConfig>,
}

impl std::fmt::Debug for TlsConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TlsConfig").finish_non_exhaustive()
    }
}

impl TlsConfig {
    /// The certificate chain (PEM, the server's certificate first, as `fullchain.pem` of
    /// Let's Encrypt) and the private key (PEM: PKCS#8, PKCS#1 or SEC1) from two files.
    ///
    /// # Errors
    ///
    /// [`TlsError::Pem`] for a file that cannot be read or holds no certificate or key,
    /// [`TlsError::Rustls`] for a key rustls refuses.
    pub fn from_pem_files(
        cert_chain: impl AsRef<Path>,
        key: impl AsRef<Path>,
    ) -> Result<Self, TlsError> {
        let chain = CertificateDer::pem_file_iter(cert_chain.as_ref())
            .map_err(|e| pem_error("certificate chain", e))?
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| pem_error("certificate chain", e))?;
        let key =
            PrivateKeyDer::from_pem_file(key.as_ref()).map_err(|e| pem_error("private key", e))?;
        Self::from_der(chain, key)
    }

    /// The certificate chain and private key as PEM text (see
    /// [`from_pem_files`](Self::from_pem_files)).
    ///
    /// # Errors
    ///
    /// As [`from_pem_files`](Self::from_pem_files).
    pub fn from_pem(cert_chain: &[u8], key: &[u8]) -> Result<Self, TlsError> {
        let chain = CertificateDer::pem_slice_iter(cert_chain)
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| pem_error("certificate chain", e))?;
        let key = PrivateKeyDer::from_pem_slice(key).map_err(|e| pem_error("private key", e))?;
        Self::from_der(chain, key)
    }

    fn from_der(
        chain: Vec<CertificateDer<'static>>,
        key: PrivateKeyDer<'static>,
    ) -> Result<Self, TlsError> {
        if chain.is_empty() {
            return Err(pem_error("certificate chain", "no certificate"));
        }
        let server = rustls::ServerConfig::builder_with_provider(provider())
            .with_safe_default_protocol_versions()?
            .with_no_client_auth()
            .with_single_cert(chain, key)?;
        Ok(Self {
            server: Arc::new(server),
        })
    }

    /// A rustls configuration of one's own (client certificates, a certificate resolver per
    /// host name, other cipher suites).
    pub fn from_rustls(server: Arc<rustls::ServerConfig>) -> Self {
        Self { server }
    }

    /// The rustls configuration.
    pub fn server_config(&self) -> Arc<rustls::ServerConfig> {
        Arc::clone(&self.server)
    }
}

/// What a TLS client trusts: root certificates (a self-signed server certificate, or the
/// certificate authority that signed the server's).
#[derive(Clone)]
pub struct TlsClientConfig {
    pub(crate) client: Arc<rustls::ClientConfig>,
}

impl std::fmt::Debug for TlsClientConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TlsClientConfig").finish_non_exhaustive()
    }
}

impl TlsClientConfig {
    /// Trusts the certificates of a PEM file, and only them.
    ///
    /// # Errors
    ///
    /// [`TlsError::Pem`] for a file that cannot be read or holds no certificate,
    /// [`TlsError::Rustls`] for a certificate rustls cannot use as a root.
    pub fn from_root_pem_file(roots: impl AsRef<Path>) -> Result<Self, TlsError> {
        let certs = CertificateDer::pem_file_iter(roots.as_ref())
            .map_err(|e| pem_error("root certificates", e))?
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| pem_error("root certificates", e))?;
        Self::from_roots(certs)
    }

    /// Trusts the certificates of PEM text, and only them.
    ///
    /// # Errors
    ///
    /// As [`from_root_pem_file`](Self::from_root_pem_file).
    pub fn from_root_pem(roots: &[u8]) -> Result<Self, TlsError> {
        let certs = CertificateDer::pem_slice_iter(roots)
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| pem_error("root certificates", e))?;
        Self::from_roots(certs)
    }

    fn from_roots(certs: Vec<CertificateDer<'static>>) -> Result<Self, TlsError> {
        if certs.is_empty() {
            return Err(pem_error("root certificates", "no certificate"));
        }
        let mut roots = rustls::RootCertStore::empty();
        for cert in certs {
            roots.add(cert)?;
        }
        let client = rustls::ClientConfig::builder_with_provider(provider())
            .with_safe_default_protocol_versions()?
            .with_root_certificates(roots)
            .with_no_client_auth();
        Ok(Self {
            client: Arc::new(client),
        })
    }

    /// A rustls configuration of one's own (the system's roots, a client certificate).
    pub fn from_rustls(client: Arc<rustls::ClientConfig>) -> Self {
        Self { client }
    }

    /// The rustls configuration.
    pub fn client_config(&self) -> Arc<rustls::ClientConfig> {
        Arc::clone(&self.client)
    }

    /// A connection to the host of `url` (`wss://host:port/...`), its certificate checked
    /// against that name.
    pub(crate) fn connect(&self, url: &str) -> Result<rustls::ClientConnection, TlsError> {
        let host = url
            .parse::<tungstenite::http::Uri>()
            .ok()
            .and_then(|uri| uri.host().map(str::to_owned))
            .ok_or_else(|| TlsError::ServerName(url.to_owned()))?;
        // An IPv6 literal comes bracketed.
        let host = host
            .trim_start_matches('[')
            .trim_end_matches(']')
            .to_owned();
        let name = ServerName::try_from(host).map_err(|_| TlsError::ServerName(url.to_owned()))?;
        let mut conn = rustls::ClientConnection::new(Arc::clone(&self.client), name)?;
        conn.set_buffer_limit(Some(TLS_OUT_BUFFER));
        Ok(conn)
    }
}

/// A server connection for a newly accepted socket.
pub(crate) fn accept(config: &TlsConfig) -> Option<rustls::ServerConnection> {
    let mut conn = rustls::ServerConnection::new(Arc::clone(&config.server)).ok()?;
    conn.set_buffer_limit(Some(TLS_OUT_BUFFER));
    Some(conn)
}

/// A TLS connection over a non-blocking TCP socket: plaintext in and out as `Read` and
/// `Write` would give it, the TLS records advanced as far as the socket allows.
pub(crate) struct TlsIo {
    conn: rustls::Connection,
    tcp: TcpStream,
}

/// The socket's reads, at most `budget` bytes (then `WouldBlock`).
struct Budgeted<'a> {
    tcp: &'a mut TcpStream,
    budget: &'a mut usize,
}

impl Read for Budgeted<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if *self.budget == 0 {
            return Err(ErrorKind::WouldBlock.into());
        }
        let len = buf.len().min(*self.budget);
        let Some(part) = buf.get_mut(..len) else {
            return Ok(0);
        };
        let got = self.tcp.read(part)?;
        *self.budget = self.budget.saturating_sub(got);
        Ok(got)
    }
}

impl TlsIo {
    pub(crate) fn new(conn: impl Into<rustls::Connection>, tcp: TcpStream) -> Self {
        Self {
            conn: conn.into(),
            tcp,
        }
    }

    /// Whether advancing this connection may cost a handshake's cryptography: its TLS
    /// handshake is under way and the socket has bytes (or its end) to read.
    pub(crate) fn handshake_work(&self) -> bool {
        let mut byte = [0u8; 1];
        self.conn.is_handshaking()
            && !matches!(self.tcp.peek(&mut byte), Err(e) if e.kind() == ErrorKind::WouldBlock)
    }

    /// Sends what rustls has for the socket: `WouldBlock` while the socket takes no more.
    fn flush_tls(&mut self) -> io::Result<()> {
        while self.conn.wants_write() {
            if self.conn.write_tls(&mut self.tcp)? == 0 {
                return Err(ErrorKind::WriteZero.into());
            }
        }
        Ok(())
    }

    /// Plaintext into `buf`: what rustls has decrypted, else the socket's next encrypted
    /// bytes (at most `budget` of them, counted off it) processed. `Ok(0)` at the peer's
    /// `close_notify`; a TLS error (garbage, a refused certificate, a handshake message over
    /// 64 KiB) is `InvalidData`, after the alert is sent as far as the socket takes it.
    pub(crate) fn read(&mut self, buf: &mut [u8], budget: &mut usize) -> io::Result<usize> {
        loop {
            match self.conn.reader().read(buf) {
                Ok(n) => return Ok(n),
                Err(e) if e.kind() == ErrorKind::WouldBlock => {}
                Err(e) => return Err(e),
            }
            // The handshake's replies go out before more is read.
            match self.flush_tls() {
                Err(e) if e.kind() != ErrorKind::WouldBlock => return Err(e),
                _ => {}
            }
            let got = self.conn.read_tls(&mut Budgeted {
                tcp: &mut self.tcp,
                budget,
            })?;
            if let Err(e) = self.conn.process_new_packets() {
                let _ = self.flush_tls();
                return Err(io::Error::new(ErrorKind::InvalidData, e));
            }
            if got == 0 {
                // The socket's end: the reader says whether it came after `close_notify`.
                return match self.conn.reader().read(buf) {
                    Err(e) if e.kind() == ErrorKind::WouldBlock => Ok(0),
                    other => other,
                };
            }
        }
    }
}

impl Write for TlsIo {
    /// Takes at most what rustls may hold ([`TLS_OUT_BUFFER`]), and nothing (`WouldBlock`)
    /// while its earlier records still wait for the socket.
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.flush_tls()?;
        let n = self.conn.writer().write(buf)?;
        if n == 0 && !buf.is_empty() {
            return Err(ErrorKind::WouldBlock.into());
        }
        match self.flush_tls() {
            Err(e) if e.kind() != ErrorKind::WouldBlock => Err(e),
            _ => Ok(n),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        self.flush_tls()
    }
}

impl Drop for TlsIo {
    /// Tells the peer the connection ends (`close_notify`), as far as the socket takes it.
    fn drop(&mut self) {
        self.conn.send_close_notify();
        let _ = self.conn.write_tls(&mut self.tcp);
    }
}
