//! Criterion benchmarks of move generation: turn-level and step-level perft from fixed positions.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use fanorona_rules::Position;
use fanorona_rules::turns::Perft;
use std::hint::black_box;

const POSITIONS: [(&str, &str, u32); 3] = [
    ("start", "BBBBBBBBB/BBBBBBBBB/BWBW1BWBW/WWWWWWWWW/WWWWWWWWW w", 5),
    ("middlegame", "BBBB1BBBB/BB1BBB1BB/1WB1B1W1W/WW1W1WWWW/WWWWW1WWW w", 4),
    ("open", "B1B1BB1BB/1BB2B3/2W1B1W2/W1W2W1W1/WW1WW2WW b", 4),
];

fn perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    for (name, fen, depth) in POSITIONS {
        let pos = Position::from_fen(fen).expect("valid FEN");
        let mut probe = Perft::default();
        probe.turns(&pos, depth);
        group.throughput(Throughput::Elements(probe.steps_played));
        group.bench_with_input(BenchmarkId::new("turns_steps_played", name), &pos, |b, p| {
            b.iter(|| Perft::default().turns(black_box(p), depth))
        });
    }
    group.finish();
}

fn generation(c: &mut Criterion) {
    let pos = Position::from_fen(POSITIONS[1].1).expect("valid FEN");
    c.bench_function("legal_turns/middlegame", |b| b.iter(|| black_box(&pos).legal_turns()));
    c.bench_function("legal_steps/middlegame", |b| b.iter(|| black_box(&pos).steps()));
}

criterion_group!(benches, perft, generation);
criterion_main!(benches);
