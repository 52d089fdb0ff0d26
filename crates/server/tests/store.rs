//! The store's guarantees on both backends, SQLite and PostgreSQL (a throw-away cluster): what is written reads
//! back, a turn is stored once, a change made from an old version of its game is refused, every answer clears the
//! standing offers.

mod common;

use common::postgres::PgCluster;
use fanorona_server::db::{Db, NewGame, StoredGame, StoredSeat, Write};
use fanorona_server::store::Store;

fn seat(b: u8, name: &str) -> StoredSeat {
    StoredSeat { token_hash: [b; 32], name: name.into() }
}

fn new_game(id: &str) -> NewGame {
    NewGame {
        id: id.into(),
        variant: "9x5".into(),
        rules: String::new(),
        invite_hash: Some([9; 32]),
        spectate_hash: [8; 32],
        spectate_code: "watch".into(),
        white: Some(seat(1, "A")),
        black: None,
    }
}

async fn load(store: &Store, id: &str) -> StoredGame {
    store.load(id.into()).await.unwrap().unwrap()
}

/// The same checks on any store.
async fn guarantees(store: Store) {
    let none = || String::new();
    store.write(Write::CreateGame(new_game("g1"))).await.unwrap();
    assert_eq!(load(&store, "g1").await.version, 0);
    // The same game id, or the same spectator token, twice is refused.
    assert!(store.write(Write::CreateGame(new_game("g1"))).await.is_err());
    assert_eq!(store.find_invite([9; 32]).await.unwrap().map(|(id, _)| id).as_deref(), Some("g1"));

    let take = |b| Write::TakeSeat { game: "g1".into(), side: "black", seat: seat(b, "B") };
    store.write_checked(take(2), 0, none).await.unwrap();
    assert_eq!(load(&store, "g1").await.version, 1);
    // Made from the old version: a conflict, and nothing changed.
    let stale = store.write_checked(take(3), 0, none).await.unwrap_err();
    assert!(stale.conflict, "{stale}");
    assert_eq!(load(&store, "g1").await.black, Some(seat(2, "B")));
    assert_eq!(store.find_invite([9; 32]).await.unwrap(), None);
    assert_eq!(store.find_seat([2; 32]).await.unwrap(), Some(("g1".into(), "black".into())));

    for (ply, t) in ["d3-e3A", "f4-f3A", "e3-f2W"].iter().enumerate() {
        let write = Write::AddTurn { game: "g1".into(), ply: ply as u32, notation: t.to_string(), finished: false };
        store.write_checked(write, 1 + ply as i64, none).await.unwrap();
    }
    // A turn number already stored is refused even at the right version: two servers cannot both store a turn.
    let twice = Write::AddTurn { game: "g1".into(), ply: 1, notation: "x".into(), finished: false };
    let e = store.write_checked(twice, 4, none).await.unwrap_err();
    assert!(e.conflict, "{e}");
    let g = load(&store, "g1").await;
    assert_eq!((g.turns.len(), g.version), (3, 4));

    let offers = |draw, takeback| Write::SetOffers { game: "g1".into(), draw, takeback };
    store.write_checked(offers(Some("white"), Some("black")), 4, none).await.unwrap();
    let g = load(&store, "g1").await;
    assert_eq!((g.draw_offer.as_deref(), g.takeback_request.as_deref()), (Some("white"), Some("black")));
    store.write_checked(Write::TruncateTurns { game: "g1".into(), from_ply: 2 }, 5, none).await.unwrap();
    let g = load(&store, "g1").await;
    assert_eq!(g.turns, vec!["d3-e3A", "f4-f3A"]);
    assert_eq!((g.draw_offer, g.takeback_request), (None, None));
    store.write_checked(Write::SetEnding { game: "g1".into(), ending: "draw".into() }, 6, none).await.unwrap();
    let g = load(&store, "g1").await;
    assert_eq!((g.ending.as_deref(), g.version), (Some("draw"), 7));
    assert_eq!(g.spectate_code.as_deref(), Some("watch"));
    assert_eq!(store.find_spectate([8; 32]).await.unwrap().as_deref(), Some("g1"));
    assert!(store.load("nope".into()).await.unwrap().is_none());
    // An unknown game is an error, not a silent no-op.
    let e = store.write_checked(offers(None, None), 0, none).await.unwrap_err();
    assert!(e.conflict);
    // The schema refuses a side that is not one.
    assert!(store.write(Write::SetOffers { game: "g1".into(), draw: Some("grey"), takeback: None }).await.is_err());

    // Expiry: a game never started goes once its invite expired; one started and left goes after the abandonment
    // time, unless it is held (in memory) or over (g1 ended in a draw).
    let other = |id: &str, b: u8| NewGame {
        invite_hash: Some([b; 32]),
        spectate_hash: [b + 1; 32],
        white: Some(seat(b + 2, "A")),
        ..new_game(id)
    };
    store.write(Write::CreateGame(other("unstarted", 20))).await.unwrap();
    store.write(Write::CreateGame(NewGame { black: Some(seat(40, "B")), ..other("left", 30) })).await.unwrap();
    store.write(Write::CreateGame(NewGame { black: Some(seat(50, "B")), ..other("held", 33) })).await.unwrap();
    for id in ["left", "held"] {
        let turn = Write::AddTurn { game: id.into(), ply: 0, notation: "d3-e3A".into(), finished: false };
        store.write(turn).await.unwrap();
    }
    let (day, now) = (std::time::Duration::from_secs(86_400), fanorona_server::db::unix_now());
    let held: std::collections::HashSet<String> = ["held".to_string()].into();
    let n = store.expire(now, day, 30 * day, held.clone()).await.unwrap();
    assert_eq!((n.unstarted, n.abandoned), (0, 0));
    let n = store.expire(now + 2 * 86_400, day, 30 * day, held.clone()).await.unwrap();
    assert_eq!((n.unstarted, n.abandoned), (1, 0));
    assert!(store.load("unstarted".into()).await.unwrap().is_none());
    let n = store.expire(now + 31 * 86_400, day, 30 * day, held).await.unwrap();
    assert_eq!((n.unstarted, n.abandoned), (0, 1));
    assert!(store.load("left".into()).await.unwrap().is_none());
    assert!(store.find_seat([40; 32]).await.unwrap().is_none(), "its seats went with it");
    assert!(store.load("held".into()).await.unwrap().is_some());
    assert!(store.load("g1".into()).await.unwrap().is_some());
    store.healthy().await.unwrap();
}

