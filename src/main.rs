//! Fanorona: the game binary (the Bevy front end comes with the game issue; for now it points to the engine CLI).

fn main() {
    let start = fanorona_engine::Position::start(&fanorona_engine::Rules::default());
    println!("Fanorona: the playable game is under construction. Start position: {start}");
    println!("Try the engine: cargo run -p fanorona-engine --bin fanorona-cli -- moves");
}
