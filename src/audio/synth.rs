//! Plucked-string synthesis in plain Rust (no Bevy types): a valiha-like voice and the game's sounds, as mono `f32`
//! buffers at [`SAMPLE_RATE`], plus 16-bit PCM WAV export (through `hound`).
//!
//! The voice is a Karplus–Strong string: a delay line one period long, filled with a bright noise burst and fed
//! back through a linear-phase lowpass (the string's losses) and an allpass (the fraction of a sample the integer
//! delay misses, so notes are in tune). Each note sounds two such strings a few cents apart, as the valiha's
//! paired strings do, and a pair of resonant band-pass filters stands in for the bamboo tube. Everything is
//! deterministic: the noise comes from a fixed-seed generator, so the same code always makes the same sounds.

use std::io::{self, Seek, Write};
use std::path::Path;

/// Sample rate of every buffer, in Hz.
pub const SAMPLE_RATE: u32 = 44_100;
const SR: f32 = SAMPLE_RATE as f32;

/// Semitones above the tonic of the major pentatonic scale's five degrees.
const PENTATONIC: [i32; 5] = [0, 2, 4, 7, 9];
/// The tonic, D4, as a MIDI note number: a comfortable middle register for a zither.
const TONIC_MIDI: i32 = 62;

/// Frequency in Hz of a degree of the D major pentatonic scale (D E F♯ A B); degree 0 is D4 (293.66 Hz), 5 is D5,
/// negative degrees go below D4. Equal temperament with A4 = 440 Hz.
pub fn scale_freq(degree: i32) -> f32 {
    let octave = degree.div_euclid(5);
    let step = PENTATONIC[degree.rem_euclid(5) as usize];
    let midi = TONIC_MIDI + 12 * octave + step;
    440.0 * 2f32.powf((midi - 69) as f32 / 12.0)
}

/// A small deterministic noise source (xorshift32): reproducible sounds without a random-number crate.
struct Noise(u32);

impl Noise {
    fn next(&mut self) -> f32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 17;
        self.0 ^= self.0 << 5;
        (self.0 as f32 / u32::MAX as f32) * 2.0 - 1.0
    }
}

/// How one note is played.
#[derive(Clone, Copy, Debug)]
pub struct Pluck {
    /// Fundamental frequency in Hz.
    pub freq: f32,
    /// Seconds for the fundamental to fall by 60 dB.
    pub decay: f32,
    /// 0 (soft, thumb-like) to 1 (bright, nail-like): how much of the noise's top end the pluck keeps and how little
    /// the string's loop filter dulls it.
    pub brightness: f32,
    /// Linear amplitude of the note in a mix.
    pub velocity: f32,
    /// Seed of the excitation noise, so that repeated notes differ a little, as real plucks do.
    pub seed: u32,
}

impl Pluck {
    /// A note of the given frequency with middling brightness, a one-second decay and full velocity.
    pub fn new(freq: f32) -> Self {
        Pluck { freq, decay: 1.0, brightness: 0.6, velocity: 1.0, seed: 1 }
    }
}

/// One Karplus–Strong string: the delay line, its tuning allpass and its loop filter.
struct KsString {
    line: Vec<f32>,
    pos: usize,
    /// Loop gain per pass (sets the decay time).
    gain: f32,
    /// Side taps of the symmetric loop filter `a·x[n] + (1−2a)·x[n−1] + a·x[n−2]` (one sample of delay, linear
    /// phase, so it does not detune the string).
    a: f32,
    prev1: f32,
    prev2: f32,
    /// Allpass coefficient for the fractional part of the period.
    c: f32,
    ap_x: f32,
    ap_y: f32,
}

impl KsString {
    fn new(freq: f32, decay: f32, brightness: f32, excitation: &[f32]) -> Self {
        // Loop delay = line length + 1 (loop filter) + d (allpass); d kept in [0.5, 1.5) where the first-order
        // allpass's phase delay is flat enough at the fundamental.
        let period = SR / freq;
        let n = ((period - 1.5).floor() as usize).max(2);
        let d = period - 1.0 - n as f32;
        let c = (1.0 - d) / (1.0 + d);
        // 60 dB down after `decay` seconds, i.e. after decay·freq passes through the loop.
        let gain = 10f32.powf(-3.0 / (decay * freq));
        // Brighter strings lose less of their top harmonics per pass.
        let a = 0.25 * (1.0 - 0.75 * brightness.clamp(0.0, 1.0));
        let line = (0..n).map(|i| excitation[i % excitation.len()]).collect();
        KsString { line, pos: 0, gain, a, prev1: 0.0, prev2: 0.0, c, ap_x: 0.0, ap_y: 0.0 }
    }

