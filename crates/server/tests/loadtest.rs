//! The load generator against real servers: players spread over two addresses, and a server killed mid-run and
//! restarted on the same database, after which every game goes on and no acknowledged turn is missing.

mod common;

use common::{spawn_binary_with, start};
use fanorona_server::Config;
use fanorona_server::loadtest::{Options, measure};
use std::net::SocketAddr;
use std::time::Duration;

/// Limits loose enough for many quick clients from one address.
const LIMITS: [&str; 4] = ["--max-conns-per-ip", "1000", "--msgs-per-sec", "1000"];

fn options(addrs: Vec<SocketAddr>, games: usize) -> Options {
    Options {
        games,
        addrs,
        think_ms: 10,
        max_turns: 60,
        duration_s: 60,
        server_pids: Vec::new(),
        kill_after_s: None,
        kill_pid: None,
        seed: 7,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_spread_over_two_addresses_all_finish() {
    let dir = tempfile::tempdir().unwrap();
    let config = Config { max_conns_per_ip: 1000, msgs_per_sec: 1000.0, burst: 1000.0, ..Config::default() };
    let server = start(&dir.path().join("db.sqlite3"), config, None).await;
    // Two addresses of one server: the creator on the first, the friend on the second, and the other way round.
    let r = measure(&options(vec![server.addr, server.addr], 20)).await.unwrap();
    assert_eq!((r.games, r.finished, r.failed, r.first_error.as_deref()), (20, 20, 0, None));
    assert!(r.turns >= 20 * 10, "games of random turns last more than ten turns: {}", r.turns);
    // Without a reconnection every turn is acknowledged to its mover, and all of them are in the records.
    assert_eq!((r.reconnects, r.acknowledged, r.lost), (0, r.turns, 0));
    assert!(0.0 < r.p50_ms && r.p50_ms <= r.p99_ms && r.p99_ms <= r.max_ms);
    assert!(r.to_text().contains(&format!("turns:          {} in", r.turns)));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_killed_mid_run_and_restarted_loses_no_acknowledged_turn() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("db.sqlite3");
    let mut server = spawn_binary_with(&db, 0, &LIMITS);
    let addr = server.addr;
    let pid = server.child.id();
    // Restart it on the same port and database as soon as the load generator has killed it.
    let restarted = tokio::task::spawn_blocking(move || {
        server.child.wait().unwrap();
        std::thread::sleep(Duration::from_millis(200));
        spawn_binary_with(&db, addr.port(), &LIMITS)
    });
    let mut o = options(vec![addr, addr], 20);
    // Slower players, so that the kill comes while every game is still being played.
    o.think_ms = 20;
    o.server_pids = vec![pid];
    o.kill_after_s = Some(0.3);
    o.kill_pid = Some(pid);
    let r = measure(&o).await.unwrap();
    let _server = restarted.await.unwrap();
    eprint!("{}", r.to_text());

    assert!(r.killed_at_s.is_some(), "the kill came before the end of the run");
    assert!(r.servers[0].killed && r.servers[0].peak_kib.is_some());
    assert!(r.reconnects >= 20, "every game had a connection to the killed server: {}", r.reconnects);
    assert_eq!((r.finished, r.failed, r.first_error.as_deref()), (20, 0, None));
    assert!(r.acknowledged > 0);
    assert_eq!(r.lost, 0);
}

#[tokio::test]
async fn only_loopback_servers_and_only_a_measured_server_is_killed() {
    let mut o = options(vec!["127.0.0.1:9".parse().unwrap(), "192.0.2.1:80".parse().unwrap()], 1);
    assert!(measure(&o).await.unwrap_err().contains("192.0.2.1:80"));
    o.addrs = vec!["127.0.0.1:9".parse().unwrap()];
    o.server_pids = vec![1234];
    (o.kill_after_s, o.kill_pid) = (Some(1.0), Some(1));
    assert!(measure(&o).await.unwrap_err().contains("not one of the --server-pid"));
    o.kill_pid = None;
    assert!(measure(&o).await.unwrap_err().contains("go together"));
}
