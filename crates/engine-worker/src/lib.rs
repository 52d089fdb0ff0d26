//! The engine of the browser game's Web Worker (`web/engine-worker.js`): the engine service
//! ([`fanorona_engine::service::Engine`]) behind a small JavaScript interface. No Bevy: the module holds the
//! search, the evaluation, the book and the endgame tables, nothing else.
//!
//! The worker hands each message from the page to [`WorkerEngine::handle`] (a JSON [`Request`]) and, while
//! [`WorkerEngine::busy`], calls [`WorkerEngine::run_for`] for a tenth of a second at a time, posting the
//! replies it returns (a JSON array of [`Reply`]) and going back to its event loop between two calls, so that a
//! new request (a cancel, a new position) is read within one slice. Tables come and go as bytes: the worker keeps
//! them in IndexedDB ([`WorkerEngine::table_bytes`], [`WorkerEngine::load_table`]).

use fanorona_engine::Variant;
use fanorona_engine::service::{Engine, Reply, Request};
use std::time::Duration;
use wasm_bindgen::prelude::*;

/// The board named `name` (`tsivy` or `dimy`, as the tables' file names write it).
fn variant(name: &str) -> Option<Variant> {
    [Variant::Tsivy, Variant::Dimy].into_iter().find(|v| v.to_string() == name)
}

/// The engine service as the worker script sees it.
#[wasm_bindgen]
pub struct WorkerEngine {
    engine: Engine,
}

impl Default for WorkerEngine {
    fn default() -> Self {
        WorkerEngine::new(0)
    }
}

#[wasm_bindgen]
impl WorkerEngine {
    /// An engine that builds the endgame tables of both boards up to `table_pieces` pieces when it has nothing
    /// else to do (0: none).
    #[wasm_bindgen(constructor)]
    pub fn new(table_pieces: u32) -> WorkerEngine {
        let engine = Engine::new();
        let engine = if table_pieces > 0 { engine.with_tables(table_pieces) } else { engine };
        WorkerEngine { engine }
    }

    /// Takes a request (JSON); a malformed one is answered by its error, and nothing else changes.
    pub fn handle(&mut self, request: &str) -> Result<(), String> {
        self.engine.handle(Request::from_json(request)?);
        Ok(())
    }

    /// Works for about `ms` milliseconds; the replies as a JSON array (`[]`: none yet).
    pub fn run_for(&mut self, ms: f64) -> String {
        let mut replies: Vec<Reply> = Vec::new();
        self.engine.run_for(Duration::from_secs_f64(ms.max(0.0) / 1000.0), &mut |r| replies.push(r));
        Reply::list_to_json(&replies)
    }

    /// Whether there is work left (a job, or a table to build).
    pub fn busy(&self) -> bool {
        self.engine.is_busy()
    }

    /// Whether a job runs or waits (tables aside).
    pub fn has_jobs(&self) -> bool {
        self.engine.has_jobs()
    }

    /// Takes a stored table of `board` (`tsivy` or `dimy`) up to `pieces`; an error if the bytes are not one.
    pub fn load_table(&mut self, board: &str, pieces: u32, bytes: &[u8]) -> Result<(), String> {
        let variant = variant(board).ok_or_else(|| format!("no board {board:?}"))?;
        self.engine.load_table(bytes, variant, pieces)
    }

    /// The table of `board` in use, as bytes to store (empty: none).
    pub fn table_bytes(&self, board: &str) -> Vec<u8> {
        variant(board).and_then(|v| self.engine.table_bytes(v)).map(|(_, bytes)| bytes).unwrap_or_default()
    }

    /// The pieces of `board`'s table in use (0: none).
    pub fn table_pieces(&self, board: &str) -> u32 {
        variant(board).and_then(fanorona_engine::tablebase::shared_pieces).unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fanorona_engine::service::{Job, Memory, game_text};
    use fanorona_engine::{Game, Rules, search::Limits};

    #[test]
    fn a_request_in_json_gets_its_replies_in_a_json_array() {
        let mut engine = WorkerEngine::new(0);
        assert!(engine.handle("{\"Start\":").is_err());
        assert_eq!(engine.run_for(5.0), "[]");
        let job = Job::Search {
            game: game_text(&Game::new(Rules::default())),
            limits: Limits::depth(2),
            memory: Memory::Hint,
        };
        engine.handle(&Request::Start { id: 3, job }.to_json()).unwrap();
        let mut replies = Vec::new();
        while engine.has_jobs() {
            let text = engine.run_for(5.0);
            let inner = text.strip_prefix('[').and_then(|t| t.strip_suffix(']')).unwrap();
            assert!(text.starts_with('['));
            if !inner.is_empty() {
                replies.push(text);
            }
        }
        assert!(replies.last().unwrap().contains("\"Searched\""));
        assert_eq!(variant("tsivy"), Some(Variant::Tsivy));
        assert_eq!(variant("dimy"), Some(Variant::Dimy));
        assert_eq!(variant("9x5"), None);
        assert!(engine.load_table("9x5", 3, &[]).is_err());
        assert!(engine.load_table("tsivy", 3, &[1, 2, 3]).is_err());
    }
}