    fn tick(&mut self) -> f32 {
        let x = self.line[self.pos];
        let filtered = self.gain * (self.a * x + (1.0 - 2.0 * self.a) * self.prev1 + self.a * self.prev2);
        self.prev2 = self.prev1;
        self.prev1 = x;
        let y = self.c * filtered + self.ap_x - self.c * self.ap_y;
        self.ap_x = filtered;
        self.ap_y = y;
        self.line[self.pos] = y;
        self.pos = (self.pos + 1) % self.line.len();
        x
    }
}

/// A biquad band-pass filter (RBJ cookbook, 0 dB peak gain): one resonance of the bamboo tube.
struct BandPass {
    b0: f32,
    b2: f32,
    a1: f32,
    a2: f32,
    x1: f32,
    x2: f32,
    y1: f32,
    y2: f32,
}

impl BandPass {
    fn new(freq: f32, q: f32) -> Self {
        let w = std::f32::consts::TAU * freq / SR;
        let alpha = w.sin() / (2.0 * q);
        let a0 = 1.0 + alpha;
        BandPass {
            b0: alpha / a0,
            b2: -alpha / a0,
            a1: -2.0 * w.cos() / a0,
            a2: (1.0 - alpha) / a0,
            x1: 0.0,
            x2: 0.0,
            y1: 0.0,
            y2: 0.0,
        }
    }

    fn tick(&mut self, x: f32) -> f32 {
        let y = self.b0 * x + self.b2 * self.x2 - self.a1 * self.y1 - self.a2 * self.y2;
        self.x2 = self.x1;
        self.x1 = x;
        self.y2 = self.y1;
        self.y1 = y;
        y
    }
}

/// The excitation: a burst of noise one period long, lowpassed according to the brightness, with a pluck-position
/// comb (plucked near the end of the string, so the notch falls high and the tone stays bright) and zero mean so
/// the string carries no DC.
fn excitation(len: usize, brightness: f32, seed: u32) -> Vec<f32> {
    let mut noise = Noise(seed.wrapping_mul(2_654_435_761).max(1));
    let smooth = 0.85 - 0.7 * brightness.clamp(0.0, 1.0);
    let mut state = 0.0;
    let raw: Vec<f32> = (0..len)
        .map(|_| {
            state = smooth * state + (1.0 - smooth) * noise.next();
            state
        })
        .collect();
    let offset = (len / 8).max(1);
    let mut burst: Vec<f32> = (0..len).map(|i| raw[i] - if i >= offset { raw[i - offset] } else { 0.0 }).collect();
    let mean = burst.iter().sum::<f32>() / len as f32;
    let peak = burst.iter().fold(0.0f32, |m, x| m.max((x - mean).abs())).max(1e-6);
    for x in &mut burst {
        *x = (*x - mean) / peak;
    }
    burst
}

/// Renders one note, unnormalised: two detuned strings through the tube resonances, `seconds` long.
pub fn pluck(note: Pluck, seconds: f32) -> Vec<f32> {
    let len = (seconds * SR) as usize;
    let period = (SR / note.freq) as usize + 2;
    // The second string is 3.5 cents sharp and quieter: over the beat period the sum keeps the first string's
    // pitch, and the slow beating (about 1 Hz in the middle register) is the paired strings' shimmer.
    let detune = 2f32.powf(3.5 / 1200.0);
    let mut strings = [
        (KsString::new(note.freq, note.decay, note.brightness, &excitation(period, note.brightness, note.seed)), 1.0),
        (
            KsString::new(
                note.freq * detune,
                note.decay * 0.85,
                note.brightness,
                &excitation(period, note.brightness, note.seed.wrapping_add(7)),
            ),
            0.45,
        ),
    ];
    // The tube: a low air resonance and a higher body mode, mixed under the direct string sound.
    let mut tube = [(BandPass::new(310.0, 3.0), 0.35), (BandPass::new(820.0, 4.0), 0.25)];
    // A 1.5 ms rise takes the edge off the first sample without slowing the attack.
    let rise = (0.0015 * SR) as usize;
    (0..len)
        .map(|i| {
            let s: f32 = strings.iter_mut().map(|(s, g)| s.tick() * *g).sum();
            let body: f32 = tube.iter_mut().map(|(f, g)| f.tick(s) * *g).sum();
            let env = if i < rise { 0.5 - 0.5 * (std::f32::consts::PI * i as f32 / rise as f32).cos() } else { 1.0 };
            (s + body) * env * note.velocity
        })
        .collect()
}

