//! Storage that cannot lose data: named text documents in the platform's data folder (desktop), a folder given
//! with `--data-dir`, the browser's local storage (web), or memory (tests).
//!
//! Every write replaces a document as a whole and atomically (a temporary file flushed to the disk, renamed over the
//! old one, then the folder itself flushed so that the rename is on the disk too: a crash leaves either the old or
//! the new text). A document that cannot be read back (corrupt, truncated, from
//! another version, badly hand-edited) is moved aside under a new name, never deleted, and the caller tells the
//! player once.

use serde::Serialize;
use serde::de::DeserializeOwned;
use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// Where the documents live.
#[derive(Clone, Debug)]
enum Backend {
    /// Files in a folder.
    Dir(PathBuf),
    /// The browser's local storage, keys prefixed with `fanorona/`.
    #[cfg(target_arch = "wasm32")]
    Local,
    /// Memory (tests), shared by clones.
    Memory(Arc<Mutex<BTreeMap<String, String>>>),
    /// Nowhere: no data folder could be found; nothing is kept. (A browser always has local storage.)
    #[cfg_attr(target_arch = "wasm32", allow(dead_code))]
    Nowhere,
}

/// A place to keep the game's documents (settings, the game in progress, stats).
#[derive(bevy::prelude::Resource, Clone, Debug)]
pub struct Storage {
    backend: Backend,
}

/// Why a document could not be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StorageError {
    /// Reading or writing failed (permissions, disk full, storage quota…).
    Io(String),
    /// The text is not a document of this kind (corrupt, truncated or badly edited).
    Malformed(String),
    /// The document is from another version of the game.
    Version {
        /// The version found.
        found: u32,
        /// The version this game reads.
        expected: u32,
    },
}

impl fmt::Display for StorageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use crate::i18n::tf;
        match self {
            StorageError::Io(e) => f.write_str(&tf("storage.io", &[("error", e.to_string().into())])),
            StorageError::Malformed(e) => f.write_str(&tf("storage.malformed", &[("error", e.to_string().into())])),
            StorageError::Version { found, expected } => {
                f.write_str(&tf("storage.version", &[("found", (*found).into()), ("expected", (*expected).into())]))
            }
        }
    }
}

impl std::error::Error for StorageError {}

/// The outcome of loading a document.
#[derive(Debug)]
pub enum Loaded<T> {
    /// There is no such document yet.
    Missing,
    /// The document, read.
    Found(T),
    /// The document could not be used and was moved aside to `kept_as` (None if even that failed: it then stays
    /// where it was, untouched, and is not overwritten this run).
    MovedAside {
        /// Why it could not be used.
        error: StorageError,
        /// Where it is kept now.
        kept_as: Option<String>,
    },
}

/// A document kind: its name in storage and its format version.
pub trait Document: Serialize + DeserializeOwned {
    /// The document's name (file name without extension, or local storage key).
    const NAME: &'static str;
    /// The format version; a document with another version is moved aside rather than misread.
    const VERSION: u32;

    /// Checks what the format cannot say (ranges, names, a game record's legality); an error moves the document
    /// aside like a malformed one.
    fn check(&self) -> Result<(), String> {
        Ok(())
    }
}

/// The envelope every document is stored in: its version, then its content.
#[derive(Serialize)]
struct Envelope<'a, T> {
    version: u32,
    content: &'a T,
}

/// The envelope read back: the version was checked first, from [`VersionOnly`].
#[derive(serde::Deserialize)]
struct EnvelopeOwned<T> {
    content: T,
}

#[derive(serde::Deserialize)]
struct VersionOnly {
    version: u32,
}

impl Storage {
    /// The platform's storage: the data folder on desktop (`$XDG_DATA_HOME/fanorona`, `~/.local/share/fanorona`,
    /// `%APPDATA%\Fanorona`, `~/Library/Application Support/Fanorona`; see [`platform_data_dir`]), local storage on
    /// the web.
    pub fn platform() -> Storage {
        #[cfg(target_arch = "wasm32")]
        {
            Storage { backend: Backend::Local }
        }
        #[cfg(not(target_arch = "wasm32"))]
        {
            match platform_data_dir() {
                Some(dir) => Storage::in_dir(dir),
                None => Storage { backend: Backend::Nowhere },
            }
        }
    }

