//! `fanorona-server`: hosts online games and the web build on one port; `fanorona-server loadtest` loads a server.

use clap::{Args, Parser, Subcommand};
use fanorona_server::{Config, hub::Hub, loadtest, store::Store};
use std::io::Write;
use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

#[derive(Parser)]
#[command(version, about = "Fanorona game server: online play and the web build from one port")]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    serve: ServeArgs,
}

#[derive(Subcommand)]
enum Command {
    /// Plays many random games against a running server over real WebSockets and reports the numbers.
    Loadtest(loadtest::Options),
}

#[derive(Args)]
struct ServeArgs {
    /// The port (0: any free port; the address is printed).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// The address to listen on.
    #[arg(long, default_value = "0.0.0.0")]
    bind: IpAddr,
    /// The database: the path of an SQLite file (default: games.sqlite3 in the platform's data folder), or a
    /// PostgreSQL address (`postgres://user:password@host:port/dbname`) that several servers may share.
    #[arg(long)]
    db: Option<String>,
    /// The web build to serve (missing: only the API is served).
    #[arg(long, default_value = "web/dist")]
    web_dir: PathBuf,
    /// Open connections allowed from one IP address.
    #[arg(long, default_value_t = Config::default().max_conns_per_ip)]
    max_conns_per_ip: usize,
    /// Open connections allowed in all.
    #[arg(long, default_value_t = Config::default().max_connections)]
    max_connections: usize,
    /// Messages a second one connection may send on average (bursts of twice that).
    #[arg(long, default_value_t = Config::default().msgs_per_sec)]
    msgs_per_sec: f64,
    /// Seconds without a message after which a connection is closed.
    #[arg(long, default_value_t = Config::default().idle_timeout.as_secs())]
    idle_timeout: u64,
    /// Seconds after a game's creation during which its invite code seats the friend.
    #[arg(long, default_value_t = Config::default().invite_ttl.as_secs())]
    invite_ttl: u64,
    /// Wrong invite codes one IP address (an IPv6 /64) may send per `--failed-join-window`; then its joins are
    /// refused until the window ends.
    #[arg(long, default_value_t = Config::default().max_failed_joins)]
    max_failed_joins: u32,
    /// Seconds from an address's first wrong invite code over which its wrong codes are counted.
    #[arg(long, default_value_t = Config::default().failed_join_window.as_secs())]
    failed_join_window: u64,
    /// Games one IP address (an IPv6 /64) may create per `--create-window`; then its creations are refused until
    /// the window ends.
    #[arg(long, default_value_t = Config::default().max_creates)]
    max_creates: u32,
    /// Seconds from an address's first game creation over which its creations are counted.
    #[arg(long, default_value_t = Config::default().create_window.as_secs())]
    create_window: u64,
    /// Open TCP connections allowed from one IP address (an IPv6 /64), counted at accept; trusted proxies are exempt.
    #[arg(long, default_value_t = Config::default().max_tcp_per_ip)]
    max_tcp_per_ip: usize,
    /// Seconds a connection has to send a request head, from its accept and from each response when kept alive.
    #[arg(long, default_value_t = Config::default().header_read_timeout.as_secs())]
    header_read_timeout: u64,
    /// Days after which a game not over and untouched is deleted (finished games are kept; games never started go
    /// when their invite expires).
    #[arg(long, default_value_t = Config::default().abandon_after.as_secs() / (24 * 60 * 60))]
    abandon_after_days: u64,
    /// A reverse proxy in front of the server (repeat for several): connections from it count against the client
    /// address it appends to `X-Forwarded-For`, e.g. `--trusted-proxy 127.0.0.1` with `--bind 127.0.0.1`.
    #[arg(long = "trusted-proxy", value_name = "IP")]
    trusted_proxies: Vec<IpAddr>,
}

fn main() -> std::process::ExitCode {
    let cli = Cli::parse();
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("a tokio runtime");
    let result = match cli.command {
        Some(Command::Loadtest(options)) => runtime.block_on(loadtest::run(options)),
        None => runtime.block_on(serve(cli.serve)),
    };
    match result {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("fanorona-server: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}

async fn serve(args: ServeArgs) -> Result<(), String> {
    let spec = match args.db {
        Some(spec) => spec,
        None => {
            fanorona_server::default_db_path().ok_or("no data folder; give --db PATH")?.to_string_lossy().into_owned()
        }
    };
    let store = Store::open(&spec).await.map_err(|e| format!("{}: {e}", shown(&spec)))?;
    let config = Config {
        max_conns_per_ip: args.max_conns_per_ip,
        max_connections: args.max_connections,
        msgs_per_sec: args.msgs_per_sec,
        burst: args.msgs_per_sec * 2.0,
        idle_timeout: Duration::from_secs(args.idle_timeout),
        invite_ttl: Duration::from_secs(args.invite_ttl),
        max_failed_joins: args.max_failed_joins,
        failed_join_window: Duration::from_secs(args.failed_join_window),
        max_creates: args.max_creates,
        create_window: Duration::from_secs(args.create_window),
        max_tcp_per_ip: args.max_tcp_per_ip,
        header_read_timeout: Duration::from_secs(args.header_read_timeout),
        abandon_after: Duration::from_secs(args.abandon_after_days.saturating_mul(24 * 60 * 60)),
        trusted_proxies: args.trusted_proxies,
        ..Config::default()
    };
    let web_dir = if args.web_dir.join("index.html").is_file() {
        Some(args.web_dir)
    } else {
        eprintln!("no web build at {} (build it with web/build.sh); serving the API only", args.web_dir.display());
        None
    };
    let listener = tokio::net::TcpListener::bind(SocketAddr::new(args.bind, args.port))
        .await
        .map_err(|e| format!("cannot listen on {}:{}: {e}", args.bind, args.port))?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    // Tests and scripts read this line to learn the port.
    println!("listening on {addr} (database {})", shown(&spec));
    let _ = std::io::stdout().flush();
    let hub = Arc::new(Hub::new(store, config));
    let _sweeper = fanorona_server::spawn_sweeper(hub.clone());
    tokio::select! {
        r = fanorona_server::serve(listener, hub, web_dir) => r.map_err(|e| e.to_string()),
        _ = tokio::signal::ctrl_c() => Ok(()),
    }
}

/// A `--db` value as it may be printed: a PostgreSQL address without its password.
fn shown(spec: &str) -> String {
    match spec.parse::<tokio_postgres::Config>() {
        Ok(c) if fanorona_server::store::is_postgres_url(spec) => {
            let hosts: Vec<String> = c
                .get_hosts()
                .iter()
                .map(|h| match h {
                    tokio_postgres::config::Host::Tcp(h) => h.clone(),
                    tokio_postgres::config::Host::Unix(p) => p.display().to_string(),
                })
                .collect();
            let port = c.get_ports().first().copied().unwrap_or(5432);
            format!(
                "postgres://{}@{}:{port}/{}",
                c.get_user().unwrap_or(""),
                hosts.join(","),
                c.get_dbname().unwrap_or("")
            )
        }
        _ => spec.to_string(),
    }
}