/// Adds `src` into `dst` starting at `at` seconds, growing `dst` as needed.
fn mix_into(dst: &mut Vec<f32>, src: &[f32], at: f32) {
    let start = (at * SR) as usize;
    if dst.len() < start + src.len() {
        dst.resize(start + src.len(), 0.0);
    }
    for (d, s) in dst[start..].iter_mut().zip(src) {
        *d += s;
    }
}

/// Makes a buffer ready to play: normalised to `peak` (below 1, the headroom that keeps several sounds at once from
/// clipping) through a soft knee, DC blocked, and faded over its last 80 ms so no note is cut off.
fn finish(mut buf: Vec<f32>, peak: f32) -> Vec<f32> {
    // The first milliseconds of a pluck are a noise burst far above the ringing string; scaled to twice the
    // target and passed through a soft (tanh) knee, that burst is rounded off and the note itself comes out about
    // 5 dB louder for the same peak, while the ringing part (well under the knee) is left nearly linear.
    let max = buf.iter().fold(0.0f32, |m, x| m.max(x.abs())).max(1e-9);
    for x in &mut buf {
        *x = peak * (2.0 * *x / max).tanh();
    }
    // One-pole DC blocker (about 10 Hz), after the knee since an uneven burst leaves an offset through it.
    let r = 1.0 - std::f32::consts::TAU * 10.0 / SR;
    let (mut x1, mut y1) = (0.0, 0.0);
    for x in &mut buf {
        let y = *x - x1 + r * y1;
        x1 = *x;
        y1 = y;
        *x = y;
    }
    let fade = ((0.08 * SR) as usize).min(buf.len());
    let n = buf.len();
    for (i, x) in buf[n - fade..].iter_mut().enumerate() {
        *x *= 0.5 + 0.5 * (std::f32::consts::PI * i as f32 / fade as f32).cos();
    }
    buf
}

/// A single finished note: `seconds` long, normalised to `peak`.
pub fn note(p: Pluck, seconds: f32, peak: f32) -> Vec<f32> {
    finish(pluck(p, seconds), peak)
}

/// The soft pluck of a paika (non-capturing) move: a mellow A4, quiet and short.
pub fn paika() -> Vec<f32> {
    note(Pluck { freq: scale_freq(3), decay: 0.6, brightness: 0.25, velocity: 1.0, seed: 11 }, 0.8, 0.4)
}

/// The most pieces a capture sound distinguishes; bigger captures sound like this one.
pub const MAX_CAPTURE: usize = 5;

/// A capture of `pieces` pieces: the note rises a scale degree per piece (from F♯4) and gains an octave and then a
/// fifth above it, brighter and louder, as the capture grows (counts above [`MAX_CAPTURE`] sound as that).
pub fn capture(pieces: usize) -> Vec<f32> {
    let n = pieces.clamp(1, MAX_CAPTURE);
    let degree = 1 + n as i32;
    let bright = 0.55 + 0.08 * n as f32;
    let mut buf =
        pluck(Pluck { freq: scale_freq(degree), decay: 1.1, brightness: bright, velocity: 1.0, seed: 21 }, 1.3);
    if n >= 2 {
        let octave = Pluck { freq: scale_freq(degree + 5), decay: 0.8, brightness: bright, velocity: 0.4, seed: 22 };
        mix_into(&mut buf, &pluck(octave, 1.1), 0.012);
    }
    if n >= 4 {
        let fifth = Pluck { freq: scale_freq(degree + 3), decay: 0.9, brightness: bright, velocity: 0.35, seed: 23 };
        mix_into(&mut buf, &pluck(fifth, 1.1), 0.024);
    }
    finish(buf, 0.5 + 0.06 * n as f32)
}