    /// Storage in the folder `dir` (created at the first write).
    pub fn in_dir(dir: impl Into<PathBuf>) -> Storage {
        Storage { backend: Backend::Dir(dir.into()) }
    }

    /// Storage in memory, shared by this value's clones (for tests).
    pub fn memory() -> Storage {
        Storage { backend: Backend::Memory(Arc::default()) }
    }

    /// Where the documents are, in words (for the settings screen and logs).
    pub fn describe(&self) -> String {
        match &self.backend {
            Backend::Dir(d) => d.display().to_string(),
            #[cfg(target_arch = "wasm32")]
            Backend::Local => "browser local storage".into(),
            Backend::Memory(_) => "memory".into(),
            Backend::Nowhere => "nowhere (no data folder found)".into(),
        }
    }

    /// The raw text of document `name`, if it exists.
    pub fn read_text(&self, name: &str) -> Result<Option<String>, StorageError> {
        match &self.backend {
            Backend::Dir(dir) => match std::fs::read(file(dir, name)) {
                Ok(bytes) => String::from_utf8(bytes)
                    .map(Some)
                    .map_err(|_| StorageError::Malformed("the file is not text (UTF-8)".into())),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
                Err(e) => Err(StorageError::Io(e.to_string())),
            },
            #[cfg(target_arch = "wasm32")]
            Backend::Local => local::get(name),
            Backend::Memory(m) => Ok(m.lock().expect("storage lock").get(name).cloned()),
            Backend::Nowhere => Ok(None),
        }
    }

    /// Replaces document `name` with `text`, atomically.
    pub fn write_text(&self, name: &str, text: &str) -> Result<(), StorageError> {
        match &self.backend {
            Backend::Dir(dir) => write_atomically(dir, name, text).map_err(|e| StorageError::Io(e.to_string())),
            #[cfg(target_arch = "wasm32")]
            Backend::Local => local::set(name, text),
            Backend::Memory(m) => {
                m.lock().expect("storage lock").insert(name.to_string(), text.to_string());
                Ok(())
            }
            Backend::Nowhere => Ok(()),
        }
    }

