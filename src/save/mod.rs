//! What the game keeps between runs: durable documents on disk or in local storage, and the settings, the game in
//! progress and the statistics stored in them.

pub mod persist;
pub mod records;
pub mod storage;
