//! The file formats: a table's file (header, checksum, save, load read or mapped), the part file of a finished pair
//! of classes and the header of a pair's saved analysis, all written whole or not at all; and [`TbError`], why a
//! file could not be used.

use super::index::{Indexer, MAX_PIECES};
use super::probe::{Entries, Tablebase};
use crate::geometry::Variant;
use std::fmt;
use std::fs;
use std::io::{self, Read, Write};
use std::path::Path;

/// Why a tablebase file could not be used.
#[derive(Debug)]
pub enum TbError {
    /// Reading or writing the file failed.
    Io(io::Error),
    /// The file does not start with the tablebase magic bytes.
    NotATablebase,
    /// The file has a format version this code does not read.
    Version(u32),
    /// The file is for another board (the stored variant code).
    WrongVariant {
        /// The variant asked for.
        expected: Variant,
        /// The code found in the file.
        found: u8,
    },
    /// The file holds another number of pieces.
    WrongPieces {
        /// The piece count asked for.
        expected: u32,
        /// The piece count found in the file.
        found: u32,
    },
    /// The file is shorter or longer than its header says, or the header's length is wrong for the table.
    WrongLength,
    /// The data does not match the stored checksum.
    Checksum,
    /// More pieces than [`MAX_PIECES`].
    TooManyPieces(u32),
}

impl fmt::Display for TbError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TbError::Io(e) => write!(f, "tablebase file: {e}"),
            TbError::NotATablebase => write!(f, "not a Fanorona tablebase file"),
            TbError::Version(v) => write!(f, "unsupported tablebase format version {v}"),
            TbError::WrongVariant { expected, found } => {
                write!(f, "tablebase is for board code {found}, not {expected}")
            }
            TbError::WrongPieces { expected, found } => {
                write!(f, "tablebase holds up to {found} pieces, not {expected}")
            }
            TbError::WrongLength => write!(f, "tablebase file has the wrong length (truncated or padded)"),
            TbError::Checksum => write!(f, "tablebase file is corrupt (checksum mismatch)"),
            TbError::TooManyPieces(n) => write!(f, "tablebases go up to {MAX_PIECES} pieces, not {n}"),
        }
    }
}

impl std::error::Error for TbError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            TbError::Io(e) => Some(e),
            _ => None,
        }
    }
}

impl From<io::Error> for TbError {
    fn from(e: io::Error) -> Self {
        TbError::Io(e)
    }
}

/// File magic: a name, then bytes that text-mode transfers would mangle.
const MAGIC: [u8; 8] = *b"FNRTB\r\n\x1a";
const VERSION: u32 = 1;
/// The length of a table file's header (and of a part file's).
pub(super) const HEADER_LEN: usize = 32;

pub(super) fn variant_code(v: Variant) -> u8 {
    match v {
        Variant::Tsivy => 0,
        Variant::Dimy => 1,
    }
}

/// A 64-bit checksum of the data; every step is a bijection of the state, so any single changed word is caught.
pub(super) fn checksum(data: &[u8]) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64 ^ data.len() as u64;
    let mut words = data.chunks_exact(8);
    for w in &mut words {
        h = (h ^ u64::from_le_bytes(w.try_into().expect("8 bytes"))).wrapping_mul(0x0000_0100_0000_01b3);
        h ^= h >> 29;
    }
    for &b in words.remainder() {
        h = (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3);
        h ^= h >> 29;
    }
    h
}

/// Checks a table file's header (see [`Tablebase::save`]) against the table wanted: `variant`, `max_pieces` and
/// its `total` entries.
fn check_header(h: &[u8; HEADER_LEN], variant: Variant, max_pieces: u32, total: usize) -> Result<(), TbError> {
    if h[0..8] != MAGIC {
        return Err(TbError::NotATablebase);
    }
    let version = u32::from_le_bytes(h[8..12].try_into().expect("4 bytes"));
    if version != VERSION {
        return Err(TbError::Version(version));
    }
    if h[12] != variant_code(variant) {
        return Err(TbError::WrongVariant { expected: variant, found: h[12] });
    }
    if h[13] as u32 != max_pieces {
        return Err(TbError::WrongPieces { expected: max_pieces, found: h[13] as u32 });
    }
    let len = u64::from_le_bytes(h[16..24].try_into().expect("8 bytes"));
    if len != total as u64 || h[14..16] != [0, 0] {
        return Err(TbError::WrongLength);
    }
    Ok(())
}