    /// Removes document `name` (a finished game's save); a missing document is fine.
    pub fn remove(&self, name: &str) -> Result<(), StorageError> {
        match &self.backend {
            Backend::Dir(dir) => match std::fs::remove_file(file(dir, name)) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(StorageError::Io(e.to_string())),
                _ => Ok(()),
            },
            #[cfg(target_arch = "wasm32")]
            Backend::Local => local::remove(name),
            Backend::Memory(m) => {
                m.lock().expect("storage lock").remove(name);
                Ok(())
            }
            Backend::Nowhere => Ok(()),
        }
    }

    /// The names of the documents kept (moved-aside ones included), sorted.
    pub fn names(&self) -> Vec<String> {
        let mut names: Vec<String> = match &self.backend {
            Backend::Dir(dir) => std::fs::read_dir(dir)
                .map(|rd| {
                    rd.filter_map(|e| e.ok())
                        .filter_map(|e| e.file_name().to_str()?.strip_suffix(".ron").map(str::to_string))
                        .collect()
                })
                .unwrap_or_default(),
            #[cfg(target_arch = "wasm32")]
            Backend::Local => local::names(),
            Backend::Memory(m) => m.lock().expect("storage lock").keys().cloned().collect(),
            Backend::Nowhere => Vec::new(),
        };
        names.sort();
        names
    }

    /// Moves document `name` aside to a new name that no document has (`name.broken-1`, `-2`, …) and returns it.
    pub fn move_aside(&self, name: &str) -> Result<String, StorageError> {
        let existing = self.names();
        let new =
            (1..).map(|i| format!("{name}.broken-{i}")).find(|n| !existing.contains(n)).expect("an unused name exists");
        match &self.backend {
            Backend::Dir(dir) => std::fs::rename(file(dir, name), file(dir, &new))
                .and_then(|()| sync_dir(dir))
                .map_err(|e| StorageError::Io(e.to_string()))?,
            _ => {
                let text = self.read_text(name)?.unwrap_or_default();
                self.write_text(&new, &text)?;
                self.remove(name)?;
            }
        }
        Ok(new)
    }

    /// Loads document `D`; one that cannot be used is moved aside (see [`Loaded`]).
    pub fn load<D: Document>(&self) -> Loaded<D> {
        let text = match self.read_text(D::NAME) {
            Ok(None) => return Loaded::Missing,
            Ok(Some(text)) => text,
            // Unreadable bytes are kept where they are rather than risk a move that fails halfway.
            Err(error @ StorageError::Io(_)) => return Loaded::MovedAside { error, kept_as: None },
            Err(error) => return self.aside::<D>(error),
        };
        match decode::<D>(&text).and_then(|d| d.check().map(|()| d).map_err(StorageError::Malformed)) {
            Ok(d) => Loaded::Found(d),
            Err(error) => self.aside::<D>(error),
        }
    }

    fn aside<D: Document>(&self, error: StorageError) -> Loaded<D> {
        let kept_as = match self.move_aside(D::NAME) {
            Ok(name) => Some(name),
            Err(e) => {
                bevy::log::error!("cannot move {} aside: {e}", D::NAME);
                None
            }
        };
        Loaded::MovedAside { error, kept_as }
    }

    /// Saves document `d` (atomically).
    pub fn save<D: Document>(&self, d: &D) -> Result<(), StorageError> {
        self.write_text(D::NAME, &encode(d))
    }

    /// Saves game record `name` (letters, digits, `-`, `_` and `.` only), atomically: in a folder as
    /// `records/<name>.txt`, so that players find plain text files, elsewhere as the document `records/<name>`.
    /// Unlike the documents, a record with nowhere to go is an error: the player asked for it explicitly.
    pub fn write_record(&self, name: &str, text: &str) -> Result<(), StorageError> {
        check_record_name(name)?;
        match &self.backend {
            Backend::Dir(dir) => write_file_atomically(&dir.join(RECORDS), &format!("{name}.txt"), text)
                .map_err(|e| StorageError::Io(e.to_string())),
            Backend::Nowhere => Err(StorageError::Io("no data folder was found".into())),
            _ => self.write_text(&format!("{RECORDS}/{name}"), text),
        }
    }

    /// The text of game record `name`, if it exists.
    pub fn read_record(&self, name: &str) -> Result<Option<String>, StorageError> {
        check_record_name(name)?;
        match &self.backend {
            Backend::Dir(dir) => match std::fs::read(dir.join(RECORDS).join(format!("{name}.txt"))) {
                Ok(bytes) => String::from_utf8(bytes)
                    .map(Some)
                    .map_err(|_| StorageError::Malformed("the file is not text (UTF-8)".into())),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
                Err(e) => Err(StorageError::Io(e.to_string())),
            },
            _ => self.read_text(&format!("{RECORDS}/{name}")),
        }
    }

    /// Removes game record `name`; a missing record is fine.
    pub fn remove_record(&self, name: &str) -> Result<(), StorageError> {
        check_record_name(name)?;
        match &self.backend {
            Backend::Dir(dir) => match std::fs::remove_file(dir.join(RECORDS).join(format!("{name}.txt"))) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(StorageError::Io(e.to_string())),
                _ => Ok(()),
            },
            _ => self.remove(&format!("{RECORDS}/{name}")),
        }
    }

    /// The names of the game records kept, sorted (names from [`Storage::write_record`], without folder or
    /// extension).
    pub fn list_records(&self) -> Vec<String> {
        let mut names: Vec<String> = match &self.backend {
            Backend::Dir(dir) => std::fs::read_dir(dir.join(RECORDS))
                .map(|rd| {
                    rd.filter_map(|e| e.ok())
                        .filter_map(|e| e.file_name().to_str()?.strip_suffix(".txt").map(str::to_string))
                        .filter(|n| check_record_name(n).is_ok())
                        .collect()
                })
                .unwrap_or_default(),
            _ => self
                .names()
                .into_iter()
                .filter_map(|n| n.strip_prefix(RECORDS)?.strip_prefix('/').map(str::to_string))
                .collect(),
        };
        names.sort();
        names
    }

    /// Where game record `name` is kept, in words: its file's path in a folder, `records/<name>` elsewhere.
    pub fn record_location(&self, name: &str) -> String {
        match &self.backend {
            Backend::Dir(dir) => dir.join(RECORDS).join(format!("{name}.txt")).display().to_string(),
            _ => format!("{RECORDS}/{name}"),
        }
    }
}