#[tokio::test]
async fn sqlite_keeps_the_store_guarantees() {
    let dir = tempfile::tempdir().unwrap();
    guarantees(Db::open(&dir.path().join("g.sqlite3")).unwrap().into()).await;
}

#[tokio::test]
async fn postgres_keeps_the_store_guarantees() {
    let Some(cluster) = PgCluster::start() else { return };
    let url = cluster.database("guarantees").await;
    guarantees(Store::open(&url).await.unwrap()).await;
    // A second server's start finds the schema applied and changes nothing.
    let again = Store::open(&url).await.unwrap();
    assert_eq!(again.load("g1".into()).await.unwrap().unwrap().version, 7);
}

#[tokio::test]
async fn two_servers_racing_on_one_turn_store_it_once() {
    let Some(cluster) = PgCluster::start() else { return };
    let url = cluster.database("race").await;
    let (a, b) = (Store::open(&url).await.unwrap(), Store::open(&url).await.unwrap());
    a.write(Write::CreateGame(NewGame { invite_hash: None, black: Some(seat(2, "B")), ..new_game("g") }))
        .await
        .unwrap();
    // Each round both servers try a different turn from the same version: exactly one wins.
    for round in 0..20_i64 {
        let turn =
            |t: &str| Write::AddTurn { game: "g".into(), ply: round as u32, notation: t.into(), finished: false };
        let none = || String::new();
        let (ra, rb) = tokio::join!(a.write_checked(turn("a"), round, none), b.write_checked(turn("b"), round, none));
        assert!(ra.is_ok() != rb.is_ok(), "round {round}: {ra:?} {rb:?}");
        let loser = ra.err().or(rb.err()).unwrap();
        assert!(loser.conflict, "{loser}");
    }
    let g = b.load("g".into()).await.unwrap().unwrap();
    assert_eq!((g.turns.len(), g.version), (20, 20));
}