/// Reads a table file's header from `f` and checks it against the table wanted ([`check_header`]).
fn read_header(f: &mut impl Read, variant: Variant, max_pieces: u32) -> Result<([u8; HEADER_LEN], Indexer), TbError> {
    let mut h = [0u8; HEADER_LEN];
    f.read_exact(&mut h)
        .map_err(|e| if e.kind() == io::ErrorKind::UnexpectedEof { TbError::NotATablebase } else { TbError::Io(e) })?;
    let ix = Indexer::new(variant, max_pieces);
    check_header(&h, variant, max_pieces, ix.total)?;
    Ok((h, ix))
}

/// Checks a table's entries against the checksum its file's header `h` holds.
fn check_sum(h: &[u8; HEADER_LEN], data: &[u8]) -> Result<(), TbError> {
    if checksum(data) == u64::from_le_bytes(h[24..32].try_into().expect("8 bytes")) {
        Ok(())
    } else {
        Err(TbError::Checksum)
    }
}

impl Tablebase {
    /// The file name [`Tablebase::load_or_build`] uses, e.g. `fanorona-tsivy-5.tb`.
    pub fn file_name(variant: Variant, max_pieces: u32) -> String {
        format!("fanorona-{variant}-{max_pieces}.tb")
    }

    fn header(&self) -> [u8; HEADER_LEN] {
        let mut h = [0u8; HEADER_LEN];
        h[0..8].copy_from_slice(&MAGIC);
        h[8..12].copy_from_slice(&VERSION.to_le_bytes());
        h[12] = variant_code(self.ix.variant);
        h[13] = self.ix.max as u8;
        h[16..24].copy_from_slice(&(self.data.len() as u64).to_le_bytes());
        h[24..32].copy_from_slice(&checksum(&self.data).to_le_bytes());
        h
    }

    /// Writes the table to `path`: a 32-byte header (magic, format version, board, piece count, data length,
    /// checksum) and one byte per entry, through a temporary name so that the file is whole or absent.
    pub fn save(&self, path: impl AsRef<Path>) -> Result<(), TbError> {
        write_whole(path.as_ref(), &[&self.header(), &self.data])
    }

    /// Reads a table written by [`Tablebase::save`], checking that it is for `variant` and `max_pieces` and that
    /// it is intact. Never panics on a bad file.
    pub fn load(path: impl AsRef<Path>, variant: Variant, max_pieces: u32) -> Result<Tablebase, TbError> {
        if max_pieces > MAX_PIECES {
            return Err(TbError::TooManyPieces(max_pieces));
        }
        #[cfg(not(target_arch = "wasm32"))]
        if let Some(mapped) = Self::map(path.as_ref(), variant, max_pieces) {
            return mapped;
        }
        Self::read(path.as_ref(), variant, max_pieces)
    }

