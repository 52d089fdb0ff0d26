//! Translations: every menu and message of the game in English, French and Malagasy.
//!
//! Texts are looked up by key (`t("menu.new_game")`) in one table per language (`en.rs`, `fr.rs`, `mg.rs`).
//! The current language is global, because every egui system draws text and threading a resource through all of
//! them would buy nothing: it changes only from the settings screen. A missing key shows the key itself, and the
//! tests check that every language has exactly the keys of English and that every key used in the sources exists.

mod en;
mod engine_text;
mod fr;
mod mg;

pub use engine_text::{
    decimal, illegal_reason_text, level_name, outcome_reason, outcome_text, result_text, score_text, side_initial,
    side_name,
};

use std::sync::atomic::{AtomicU8, Ordering};

/// A language of the game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Lang {
    /// English.
    #[default]
    En,
    /// French.
    Fr,
    /// Malagasy.
    Mg,
}

impl Lang {
    /// Every language, in the order the settings list them.
    pub const ALL: [Lang; 3] = [Lang::En, Lang::Fr, Lang::Mg];

    /// The language's own name for itself.
    pub fn native_name(self) -> &'static str {
        match self {
            Lang::En => "English",
            Lang::Fr => "Français",
            Lang::Mg => "Malagasy",
        }
    }

    /// The language of a locale name such as `fr-FR`, `mg_MG.UTF-8` or `en`; None for other languages.
    pub fn from_locale(locale: &str) -> Option<Lang> {
        let code: String = locale.chars().take_while(|c| c.is_ascii_alphabetic()).collect::<String>().to_lowercase();
        match code.as_str() {
            "en" => Some(Lang::En),
            "fr" => Some(Lang::Fr),
            "mg" | "plt" => Some(Lang::Mg),
            _ => None,
        }
    }

    fn table(self) -> &'static [(&'static str, &'static str)] {
        match self {
            Lang::En => en::TABLE,
            Lang::Fr => fr::TABLE,
            Lang::Mg => mg::TABLE,
        }
    }
}

static CURRENT: AtomicU8 = AtomicU8::new(0);

/// Makes `lang` the language of every text from now on.
pub fn set_language(lang: Lang) {
    CURRENT.store(lang as u8, Ordering::Relaxed);
}

/// The current language.
pub fn language() -> Lang {
    match CURRENT.load(Ordering::Relaxed) {
        1 => Lang::Fr,
        2 => Lang::Mg,
        _ => Lang::En,
    }
}

/// The language of the system's locale, English when it is none of the game's.
pub fn system_language() -> Lang {
    sys_locale::get_locale().as_deref().and_then(Lang::from_locale).unwrap_or_default()
}