/// The folder (or name prefix) of the game records.
pub const RECORDS: &str = "records";

/// A record name must stay one file inside the records folder: no separators, no hidden or relative names.
fn check_record_name(name: &str) -> Result<(), StorageError> {
    let ok = !name.is_empty()
        && !name.starts_with('.')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
    if ok { Ok(()) } else { Err(StorageError::Io(format!("{name:?} is not a valid record name"))) }
}

/// Writes `text` to the file `file_name` in `dir`, which is created if missing: first to a temporary file, flushed
/// to the disk, then renamed over the old file, and the folder flushed so that the rename itself is durable.
fn write_file_atomically(dir: &Path, file_name: &str, text: &str) -> std::io::Result<()> {
    use std::io::Write;
    std::fs::create_dir_all(dir)?;
    let tmp = dir.join(format!(".{file_name}.tmp"));
    {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(text.as_bytes())?;
        f.sync_all()?;
    }
    std::fs::rename(&tmp, dir.join(file_name))?;
    sync_dir(dir)
}

/// Flushes the entries of the folder `dir` (new names, renames) to the disk. On Unix a rename is durable only once
/// its folder is synced; elsewhere (Windows cannot open a folder as a file) and on file systems that refuse it
/// there is nothing to do.
fn sync_dir(dir: &Path) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        use std::io::ErrorKind;
        match std::fs::File::open(dir).and_then(|d| d.sync_all()) {
            Err(e) if matches!(e.kind(), ErrorKind::Unsupported | ErrorKind::InvalidInput) => Ok(()),
            other => other,
        }
    }
    #[cfg(not(unix))]
    {
        let _ = dir;
        Ok(())
    }
}

/// The text of a document: RON, pretty, with its format version first.
pub fn encode<D: Document>(d: &D) -> String {
    let config = ron::ser::PrettyConfig::new().depth_limit(6).indentor("  ".to_string());
    ron::ser::to_string_pretty(&Envelope { version: D::VERSION, content: d }, config)
        .expect("our documents are plain data")
}

/// Reads the text of a document, checking its version first so that another version's fields are never misread.
pub fn decode<D: Document>(text: &str) -> Result<D, StorageError> {
    let version = ron::from_str::<VersionOnly>(text).map_err(|e| StorageError::Malformed(e.to_string()))?.version;
    if version != D::VERSION {
        return Err(StorageError::Version { found: version, expected: D::VERSION });
    }
    ron::from_str::<EnvelopeOwned<D>>(text).map(|e| e.content).map_err(|e| StorageError::Malformed(e.to_string()))
}

fn file(dir: &Path, name: &str) -> PathBuf {
    dir.join(format!("{name}.ron"))
}

/// Replaces the document `name` in `dir` by `text` (see [`write_file_atomically`]).
fn write_atomically(dir: &Path, name: &str, text: &str) -> std::io::Result<()> {
    write_file_atomically(dir, &format!("{name}.ron"), text)
}

/// The platform's folder for application data, as the `directories` crate finds it (`$XDG_DATA_HOME` or
/// `~/.local/share` on Linux, the roaming AppData folder on Windows, `~/Library/Application Support` on macOS), with
/// the game's own folder in it: `fanorona`, or `Fanorona` where folder names are capitalised. These are the folders of
/// earlier versions, so saves stay where they were. None when the system has no home folder.
#[cfg(not(target_arch = "wasm32"))]
fn platform_data_dir() -> Option<PathBuf> {
    let name = if cfg!(any(target_os = "windows", target_os = "macos")) { "Fanorona" } else { "fanorona" };
    directories::BaseDirs::new().map(|dirs| dirs.data_dir().join(name))
}

#[cfg(target_arch = "wasm32")]
mod local {
    //! The browser's local storage; failures (storage disabled, quota) are errors, never panics.
    use super::StorageError;

    const PREFIX: &str = "fanorona/";