/// The relay steps the sounds distinguish; later steps repeat the top one.
pub const RELAY_STEPS: usize = 8;

/// The capture at step `index` of a relay (1 for the second capture of the turn, 2 for the third…): the melody climbs
/// the scale one degree per step, from A4 up to F♯6.
pub fn relay_step(index: usize) -> Vec<f32> {
    let i = index.clamp(1, RELAY_STEPS) as i32;
    let p = Pluck { freq: scale_freq(2 + i), decay: 0.9, brightness: 0.7, velocity: 1.0, seed: 30 + i as u32 };
    note(p, 1.0, 0.6)
}

/// Strums notes of the scale: `(degree, delay in seconds, velocity)`, each ringing `decay` seconds.
fn strum(notes: &[(i32, f32, f32)], decay: f32, brightness: f32, seconds: f32) -> Vec<f32> {
    let mut buf = Vec::new();
    for (k, &(degree, at, velocity)) in notes.iter().enumerate() {
        let p = Pluck { freq: scale_freq(degree), decay, brightness, velocity, seed: 40 + k as u32 };
        mix_into(&mut buf, &pluck(p, seconds - at), at);
    }
    buf
}

/// The gentle chord that closes a long relay turn: D4 A4 D5 F♯5 strummed upwards, soft and ringing.
pub fn turn_end() -> Vec<f32> {
    let buf = strum(&[(0, 0.0, 0.8), (3, 0.03, 0.7), (5, 0.06, 0.6), (7, 0.09, 0.5)], 1.4, 0.35, 1.8);
    finish(buf, 0.5)
}

/// The win phrase: a rising arpeggio D4 F♯4 A4 D5 that lands on a bright D major chord.
pub fn win() -> Vec<f32> {
    let buf = strum(
        &[
            (0, 0.0, 0.8),
            (2, 0.14, 0.8),
            (3, 0.28, 0.85),
            (5, 0.42, 0.9),
            (3, 0.62, 0.5),
            (7, 0.62, 0.6),
            (10, 0.64, 0.7),
        ],
        1.5,
        0.7,
        2.4,
    );
    finish(buf, 0.75)
}

/// The loss phrase: the same strings falling slowly to B3, so the pentatonic set sounds as B minor: sad, not
/// harsh.
pub fn loss() -> Vec<f32> {
    let buf = strum(&[(4, 0.0, 0.8), (3, 0.22, 0.75), (1, 0.44, 0.7), (0, 0.66, 0.65), (-1, 0.92, 0.8)], 1.4, 0.3, 2.6);
    finish(buf, 0.7)
}

/// The draw phrase: E4 and A4 in turn, then both together, left open (neither D nor B).
pub fn draw() -> Vec<f32> {
    let buf = strum(
        &[(1, 0.0, 0.7), (3, 0.2, 0.7), (1, 0.4, 0.6), (3, 0.6, 0.6), (1, 0.85, 0.5), (3, 0.85, 0.5)],
        1.2,
        0.45,
        2.2,
    );
    finish(buf, 0.65)
}

/// The click of a UI button: a very short, damped high pluck (D6) that is over in a tenth of a second.
pub fn click() -> Vec<f32> {
    note(Pluck { freq: scale_freq(10), decay: 0.08, brightness: 0.9, velocity: 1.0, seed: 50 }, 0.12, 0.3)
}

/// The quiet melody looped on the title screen: eight soft notes of the scale over four seconds, ringing into
/// the loop's restart (its end fades, so the loop joins without a click).
pub fn title_melody() -> Vec<f32> {
    let degrees = [0, 3, 5, 4, 3, 1, 2, -1];
    let notes: Vec<(i32, f32, f32)> =
        degrees.iter().enumerate().map(|(k, &d)| (d, 0.5 * k as f32, if k % 2 == 0 { 0.7 } else { 0.5 })).collect();
    let mut buf = strum(&notes, 1.5, 0.3, 5.0);
    buf.truncate((5.0 * SR) as usize);
    finish(buf, 0.35)
}