    /// The table as [`Tablebase::save`] writes it (header and entries), for a host without files that keeps it
    /// elsewhere (a browser's IndexedDB).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(HEADER_LEN + self.data.len());
        out.extend_from_slice(&self.header());
        out.extend_from_slice(&self.data);
        out
    }

    /// Reads a table given by [`Tablebase::to_bytes`] (or a file's contents), checked as [`Tablebase::load`]
    /// checks a file. Never panics on bad bytes.
    pub fn from_bytes(bytes: &[u8], variant: Variant, max_pieces: u32) -> Result<Tablebase, TbError> {
        if max_pieces > MAX_PIECES {
            return Err(TbError::TooManyPieces(max_pieces));
        }
        let mut reader = bytes;
        let (h, ix) = read_header(&mut reader, variant, max_pieces)?;
        if reader.len() != ix.total {
            return Err(TbError::WrongLength);
        }
        check_sum(&h, reader)?;
        Ok(Tablebase { ix, data: Entries::Owned(reader.to_vec()), top: None })
    }

    /// [`Tablebase::load`] by reading the file into memory.
    fn read(path: &Path, variant: Variant, max_pieces: u32) -> Result<Tablebase, TbError> {
        let mut f = io::BufReader::new(fs::File::open(path)?);
        let (h, ix) = read_header(&mut f, variant, max_pieces)?;
        let mut data = vec![0u8; ix.total];
        f.read_exact(&mut data).map_err(|e| {
            if e.kind() == io::ErrorKind::UnexpectedEof { TbError::WrongLength } else { TbError::Io(e) }
        })?;
        if f.read(&mut [0u8; 1])? != 0 {
            return Err(TbError::WrongLength);
        }
        check_sum(&h, &data)?;
        Ok(Tablebase { ix, data: Entries::Owned(data), top: None })
    }

    /// [`Tablebase::load`] by mapping the file's entries: None where they cannot be mapped (the caller reads the
    /// file instead).
    #[cfg(not(target_arch = "wasm32"))]
    fn map(path: &Path, variant: Variant, max_pieces: u32) -> Option<Result<Tablebase, TbError>> {
        let mapped = || -> Result<Option<Tablebase>, TbError> {
            let mut file = fs::File::open(path)?;
            let (h, ix) = read_header(&mut file, variant, max_pieces)?;
            if file.metadata()?.len() != (HEADER_LEN + ix.total) as u64 {
                return Err(TbError::WrongLength);
            }
            // Not `populate`: the checksum below reads every page anyway and faults them in as it goes (the
            // six-piece table loaded in 0.14-0.15 s either way), without keeping the process's memory map busy.
            let mut options = memmap2::MmapOptions::new();
            options.offset(HEADER_LEN as u64).len(ix.total);
            // SAFETY: the map is only read. A mapped file that changed under the map would change the table (or,
            // truncated, stop the program), so no table file is ever written in place: `write_whole` writes a new
            // file and renames it over the old one, which leaves a mapped old file as it was.
            let Ok(map) = (unsafe { options.map(&file) }) else { return Ok(None) };
            check_sum(&h, &map)?;
            Ok(Some(Tablebase { ix, data: Entries::Mapped(map), top: None }))
        };
        mapped().transpose()
    }
}

/// The magic bytes of a file of a pair in progress, and the length of its header.
pub(super) const PARTIAL_MAGIC: [u8; 8] = *b"FNRTB\r\n\x1c";
/// The length of the header of a pair in progress: a part file's, then the distance of the next round.
pub(super) const PARTIAL_HEADER_LEN: usize = 40;

/// The magic bytes of a part file (the table's own, with a different last byte, so that neither loads as the other).
const PART_MAGIC: [u8; 8] = *b"FNRTB\r\n\x1b";

/// The header of a part file.
fn part_header(variant: Variant, max_pieces: u32, a: u32, b: u32, first: &[u8], second: &[u8]) -> [u8; HEADER_LEN] {
    pair_header(PART_MAGIC, variant, max_pieces, a, b, &[first, second])
}

/// The header of a file of pair (a, b) of a `max_pieces` table, whose contents are `parts` one after the other:
/// magic, format version, board, the table's pieces, a, b, length, checksum.
pub(super) fn pair_header(
    magic: [u8; 8],
    variant: Variant,
    max_pieces: u32,
    a: u32,
    b: u32,
    parts: &[&[u8]],
) -> [u8; HEADER_LEN] {
    let len = parts.iter().map(|p| p.len()).sum::<usize>() as u64;
    let sum = parts.iter().enumerate().fold(0u64, |x, (i, p)| x ^ checksum(p).rotate_left(i as u32));
    header_of(magic, VERSION, variant, max_pieces, (a, b), len, sum)
}

