//! A throw-away PostgreSQL cluster for one test: Debian's `postgresql` binaries, a data folder in a temporary
//! folder, a free loopback port; run as the `postgres` user when the tests run as root (PostgreSQL refuses root).
//! Dropping it stops the cluster and removes the folder, also when the test fails.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Set (by `scripts/test.sh`) when a missing PostgreSQL must fail the tests instead of skipping them.
const REQUIRED: &str = "FANORONA_REQUIRE_POSTGRES";

/// A running cluster.
pub struct PgCluster {
    bin: PathBuf,
    data: PathBuf,
    port: u16,
    as_postgres: bool,
    _dir: tempfile::TempDir,
}

/// The newest installed `…/postgresql/<version>/bin` holding `initdb`.
fn bin_dir() -> Option<PathBuf> {
    let mut found: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .ok()?
        .flatten()
        .filter_map(|e| {
            let version = e.file_name().to_str()?.parse().ok()?;
            let bin = e.path().join("bin");
            bin.join("initdb").is_file().then_some((version, bin))
        })
        .collect();
    found.sort();
    found.pop().map(|(_, bin)| bin)
}

fn is_root() -> bool {
    Command::new("id").arg("-u").output().is_ok_and(|o| o.stdout.trim_ascii() == b"0")
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

impl PgCluster {
    /// Starts a cluster, or returns None (after saying so) when PostgreSQL is not installed and not required.
    pub fn start() -> Option<PgCluster> {
        let Some(bin) = bin_dir() else {
            assert!(
                std::env::var_os(REQUIRED).is_none(),
                "{REQUIRED} is set but PostgreSQL is not installed (apt-get install postgresql)"
            );
            eprintln!("PostgreSQL is not installed: skipping (scripts/test.sh installs it and runs these tests)");
            return None;
        };
        let dir = tempfile::Builder::new().prefix("fanorona-pg").tempdir().unwrap();
        let as_postgres = is_root();
        let data = dir.path().join("data");
        if as_postgres {
            let status = Command::new("chown").args(["-R", "postgres:postgres"]).arg(dir.path()).status().unwrap();
            assert!(status.success(), "chown the cluster's folder to postgres");
        }
        let mut cluster = PgCluster { bin, data, port: 0, as_postgres, _dir: dir };
        let ok = cluster
            .run("initdb")
            .args(["-U", "fanorona", "--auth=trust", "-E", "UTF8", "--no-sync", "-D"])
            .arg(&cluster.data)
            .stdout(Stdio::null())
            .status()
            .unwrap()
            .success();
        assert!(ok, "initdb failed");
        // A free port can be taken between the probe and the start: try a few.
        for _ in 0..5 {
            cluster.port = free_port();
            let options = format!(
                "-p {} -k {} -c listen_addresses=127.0.0.1 -c max_connections=200",
                cluster.port,
                cluster.data.display()
            );
            let log = cluster.data.join("server.log");
            let started = cluster
                .run("pg_ctl")
                .args(["-w", "-t", "60", "-D"])
                .arg(&cluster.data)
                .arg("-l")
                .arg(&log)
                .args(["-o", &options, "start"])
                .stdout(Stdio::null())
                .status()
                .unwrap()
                .success();
            if started {
                return Some(cluster);
            }
        }
        panic!("the PostgreSQL cluster did not start (see its log)");
    }

    /// A command of the cluster's binaries, as the `postgres` user when we are root.
    fn run(&self, program: &str) -> Command {
        let path = self.bin.join(program);
        if self.as_postgres {
            let mut c = Command::new("runuser");
            c.args(["-u", "postgres", "--"]).arg(path);
            c
        } else {
            Command::new(path)
        }
    }

    /// The address of the database `name`, created empty.
    pub async fn database(&self, name: &str) -> String {
        let admin = format!("postgres://fanorona@127.0.0.1:{}/postgres", self.port);
        let (client, connection) = tokio_postgres::connect(&admin, tokio_postgres::NoTls).await.unwrap();
        let driver = tokio::spawn(connection);
        client.batch_execute(&format!("CREATE DATABASE {name}")).await.unwrap();
        drop(client);
        let _ = driver.await;
        format!("postgres://fanorona@127.0.0.1:{}/{name}", self.port)
    }

    /// The data folder.
    pub fn data(&self) -> &Path {
        &self.data
    }
}

impl Drop for PgCluster {
    fn drop(&mut self) {
        let _ = self
            .run("pg_ctl")
            .args(["-w", "-m", "immediate", "-D"])
            .arg(&self.data)
            .arg("stop")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
    }
}