/// Every sound of the game with its file name stem: `paika`, `capture-1`…, `relay-1`…, `turn-end`, `win`, `loss`,
/// `draw`, `click`, `title`. The game and `--export-sounds` both use this list.
pub fn all_sounds() -> Vec<(String, Vec<f32>)> {
    let mut out = vec![("paika".to_string(), paika())];
    out.extend((1..=MAX_CAPTURE).map(|n| (format!("capture-{n}"), capture(n))));
    out.extend((1..=RELAY_STEPS).map(|i| (format!("relay-{i}"), relay_step(i))));
    out.push(("turn-end".into(), turn_end()));
    out.push(("win".into(), win()));
    out.push(("loss".into(), loss()));
    out.push(("draw".into(), draw()));
    out.push(("click".into(), click()));
    out.push(("title".into(), title_melody()));
    out
}

/// The format of the exported sounds: mono 16-bit PCM at [`SAMPLE_RATE`].
fn wav_spec() -> hound::WavSpec {
    hound::WavSpec {
        channels: 1,
        sample_rate: SAMPLE_RATE,
        bits_per_sample: 16,
        sample_format: hound::SampleFormat::Int,
    }
}

/// Writes `samples` (clamped to ±1) as a WAV file of [`wav_spec`] into `out`.
fn write_wav_to<W: Write + Seek>(out: W, samples: &[f32]) -> io::Result<()> {
    let mut writer = hound::WavWriter::new(out, wav_spec()).map_err(io::Error::other)?;
    for s in samples {
        writer.write_sample((s.clamp(-1.0, 1.0) * 32767.0).round() as i16).map_err(io::Error::other)?;
    }
    writer.finalize().map_err(io::Error::other)
}

/// A mono 16-bit PCM WAV file of `samples` (clamped to ±1) at [`SAMPLE_RATE`].
pub fn wav_bytes(samples: &[f32]) -> Vec<u8> {
    let mut out = io::Cursor::new(Vec::with_capacity(44 + 2 * samples.len()));
    write_wav_to(&mut out, samples).expect("writing to memory cannot fail");
    out.into_inner()
}

/// Writes `samples` as a WAV file (see [`wav_bytes`]).
pub fn write_wav(path: &Path, samples: &[f32]) -> io::Result<()> {
    write_wav_to(io::BufWriter::new(std::fs::File::create(path)?), samples)
}