/// The header of a file of pair (a, b) of a `pieces` table: magic, format version, board, pieces, a, b, the length
/// of what follows, a checksum.
pub(super) fn header_of(
    magic: [u8; 8],
    version: u32,
    variant: Variant,
    pieces: u32,
    (a, b): (u32, u32),
    len: u64,
    sum: u64,
) -> [u8; HEADER_LEN] {
    let mut h = [0u8; HEADER_LEN];
    h[0..8].copy_from_slice(&magic);
    h[8..12].copy_from_slice(&version.to_le_bytes());
    h[12] = variant_code(variant);
    h[13] = pieces as u8;
    h[14] = a as u8;
    h[15] = b as u8;
    h[16..24].copy_from_slice(&len.to_le_bytes());
    h[24..32].copy_from_slice(&sum.to_le_bytes());
    h
}

/// Saves a finished pair (through a temporary name, so that the part file is whole or absent).
pub(super) fn write_part(
    path: &Path,
    variant: Variant,
    max_pieces: u32,
    a: u32,
    b: u32,
    first: &[u8],
    second: &[u8],
) -> Result<(), TbError> {
    write_whole(path, &[&part_header(variant, max_pieces, a, b, first, second), first, second])
}

/// Writes `pieces` one after the other to `path` through a temporary name in the same folder
/// (`<stem>.tmp<pid>`, which [`remove_stale_temporaries`] clears after a crash), so that the file is whole or
/// absent, never half written.
pub(super) fn write_whole(path: &Path, pieces: &[&[u8]]) -> Result<(), TbError> {
    write_whole_synced(path, pieces, true)
}

/// [`write_whole`], waiting for the disk (`sync`) or not: a checkpoint of work in progress, whose checksum a
/// resumed build checks, does not wait the seconds that a gigabyte takes to reach the disk (both cores idle the
/// while); a machine that crashes meanwhile only loses the checkpoint.
pub(super) fn write_whole_synced(path: &Path, pieces: &[&[u8]], sync: bool) -> Result<(), TbError> {
    let tmp = path.with_extension(format!("tmp{}", std::process::id()));
    let written = (|| {
        let mut f = io::BufWriter::new(fs::File::create(&tmp)?);
        for piece in pieces {
            f.write_all(piece)?;
        }
        let f = f.into_inner().map_err(|e| e.into_error())?;
        if sync {
            f.sync_all()?;
        }
        fs::rename(&tmp, path)
    })();
    if written.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    Ok(written?)
}

