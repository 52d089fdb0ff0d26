//! The accept loop: HTTP/1 over each TCP connection with a header-read timeout, and a cap on the connections one
//! address holds open, counted when they are accepted (before a byte is read), so that idle or slow connections
//! cannot use up the server's sockets.

use crate::Config;
use crate::guesses::key;
use axum::Router;
use axum::extract::ConnectInfo;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use std::collections::HashMap;
use std::io;
use std::net::IpAddr;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};

/// Open TCP connections per address (an IPv6 /64, as [`crate::guesses`] counts them).
#[derive(Default)]
pub struct TcpCounts {
    open: Mutex<HashMap<IpAddr, usize>>,
}

impl TcpCounts {
    /// Counts a connection from `ip` until the returned guard is dropped, or `None` when the address holds `max`.
    pub fn admit(self: &Arc<Self>, ip: IpAddr, max: usize) -> Option<TcpGuard> {
        let ip = key(ip);
        let mut open = self.open.lock().unwrap_or_else(|p| p.into_inner());
        let n = open.entry(ip).or_insert(0);
        if *n >= max {
            if *n == 0 {
                open.remove(&ip);
            }
            return None;
        }
        *n += 1;
        Some(TcpGuard { counts: self.clone(), ip })
    }
}

/// One counted connection.
pub struct TcpGuard {
    counts: Arc<TcpCounts>,
    ip: IpAddr,
}

impl Drop for TcpGuard {
    fn drop(&mut self) {
        let mut open = self.counts.open.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(n) = open.get_mut(&self.ip) {
            *n -= 1;
            if *n == 0 {
                open.remove(&self.ip);
            }
        }
    }
}

/// A TCP stream that carries its count: hyper hands the stream itself to a WebSocket on upgrade, so the count lasts
/// as long as the socket, whoever holds it.
struct Counted {
    stream: TcpStream,
    _guard: Option<TcpGuard>,
}

impl AsyncRead for Counted {
    fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_read(cx, buf)
    }
}

impl AsyncWrite for Counted {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }
}

/// Accepts connections on `listener` and serves `app` on each until the future is dropped (connections already
/// accepted carry on). A connection from an address that holds [`Config::max_tcp_per_ip`] already is closed at once,
/// unless it comes from one of [`Config::trusted_proxies`], through which every client comes.
pub async fn run(listener: TcpListener, app: Router, config: &Config, counts: Arc<TcpCounts>) -> io::Result<()> {
    let mut http = hyper::server::conn::http1::Builder::new();
    // The header-read timeout runs from when hyper starts waiting for a request head: on a new connection and again
    // after each response on a kept-alive one, so a silent, a dripping and an idle kept-alive connection all end.
    http.timer(TokioTimer::new()).header_read_timeout(config.header_read_timeout);
    loop {
        let (stream, peer) = match listener.accept().await {
            Ok(accepted) => accepted,
            Err(e) if is_per_connection(&e) => continue,
            Err(e) => {
                // Out of file descriptors or memory: waiting lets connections close rather than spinning.
                eprintln!("accept failed: {e}");
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        let ip = peer.ip().to_canonical();
        let guard = if config.trusted_proxies.contains(&ip) {
            None
        } else {
            match counts.admit(ip, config.max_tcp_per_ip) {
                Some(guard) => Some(guard),
                // Dropped unread: the client sees the connection closed, and it costs us nothing more.
                None => continue,
            }
        };
        let _ = stream.set_nodelay(true);
        let io = TokioIo::new(Counted { stream, _guard: guard });
        let app = app.clone();
        let service = hyper::service::service_fn(move |mut request: hyper::Request<Incoming>| {
            request.extensions_mut().insert(ConnectInfo(peer));
            let mut app = app.clone();
            tower_service::Service::call(&mut app, request)
        });
        let connection = http.serve_connection(io, service).with_upgrades();
        tokio::spawn(async move {
            let _ = connection.await;
        });
    }
}

/// Errors of one connection that the next accept does not share.
fn is_per_connection(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::ConnectionRefused | io::ErrorKind::ConnectionAborted | io::ErrorKind::ConnectionReset
    )
}