/// Writes every sound of [`all_sounds`] into `dir` (created if missing) as `<name>.wav`; returns the paths.
pub fn export_all(dir: &Path) -> io::Result<Vec<std::path::PathBuf>> {
    std::fs::create_dir_all(dir)?;
    all_sounds()
        .into_iter()
        .map(|(name, samples)| {
            let path = dir.join(format!("{name}.wav"));
            write_wav(&path, &samples).map(|()| path)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Time in ms until |x| first reaches 90% of its peak.
    fn attack_ms(x: &[f32]) -> f32 {
        let peak = x.iter().fold(0.0f32, |m, v| m.max(v.abs()));
        let i = x.iter().position(|v| v.abs() >= 0.9 * peak).unwrap();
        i as f32 * 1000.0 / SR
    }

    /// RMS of consecutive frames of `ms` milliseconds.
    fn frames_rms(x: &[f32], ms: f32) -> Vec<f32> {
        let n = (ms / 1000.0 * SR) as usize;
        x.chunks(n).filter(|c| c.len() == n).map(|c| (c.iter().map(|v| v * v).sum::<f32>() / n as f32).sqrt()).collect()
    }

    /// The fundamental of `x` by autocorrelation over 0.05–0.45 s: the first lag whose normalised correlation
    /// comes within 10% of the best in 60–2000 Hz, refined to its local maximum and by parabolic interpolation.
    pub(super) fn f0(x: &[f32]) -> f32 {
        let start = (0.05 * SR) as usize;
        let w = (0.4 * SR) as usize;
        let seg = &x[start..start + w];
        let energy: f32 = seg.iter().map(|v| v * v).sum();
        let r = |lag: usize| -> f32 {
            let other = &x[start + lag..start + lag + w];
            let e2: f32 = other.iter().map(|v| v * v).sum();
            seg.iter().zip(other).map(|(a, b)| (*a as f64 * *b as f64) as f32).sum::<f32>() / (energy * e2).sqrt()
        };
        let (lo, hi) = ((SR / 2000.0) as usize, (SR / 60.0) as usize);
        let rs: Vec<f32> = (lo..=hi).map(r).collect();
        let best = rs.iter().cloned().fold(f32::MIN, f32::max);
        let mut i = rs.iter().position(|v| *v >= 0.9 * best).unwrap();
        while i + 1 < rs.len() && rs[i + 1] > rs[i] {
            i += 1;
        }
        let (a, b, c) = (rs[i - 1], rs[i], rs[i + 1]);
        let shift = 0.5 * (a - c) / (a - 2.0 * b + c);
        SR / ((lo + i) as f32 + shift)
    }

    fn cents(measured: f32, target: f32) -> f32 {
        1200.0 * (measured / target).log2()
    }

    #[test]
    fn scale_is_d_major_pentatonic() {
        assert!((scale_freq(0) - 293.66).abs() < 0.01);
        assert!((scale_freq(3) - 440.0).abs() < 0.01);
        assert!((scale_freq(5) - 2.0 * scale_freq(0)).abs() < 0.01);
        assert!((scale_freq(-1) - 246.94).abs() < 0.01);
    }

    #[test]
    fn every_note_of_the_scale_is_in_tune() {
        for degree in -2..=12 {
            let target = scale_freq(degree);
            let x = pluck(Pluck { seed: (degree + 3) as u32, ..Pluck::new(target) }, 0.6);
            let err = cents(f0(&x), target);
            println!("degree {degree:3} target {target:8.2} Hz error {err:+.2} cents");
            assert!(err.abs() < 5.0, "degree {degree}: {err:+.2} cents");
        }
    }

    #[test]
    fn no_clipping_and_no_dc() {
        for (name, x) in all_sounds() {
            let peak = x.iter().fold(0.0f32, |m, v| m.max(v.abs()));
            let mean = x.iter().map(|v| *v as f64).sum::<f64>() / x.len() as f64;
            assert!(peak <= 0.9, "{name}: peak {peak}");
            assert!(peak > 0.1, "{name}: too quiet, peak {peak}");
            assert!(mean.abs() < 1e-3, "{name}: DC {mean}");
            assert!(x.iter().all(|v| v.is_finite()), "{name}");
        }
    }

    #[test]
    fn attack_is_fast() {
        let mut notes = vec![("paika", paika()), ("click", click())];
        notes.extend((1..=MAX_CAPTURE).map(|n| ("capture", capture(n))));
        notes.extend((1..=RELAY_STEPS).map(|i| ("relay", relay_step(i))));
        for (name, x) in notes {
            let ms = attack_ms(&x);
            println!("{name}: attack {ms:.2} ms");
            assert!(ms < 10.0, "{name}: attack {ms} ms");
        }
    }

    #[test]
    fn decay_is_a_plucked_string() {
        let mut notes = vec![("paika", paika()), ("click", click()), ("turn-end", turn_end())];
        notes.extend((1..=MAX_CAPTURE).map(|n| ("capture", capture(n))));
        notes.extend((1..=RELAY_STEPS).map(|i| ("relay", relay_step(i))));
        for (name, x) in notes {
            let tenth = x.len() / 10;
            let energy = |s: &[f32]| s.iter().map(|v| v * v).sum::<f32>();
            let ratio = energy(&x[x.len() - tenth..]) / energy(&x[..tenth]);
            assert!(ratio < 0.01, "{name}: last tenth / first tenth energy {ratio}");
            // Monotone-ish: after the first frames no frame is much louder than the one before (the paired strings'
            // slow beating is allowed), and each quarter is quieter than the one before.
            let rms = frames_rms(&x, 10.0);
            // (Frames in the first 150 ms are skipped: chords are strummed there.)
            // Below −30 dB of the loudest frame the beating of a chord's strings may show; only the audible part counts.
            let loudest = rms.iter().cloned().fold(0.0, f32::max);
            let rises: Vec<(usize, f32)> = rms
                .windows(2)
                .enumerate()
                .skip(15)
                .filter(|(_, w)| w[1] > 1.15 * w[0] && w[1] > 0.03 * loudest)
                .map(|(i, w)| (i, w[1] / w[0]))
                .collect();
            assert!(rises.is_empty(), "{name}: rising frames {rises:?}");
            let q = rms.len() / 4;
            let quarters: Vec<f32> = rms.chunks(q).take(4).map(|c| c.iter().sum::<f32>()).collect();
            assert!(quarters.windows(2).all(|w| w[1] < w[0]), "{name}: quarters {quarters:?}");
        }
    }

    #[test]
    fn notes_ring_for_a_plucked_string_time() {
        // 60 dB of decay between 0.6 and 1.5 s: measure the time to fall 30 dB in 20 ms frames and double it.
        for degree in [0, 3, 5, 8] {
            let x = pluck(Pluck::new(scale_freq(degree)), 2.0);
            let rms = frames_rms(&x, 20.0);
            let peak = rms.iter().cloned().fold(0.0, f32::max);
            let k = rms.iter().position(|v| *v < peak * 10f32.powf(-30.0 / 20.0)).unwrap();
            let t60 = 2.0 * k as f32 * 0.02;
            assert!((0.5..=1.6).contains(&t60), "degree {degree}: T60 ≈ {t60} s");
        }
    }

    #[test]
    fn sounds_differ_and_climb() {
        // Relay steps climb the scale; captures rise with the count.
        let relays: Vec<f32> = (1..=RELAY_STEPS).map(|i| f0(&relay_step(i))).collect();
        assert!(relays.windows(2).all(|w| w[1] > w[0]), "{relays:?}");
        // (From four pieces on the added fifth makes the period of the whole sound an octave lower.)
        let captures: Vec<f32> = (1..=3).map(|n| f0(&capture(n))).collect();
        assert!(captures.windows(2).all(|w| w[1] > w[0]), "{captures:?}");
        let names: Vec<String> = all_sounds().into_iter().map(|(n, _)| n).collect();
        assert!(names.contains(&"capture-5".to_string()) && names.contains(&"click".to_string()));
    }

    #[test]
    fn wav_header_is_pcm16_mono() {
        let bytes = wav_bytes(&[0.0, 1.0, -1.0, 2.0]);
        assert_eq!(&bytes[..4], b"RIFF");
        assert_eq!(u32::from_le_bytes(bytes[4..8].try_into().unwrap()), 36 + 8);
        assert_eq!(&bytes[8..16], b"WAVEfmt ");
        assert_eq!(u16::from_le_bytes([bytes[22], bytes[23]]), 1);
        assert_eq!(u32::from_le_bytes(bytes[24..28].try_into().unwrap()), SAMPLE_RATE);
        assert_eq!(u16::from_le_bytes([bytes[34], bytes[35]]), 16);
        assert_eq!(&bytes[36..40], b"data");
        assert_eq!(bytes.len(), 44 + 8);
        let s = |i: usize| i16::from_le_bytes([bytes[44 + 2 * i], bytes[45 + 2 * i]]);
        assert_eq!((s(0), s(1), s(2), s(3)), (0, 32767, -32767, 32767));
    }

    #[test]
    fn exported_files_read_back_as_written() {
        let dir = std::env::temp_dir().join(format!("fanorona-wav-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("click.wav");
        let samples = click();
        write_wav(&path, &samples).unwrap();
        let mut reader = hound::WavReader::open(&path).unwrap();
        assert_eq!(reader.spec(), wav_spec());
        let back: Vec<i16> = reader.samples::<i16>().map(Result::unwrap).collect();
        assert_eq!(back.len(), samples.len());
        for (b, s) in back.iter().zip(&samples) {
            assert!((f32::from(*b) / 32767.0 - s.clamp(-1.0, 1.0)).abs() <= 0.5 / 32767.0 + 1e-6);
        }
        assert_eq!(std::fs::read(&path).unwrap(), wav_bytes(&samples), "the file is the bytes of wav_bytes");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