/// Fills the pair's two classes from its part file when that file is there and intact for exactly this table
/// and pair; false (and the slices in any state) otherwise, and the pair is built again.
pub(super) fn read_part(
    path: &Path,
    variant: Variant,
    max_pieces: u32,
    a: u32,
    b: u32,
    first: &mut [u8],
    second: &mut [u8],
) -> bool {
    let Ok(file) = fs::File::open(path) else { return false };
    let mut f = io::BufReader::new(file);
    let mut h = [0u8; HEADER_LEN];
    let read = f.read_exact(&mut h).is_ok()
        && f.read_exact(first).is_ok()
        && f.read_exact(second).is_ok()
        && matches!(f.read(&mut [0u8; 1]), Ok(0));
    read && h == part_header(variant, max_pieces, a, b, first, second)
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{quiet, tmp_path};
    use super::*;

    #[test]
    fn save_load_round_trip_and_rejects_bad_files() {
        let tb = Tablebase::build(Variant::Dimy, 3, quiet);
        let path = tmp_path("roundtrip.tb");
        tb.save(&path).unwrap();
        let back = Tablebase::load(&path, Variant::Dimy, 3).unwrap();
        #[cfg(not(target_arch = "wasm32"))]
        assert!(matches!(back.data, Entries::Mapped(_)), "a cached table is mapped, not read");
        assert_eq!(back.data, tb.data);
        assert_eq!(back.clone().data, tb.data);
        assert_eq!(Tablebase::read(&path, Variant::Dimy, 3).unwrap().data, tb.data);
        // The damaged files below are written in place, which no table file ever is while mapped.
        drop(back);
        assert!(matches!(Tablebase::load(&path, Variant::Tsivy, 3), Err(TbError::WrongVariant { .. })));
        assert!(matches!(Tablebase::load(&path, Variant::Dimy, 2), Err(TbError::WrongPieces { .. })));
        assert!(matches!(Tablebase::load(&path, Variant::Dimy, 9), Err(TbError::TooManyPieces(9))));
        let good = fs::read(&path).unwrap();
        assert_eq!(tb.to_bytes(), good, "the bytes kept elsewhere are the file's");
        // Mapped, read or given as bytes, a damaged file gets the same error.
        let check = |bytes: &[u8]| {
            fs::write(&path, bytes).unwrap();
            let read = Tablebase::read(&path, Variant::Dimy, 3);
            let loaded = Tablebase::load(&path, Variant::Dimy, 3);
            assert_eq!(
                format!("{:?}", read.as_ref().map(|t| &t.data)),
                format!("{:?}", loaded.as_ref().map(|t| &t.data))
            );
            assert_eq!(
                format!("{:?}", Tablebase::from_bytes(bytes, Variant::Dimy, 3).as_ref().map(|t| &t.data)),
                format!("{:?}", loaded.as_ref().map(|t| &t.data))
            );
            loaded
        };
        let mut flipped = good.clone();
        flipped[HEADER_LEN + 1234] ^= 0x10;
        assert!(matches!(check(&flipped), Err(TbError::Checksum)));
        assert!(matches!(check(&good[..good.len() - 1]), Err(TbError::WrongLength)));
        assert!(matches!(check(&[good.as_slice(), &[0]].concat()), Err(TbError::WrongLength)));
        assert!(matches!(check(&good[..10]), Err(TbError::NotATablebase)));
        assert!(matches!(check(b""), Err(TbError::NotATablebase)));
        assert!(matches!(check(&[b"garbage!".as_slice(), &good[8..]].concat()), Err(TbError::NotATablebase)));
        let mut version = good.clone();
        version[8] = 99;
        assert!(matches!(check(&version), Err(TbError::Version(99))));
        let mut length = good.clone();
        length[16] ^= 1;
        assert!(matches!(check(&length), Err(TbError::WrongLength)));
        assert!(check(&good).is_ok());
        fs::remove_file(&path).unwrap();
        assert!(matches!(Tablebase::load(&path, Variant::Dimy, 3), Err(TbError::Io(_))));

        // The cache: built and saved the first time, loaded the second, rebuilt over a corrupt file.
        let dir = tmp_path("cache");
        let _ = fs::remove_dir_all(&dir);
        let mut log = Vec::new();
        let first = Tablebase::load_or_build(&dir, Variant::Dimy, 2, |s| log.push(s.to_string())).unwrap();
        assert!(log.last().unwrap().contains("saved"), "{log:?}");
        log.clear();
        let second = Tablebase::load_or_build(&dir, Variant::Dimy, 2, |s| log.push(s.to_string())).unwrap();
        assert!(log[0].contains("loaded"), "{log:?}");
        assert_eq!(first.data, second.data);
        let file = dir.join(Tablebase::file_name(Variant::Dimy, 2));
        fs::write(&file, b"not a table").unwrap();
        log.clear();
        let third = Tablebase::load_or_build(&dir, Variant::Dimy, 2, |s| log.push(s.to_string())).unwrap();
        assert!(log[0].contains("not usable"), "{log:?}");
        assert_eq!(third.data, first.data);
        assert!(Tablebase::load(&file, Variant::Dimy, 2).is_ok());
        fs::remove_dir_all(&dir).unwrap();
    }
}
