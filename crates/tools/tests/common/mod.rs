//! What the CLI's end-to-end tests share: a scratch folder of each test's own.

use std::path::PathBuf;

/// A folder of its own for one test (tests run at once), removed when dropped.
pub struct Scratch(pub PathBuf);

impl Scratch {
    /// A fresh folder for the test `name` of the suite `suite`, unique to this run.
    pub fn new(suite: &str, name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("fanorona-{suite}-test-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        std::fs::remove_dir_all(&self.0).ok();
    }
}