    fn storage() -> Result<web_sys::Storage, StorageError> {
        web_sys::window()
            .and_then(|w| w.local_storage().ok().flatten())
            .ok_or_else(|| StorageError::Io("the browser's local storage is not available".into()))
    }

    fn io(e: wasm_bindgen::JsValue) -> StorageError {
        StorageError::Io(format!("{e:?}"))
    }

    pub fn get(name: &str) -> Result<Option<String>, StorageError> {
        storage()?.get_item(&format!("{PREFIX}{name}")).map_err(io)
    }

    pub fn set(name: &str, text: &str) -> Result<(), StorageError> {
        storage()?.set_item(&format!("{PREFIX}{name}"), text).map_err(io)
    }

    pub fn remove(name: &str) -> Result<(), StorageError> {
        storage()?.remove_item(&format!("{PREFIX}{name}")).map_err(io)
    }

    pub fn names() -> Vec<String> {
        let Ok(s) = storage() else { return Vec::new() };
        let n = s.length().unwrap_or(0);
        (0..n).filter_map(|i| s.key(i).ok().flatten()?.strip_prefix(PREFIX).map(str::to_string)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Serialize, serde::Deserialize, Debug, PartialEq, Default)]
    struct Doc {
        name: String,
        numbers: Vec<u32>,
    }

    impl Document for Doc {
        const NAME: &'static str = "doc";
        const VERSION: u32 = 3;
    }

    /// A fresh folder that is removed with everything in it when the test ends, passed or failed.
    fn temp_dir(tag: &str) -> tempfile::TempDir {
        tempfile::Builder::new().prefix(&format!("fanorona-storage-{tag}-")).tempdir().unwrap()
    }

    /// A store in memory and one in a folder that its first save creates, with the guard of the temporary folder
    /// around it (the folder lives as long as the guard does).
    fn stores(tag: &str) -> (Vec<Storage>, tempfile::TempDir) {
        let dir = temp_dir(tag);
        (vec![Storage::memory(), Storage::in_dir(dir.path().join("saves"))], dir)
    }

    #[test]
    fn round_trip() {
        let (stores, _dir) = stores("round");
        for s in stores {
            assert!(matches!(s.load::<Doc>(), Loaded::Missing));
            let d = Doc { name: "a \"quoted\" name".into(), numbers: vec![1, 2, 3] };
            s.save(&d).unwrap();
            match s.load::<Doc>() {
                Loaded::Found(back) => assert_eq!(back, d),
                other => panic!("{other:?}"),
            }
            assert!(s.read_text("doc").unwrap().unwrap().contains("version: 3"), "readable, versioned text");
        }
    }

    #[test]
    fn bad_documents_are_moved_aside_and_kept() {
        let good = encode(&Doc { name: "x".into(), numbers: vec![7] });
        let cases = [
            ("garbage", "this is not RON".to_string()),
            ("truncated", good[..good.len() / 2].to_string()),
            ("wrong version", good.replace("version: 3", "version: 2")),
            ("bad field", good.replace("numbers: [", "numbers: [\"seven\", ")),
            ("empty", String::new()),
        ];
        let (stores, _dir) = stores("aside");
        for s in stores {
            for (i, (what, text)) in cases.iter().enumerate() {
                s.write_text("doc", text).unwrap();
                match s.load::<Doc>() {
                    Loaded::MovedAside { kept_as: Some(kept), error } => {
                        assert_eq!(kept, format!("doc.broken-{}", i + 1), "{what}");
                        assert_eq!(s.read_text(&kept).unwrap().as_deref(), Some(text.as_str()), "{what}: kept as is");
                        if *what == "wrong version" {
                            assert_eq!(error, StorageError::Version { found: 2, expected: 3 });
                        }
                    }
                    other => panic!("{what}: {other:?}"),
                }
                assert_eq!(s.read_text("doc").unwrap(), None, "{what}: the name is free for a fresh document");
            }
            // Everything kept, nothing lost; a new save works.
            assert_eq!(s.names().len(), cases.len());
            s.save(&Doc::default()).unwrap();
            assert!(matches!(s.load::<Doc>(), Loaded::Found(_)));
        }
    }

