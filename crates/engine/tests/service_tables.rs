//! The engine service's endgame tables (its own process: the tables it shares are the whole program's): built
//! between jobs, smaller first, kept as bytes and taken back from them.

use fanorona_engine::Variant;
use fanorona_engine::service::{Engine, Reply};
use fanorona_engine::tablebase::{self, Tablebase};
use std::time::Duration;

#[test]
fn tables_are_built_when_idle_shared_and_restored_from_bytes() {
    let mut engine = Engine::new().with_tables(3);
    assert!(engine.is_busy() && !engine.has_jobs());
    assert!(engine.load_table(b"not a table", Variant::Tsivy, 3).is_err());
    let mut replies = Vec::new();
    let mut rounds = 0;
    while engine.is_busy() {
        engine.run_for(Duration::from_millis(2), &mut |r| replies.push(r));
        rounds += 1;
    }
    assert!(rounds > 2, "built in several slices ({rounds})");
    assert_eq!(
        replies,
        [
            Reply::Table { variant: Variant::Tsivy, pieces: 3, stored: false },
            Reply::Table { variant: Variant::Dimy, pieces: 3, stored: false },
        ]
    );
    for variant in [Variant::Tsivy, Variant::Dimy] {
        assert_eq!(tablebase::shared_pieces(variant), Some(3));
        let (pieces, bytes) = engine.table_bytes(variant).unwrap();
        assert_eq!(pieces, 3);
        assert_eq!(bytes, Tablebase::build(variant, 3, |_| {}).to_bytes());
        // A later visit takes the stored bytes instead of building.
        let mut later = Engine::new().with_tables(3);
        later.load_table(&bytes, variant, 3).unwrap();
        let mut damaged = bytes.clone();
        damaged[100] ^= 1;
        assert!(later.load_table(&damaged, variant, 3).is_err());
    }
}