/// The text of `key` in the current language (the key itself if no table has it).
pub fn t(key: &'static str) -> &'static str {
    lookup(language(), key)
}

/// The text of `key` in `lang`, falling back to English, then to the key.
pub fn lookup(lang: Lang, key: &'static str) -> &'static str {
    let find = |table: &'static [(&'static str, &'static str)]| table.iter().find(|(k, _)| *k == key).map(|(_, v)| *v);
    find(lang.table()).or_else(|| find(Lang::En.table())).unwrap_or(key)
}

/// The text of `key` with its `{}` placeholders filled by `args` in order.
pub fn tf(key: &'static str, args: &[&dyn std::fmt::Display]) -> String {
    let mut out = String::new();
    let mut args = args.iter();
    let mut parts = t(key).split("{}").peekable();
    while let Some(part) = parts.next() {
        out.push_str(part);
        if parts.peek().is_some() {
            match args.next() {
                Some(a) => out.push_str(&a.to_string()),
                None => out.push_str("{}"),
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::{BTreeMap, BTreeSet};
    use std::path::Path;

    fn keys(lang: Lang) -> BTreeSet<&'static str> {
        lang.table().iter().map(|(k, _)| *k).collect()
    }

    #[test]
    fn every_language_has_the_keys_of_english_once_and_no_empty_text() {
        let english = keys(Lang::En);
        for lang in Lang::ALL {
            let table = lang.table();
            let mut seen = BTreeSet::new();
            for (k, v) in table {
                assert!(seen.insert(*k), "{lang:?}: key {k} twice");
                assert!(!v.trim().is_empty(), "{lang:?}: key {k} has an empty text");
            }
            let missing: Vec<_> = english.difference(&seen).collect();
            let extra: Vec<_> = seen.difference(&english).collect();
            assert!(missing.is_empty(), "{lang:?} lacks {missing:?}");
            assert!(extra.is_empty(), "{lang:?} has keys English lacks: {extra:?}");
        }
    }

    #[test]
    fn translations_keep_the_placeholders_of_english() {
        let english: BTreeMap<_, _> = Lang::En.table().iter().copied().collect();
        for lang in Lang::ALL {
            for (k, v) in lang.table() {
                let en = english.get(k).copied().unwrap_or_default();
                assert_eq!(v.matches("{}").count(), en.matches("{}").count(), "{lang:?}: placeholders of {k}");
            }
        }
    }

    /// The string literal starting at `s` (just after its opening quote), unescaped enough for keys.
    fn literal(s: &str) -> Option<&str> {
        s.find('"').map(|end| &s[..end])
    }

    /// Every key the sources look up: the literal first argument of `t` and `tf`, and the literal second argument of
    /// `lookup`.
    fn used_keys(source: &str) -> Vec<String> {
        let mut found = Vec::new();
        for call in ["t(\"", "tf(\""] {
            for (at, _) in source.match_indices(call) {
                // `t(` must be the whole name, not the end of `split(` or `format(`.
                let before = source[..at].chars().next_back();
                if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                    continue;
                }
                if let Some(key) = literal(&source[at + call.len()..]) {
                    found.push(key.to_string());
                }
            }
        }
        for (at, _) in source.match_indices("lookup(") {
            if source[..at].chars().next_back().is_some_and(|c| c.is_alphanumeric() || c == '_') {
                continue;
            }
            let args = &source[at + "lookup(".len()..];
            let args = &args[..args.find(')').unwrap_or(args.len())];
            if let Some(open) = args.find('"')
                && let Some(key) = literal(&args[open + 1..])
            {
                found.push(key.to_string());
            }
        }
        found
    }

    fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
        for entry in std::fs::read_dir(dir).expect("readable source folder") {
            let path = entry.expect("readable entry").path();
            if path.is_dir() {
                rust_files(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }

    #[test]
    fn every_key_used_in_the_sources_exists() {
        let english = keys(Lang::En);
        let mut files = Vec::new();
        rust_files(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"), &mut files);
        let mut used = 0;
        let mut unknown = Vec::new();
        for file in files {
            let source = std::fs::read_to_string(&file).expect("readable source");
            for key in used_keys(&source) {
                used += 1;
                if !english.contains(key.as_str()) {
                    unknown.push(format!("{}: {key}", file.display()));
                }
            }
        }
        assert!(used > 50, "only {used} keys found: is the scan broken?");
        assert!(unknown.is_empty(), "keys missing from the tables: {unknown:#?}");
    }

    #[test]
    fn the_scan_finds_each_kind_of_call() {
        // Built at run time, so that the scan of this very file does not find these made-up keys.
        let source = ["t(\"a.b\"); t", "f(\"c.d\", &[&1]); look", "up(Lang::Fr, \"e.f\"); x.split(\"no\");"].concat();
        assert_eq!(used_keys(&source), ["a.b", "c.d", "e.f"]);
    }

    #[test]
    fn tf_fills_placeholders_in_order() {
        // Language-independent: other tests may run while one changes the language.
        let template = t("hud.cpu");
        let expected = template.replacen("{}", "Black", 1).replacen("{}", "Master", 1);
        assert_eq!(tf("hud.cpu", &[&"Black", &"Master"]), expected);
        assert_eq!(lookup(Lang::En, "hud.cpu"), "{} (CPU, {})");
        // Missing arguments leave their placeholders; extra ones are ignored.
        assert_eq!(tf("hud.cpu", &[&"Black"]), template.replacen("{}", "Black", 1));
        assert_eq!(tf("menu.new_game", &[&1]), t("menu.new_game"));
    }

    #[test]
    fn lookup_falls_back_to_the_key() {
        assert_eq!(lookup(Lang::Fr, "menu.new_game"), "Nouvelle partie");
        assert_eq!(lookup(Lang::Mg, "menu.new_game"), "Lalao vaovao");
        const MISSING: &str = "no.such.key";
        assert_eq!(lookup(Lang::Mg, MISSING), MISSING);
    }

    #[test]
    fn locales_map_to_languages() {
        assert_eq!(Lang::from_locale("en"), Some(Lang::En));
        assert_eq!(Lang::from_locale("en-GB"), Some(Lang::En));
        assert_eq!(Lang::from_locale("fr-FR"), Some(Lang::Fr));
        assert_eq!(Lang::from_locale("fr_CA.UTF-8"), Some(Lang::Fr));
        assert_eq!(Lang::from_locale("FR"), Some(Lang::Fr));
        assert_eq!(Lang::from_locale("mg"), Some(Lang::Mg));
        assert_eq!(Lang::from_locale("mg_MG.UTF-8"), Some(Lang::Mg));
        assert_eq!(Lang::from_locale("plt"), Some(Lang::Mg));
        assert_eq!(Lang::from_locale("de-DE"), None);
        assert_eq!(Lang::from_locale("C"), None);
        assert_eq!(Lang::from_locale(""), None);
    }

    #[test]
    fn system_language_does_not_panic() {
        assert!(Lang::ALL.contains(&system_language()));
    }

    #[test]
    fn engine_texts_are_translated() {
        use fanorona_engine::{DrawReason, Outcome, Side};
        let won = Outcome::NoPieces { winner: Side::White };
        // English matches the engine's own text, capitalised.
        for o in [won, Outcome::Resignation { winner: Side::Black }, Outcome::Draw(DrawReason::NoCapture)] {
            let english = crate::hud::capitalise(&o.to_string());
            if language() == Lang::En {
                assert_eq!(outcome_text(o), english);
            }
        }
        assert_eq!(lookup(Lang::Fr, "reason.black_no_pieces"), "les Noirs n'ont plus de pièces");
        assert_eq!(lookup(Lang::En, "score.win_in").replace("{}", "3"), "win in 3");
        assert_eq!(lookup(Lang::Fr, "number.decimal_separator"), ",");
    }
}