    #[test]
    fn not_utf8_is_moved_aside() {
        let tmp = temp_dir("utf8");
        let dir = tmp.path();
        std::fs::create_dir_all(dir).unwrap();
        std::fs::write(dir.join("doc.ron"), [0xff, 0xfe, 0x00, 0x41]).unwrap();
        let s = Storage::in_dir(dir);
        assert!(matches!(s.load::<Doc>(), Loaded::MovedAside { kept_as: Some(_), .. }));
        assert_eq!(std::fs::read(dir.join("doc.broken-1.ron")).unwrap(), [0xff, 0xfe, 0x00, 0x41]);
    }

    #[test]
    fn records_are_text_files_beside_the_documents() {
        let tmp = temp_dir("records");
        let dir = tmp.path();
        for s in [Storage::memory(), Storage::in_dir(dir)] {
            s.save(&Doc { name: "kept".into(), numbers: vec![1] }).unwrap();
            assert!(s.list_records().is_empty());
            s.write_record("fanorona-2026-01-02-030405", "1. d3-e3A\n").unwrap();
            s.write_record("fanorona-2025-12-31-235959", "text").unwrap();
            assert_eq!(s.list_records(), ["fanorona-2025-12-31-235959", "fanorona-2026-01-02-030405"]);
            assert_eq!(s.read_record("fanorona-2026-01-02-030405").unwrap().as_deref(), Some("1. d3-e3A\n"));
            assert_eq!(s.read_record("fanorona-1999-01-01-000000").unwrap(), None);
            for bad in ["", "../doc", "a/b", ".hidden", "a b"] {
                assert!(s.write_record(bad, "x").is_err(), "{bad:?}");
            }
            // The documents are untouched by the records.
            assert!(matches!(s.load::<Doc>(), Loaded::Found(d) if d.name == "kept"));
        }
        assert_eq!(std::fs::read_to_string(dir.join("records/fanorona-2025-12-31-235959.txt")).unwrap(), "text");
        assert_eq!(Storage::in_dir(dir).names(), ["doc"]);
        assert!(Storage { backend: Backend::Nowhere }.write_record("r", "x").is_err());
    }

    #[test]
    #[cfg(not(target_arch = "wasm32"))]
    fn the_platform_folder_is_the_game_folder_in_the_systems_data_folder() {
        let Some(base) = directories::BaseDirs::new() else { return };
        let dir = platform_data_dir().expect("a data folder where the system has a home");
        assert_eq!(dir.parent(), Some(base.data_dir()));
        assert!(dir.ends_with("fanorona") || dir.ends_with("Fanorona"), "{}", dir.display());
        assert_eq!(Storage::platform().describe(), dir.display().to_string());
        #[cfg(target_os = "linux")]
        {
            // The XDG layout the game used before: an absolute $XDG_DATA_HOME, else ~/.local/share.
            match std::env::var_os("XDG_DATA_HOME").map(PathBuf::from).filter(|d| d.is_absolute()) {
                Some(xdg) => assert_eq!(dir, xdg.join("fanorona")),
                None => assert_eq!(dir, base.home_dir().join(".local/share/fanorona")),
            }
        }
    }

    #[test]
    fn the_folder_of_a_replaced_document_can_be_synced() {
        let tmp = temp_dir("sync");
        let dir = tmp.path();
        std::fs::create_dir_all(dir).unwrap();
        sync_dir(dir).unwrap();
        write_file_atomically(dir, "a.txt", "one").unwrap();
        write_file_atomically(dir, "a.txt", "two").unwrap();
        assert_eq!(std::fs::read_to_string(dir.join("a.txt")).unwrap(), "two");
        // A folder that does not exist is an error, not a silent success.
        assert!(sync_dir(&dir.join("missing")).is_err() || cfg!(not(unix)));
    }

    #[test]
    fn writes_leave_no_temporary_files() {
        let tmp = temp_dir("atomic");
        let dir = &tmp.path().join("saves");
        let s = Storage::in_dir(dir);
        for i in 0..5 {
            s.save(&Doc { name: i.to_string(), numbers: vec![] }).unwrap();
        }
        let files: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(files, vec![std::ffi::OsString::from("doc.ron")]);
        s.remove("doc").unwrap();
        s.remove("doc").unwrap();
        assert!(matches!(s.load::<Doc>(), Loaded::Missing));
    }
}
