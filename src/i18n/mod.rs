//! Translations: every menu and message of the game in English, French and Malagasy.
//!
//! The texts are [Project Fluent](https://projectfluent.org) files, `assets/i18n/{en,fr,mg}.ftl`, compiled into the
//! binary (the browser build fetches nothing) and read with `fluent-bundle`. CONTRIBUTING.md tells translators how to
//! edit them.
//!
//! The code looks texts up by key: `t("menu.new_game")` for a fixed text, `tf("hud.counts", &[("pieces", n.into()),
//! ("captured", m.into())])` for one with named variables. Fluent ids cannot contain dots, so the message of key
//! `menu.new_game` is `menu-new_game` in the files (the game's keys never contain dashes). Numbers must be passed as
//! numbers (`n.into()` of an integer, [`decimal_arg`] for a fraction) so that plural selection (`[one]`, `[other]`)
//! works; every other value as text (`e.to_string().into()`).
//!
//! The current language is global, because every egui system draws text and threading a resource through all of
//! them would buy nothing: it changes only from the settings screen. A text missing from a language, or made
//! unreadable by a mistake in its file, shows the English text, and a key missing from English shows the key itself;
//! nothing panics. The tests check that every language has exactly the keys and variables of English and that every
//! key used in the sources exists.

mod engine_text;

pub use engine_text::{
    decimal, illegal_reason_text, level_name, outcome_reason, outcome_text, result_text, score_text, side_initial,
    side_name,
};
pub use fluent_bundle::FluentValue;

use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::types::{FluentNumber, FluentNumberOptions};
use fluent_bundle::{FluentArgs, FluentResource};
use std::collections::HashMap;
use std::sync::OnceLock;
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

    /// The language's code, as in the name of its file (`fr` for `fr.ftl`) and for its plural rules.
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Fr => "fr",
            Lang::Mg => "mg",
        }
    }

    /// The language's Fluent file, as compiled into the game.
    fn source(self) -> &'static str {
        match self {
            Lang::En => include_str!("../../assets/i18n/en.ftl"),
            Lang::Fr => include_str!("../../assets/i18n/fr.ftl"),
            Lang::Mg => include_str!("../../assets/i18n/mg.ftl"),
        }
    }
}

/// One language's texts: its Fluent bundle, and each message without variables formatted once, so that [`t`] can
/// hand out plain string slices (egui asks for them every frame).
pub struct Catalog {
    bundle: FluentBundle<FluentResource>,
    /// The formatted text of every message, by the game's key (dots, not dashes).
    texts: HashMap<String, String>,
    /// What went wrong reading the file (parse errors, messages defined twice); empty for a good file.
    pub errors: Vec<String>,
}

impl Catalog {
    /// Reads `source`, the Fluent text of `lang`. Never fails: a damaged message is left out (and reported in
    /// `errors`), the rest of the file still counts.
    pub fn parse(lang: Lang, source: &str) -> Catalog {
        let mut errors = Vec::new();
        let resource = FluentResource::try_new(source.to_string()).unwrap_or_else(|(partial, parse_errors)| {
            errors.extend(parse_errors.iter().map(|e| format!("{}: {e}", lang.code())));
            partial
        });
        let id = lang.code().parse().unwrap_or_default();
        let mut bundle = FluentBundle::new_concurrent(vec![id]);
        // egui would draw Unicode isolation marks (FSI, PDI) around every variable as boxes.
        bundle.set_use_isolating(false);
        if bundle.add_builtins().is_err() {
            errors.push(format!("{}: NUMBER() unavailable", lang.code()));
        }
        let ids: Vec<String> = resource
            .entries()
            .filter_map(|entry| match entry {
                fluent_syntax::ast::Entry::Message(m) => Some(m.id.name.to_string()),
                _ => None,
            })
            .collect();
        if let Err(add_errors) = bundle.add_resource(resource) {
            errors.extend(add_errors.iter().map(|e| format!("{}: {e}", lang.code())));
        }
        let comma = bundle.get_message("number-decimal_separator").and_then(|m| m.value()).is_some_and(|p| {
            let mut ignored = Vec::new();
            bundle.format_pattern(p, None, &mut ignored) == ","
        });
        bundle.set_formatter(Some(if comma { format_number::<true, _> } else { format_number::<false, _> }));
        let mut texts = HashMap::new();
        for id in ids {
            let Some(pattern) = bundle.get_message(&id).and_then(|m| m.value()) else { continue };
            // Messages with variables show their `{$name}` here; they are meant for `tf`.
            let mut ignored = Vec::new();
            let text = bundle.format_pattern(pattern, None, &mut ignored).into_owned();
            texts.insert(id.replace('-', "."), text);
        }
        Catalog { bundle, texts, errors }
    }

    /// The text of `key` without variables, if this language has it.
    pub fn text(&self, key: &str) -> Option<&str> {
        self.texts.get(key).map(String::as_str)
    }

    /// The text of `key` with the named `args`, if this language has it.
    pub fn format(&self, key: &str, args: &[(&str, FluentValue)]) -> Option<String> {
        let pattern = self.bundle.get_message(&key.replace('.', "-"))?.value()?;
        let mut fluent_args = FluentArgs::with_capacity(args.len());
        for (name, value) in args {
            fluent_args.set(*name, value.clone());
        }
        let mut errors = Vec::new();
        let text = self.bundle.format_pattern(pattern, Some(&fluent_args), &mut errors).into_owned();
        if !errors.is_empty() {
            bevy::log::warn!("text {key} ({:?}): {errors:?}", self.bundle.locales);
        }
        Some(text)
    }

    /// Every key of this language, in the game's spelling (dots).
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.texts.keys().map(String::as_str)
    }
}

/// Writes a Fluent number: at most `maximumFractionDigits` decimals (which fluent-bundle itself ignores), then the
/// language's decimal separator, a comma where `COMMA`.
fn format_number<const COMMA: bool, M>(value: &FluentValue, _: &M) -> Option<String> {
    let FluentValue::Number(n) = value else { return None };
    let mut text = match n.options.maximum_fraction_digits {
        Some(max) => {
            let min = n.options.minimum_fraction_digits.unwrap_or(0).min(max);
            let mut text = format!("{:.*}", max, n.value);
            if let Some(point) = text.find('.') {
                let keep = point + 1 + min;
                while text.len() > keep && text.ends_with('0') {
                    text.pop();
                }
                if text.ends_with('.') {
                    text.pop();
                }
            }
            text
        }
        None => n.as_string().into_owned(),
    };
    if COMMA {
        text = text.replace('.', ",");
    }
    Some(text)
}

/// A number with exactly `digits` decimals, as an argument of [`tf`]: "1.5" in English, "1,5" in French. It is still
/// a number, so a translation may select on it.
pub fn decimal_arg(value: f64, digits: usize) -> FluentValue<'static> {
    let options = FluentNumberOptions {
        minimum_fraction_digits: Some(digits),
        maximum_fraction_digits: Some(digits),
        ..Default::default()
    };
    FluentValue::Number(FluentNumber::new(value, options))
}

/// Every language's texts, read from the compiled-in files on first use.
fn catalogs() -> &'static [Catalog; 3] {
    static CATALOGS: OnceLock<[Catalog; 3]> = OnceLock::new();
    CATALOGS.get_or_init(|| {
        Lang::ALL.map(|lang| {
            let catalog = Catalog::parse(lang, lang.source());
            for error in &catalog.errors {
                bevy::log::error!("translations: {error}");
            }
            catalog
        })
    })
}

/// The texts of `lang`.
pub fn catalog(lang: Lang) -> &'static Catalog {
    &catalogs()[lang as usize]
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

/// The text of `key` in the current language (English if the language lacks it, the key itself if English does).
pub fn t(key: &'static str) -> &'static str {
    lookup(language(), key)
}

/// The text of `key` in `lang`, falling back to English, then to the key.
pub fn lookup(lang: Lang, key: &'static str) -> &'static str {
    text_with_fallback(catalog(lang), catalog(Lang::En), key)
}

fn text_with_fallback<'a>(catalog: &'a Catalog, english: &'a Catalog, key: &'a str) -> &'a str {
    catalog.text(key).or_else(|| english.text(key)).unwrap_or(key)
}

/// The text of `key` in the current language with its variables filled by name:
/// `tf("hud.counts", &[("pieces", 12.into()), ("captured", 3.into())])`. Pass numbers as numbers (plurals select on
/// them), anything else as text (`error.to_string().into()`). Falls back like [`t`].
pub fn tf(key: &'static str, args: &[(&str, FluentValue)]) -> String {
    format_in(language(), key, args)
}

/// [`tf`] in `lang`.
pub fn format_in(lang: Lang, key: &str, args: &[(&str, FluentValue)]) -> String {
    format_with_fallback(catalog(lang), catalog(Lang::En), key, args)
}

fn format_with_fallback(catalog: &Catalog, english: &Catalog, key: &str, args: &[(&str, FluentValue)]) -> String {
    catalog.format(key, args).or_else(|| english.format(key, args)).unwrap_or_else(|| key.to_string())
}

/// The text with its first letter in upper case.
pub fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// "Fanoron-Tsivy (9 × 5)" or "Fanoron-Dimy (5 × 5)", in the current language.
pub fn variant_name(v: fanorona_engine::Variant) -> &'static str {
    match v {
        fanorona_engine::Variant::Tsivy => t("variant.tsivy"),
        fanorona_engine::Variant::Dimy => t("variant.dimy"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fluent_syntax::ast;
    use std::collections::{BTreeMap, BTreeSet};
    use std::path::Path;

    /// The variables of every message of a Fluent text, by message id; panics on a parse error (the shipped files
    /// must be clean).
    fn variables(lang: Lang) -> BTreeMap<String, BTreeSet<String>> {
        fn in_pattern(p: &ast::Pattern<&str>, out: &mut BTreeSet<String>) {
            for element in &p.elements {
                if let ast::PatternElement::Placeable { expression } = element {
                    in_expression(expression, out);
                }
            }
        }
        fn in_expression(e: &ast::Expression<&str>, out: &mut BTreeSet<String>) {
            match e {
                ast::Expression::Select { selector, variants } => {
                    in_inline(selector, out);
                    for v in variants {
                        in_pattern(&v.value, out);
                    }
                }
                ast::Expression::Inline(i) => in_inline(i, out),
            }
        }
        fn in_inline(i: &ast::InlineExpression<&str>, out: &mut BTreeSet<String>) {
            match i {
                ast::InlineExpression::VariableReference { id } => {
                    out.insert(id.name.to_string());
                }
                ast::InlineExpression::FunctionReference { arguments, .. } => {
                    for a in &arguments.positional {
                        in_inline(a, out);
                    }
                }
                ast::InlineExpression::Placeable { expression } => in_expression(expression, out),
                _ => {}
            }
        }
        let resource = fluent_syntax::parser::parse(lang.source()).unwrap_or_else(|(_, e)| panic!("{lang:?}: {e:?}"));
        let mut out = BTreeMap::new();
        for entry in &resource.body {
            if let ast::Entry::Message(m) = entry {
                let mut vars = BTreeSet::new();
                if let Some(p) = &m.value {
                    in_pattern(p, &mut vars);
                }
                assert!(out.insert(m.id.name.to_string(), vars).is_none(), "{lang:?}: {} twice", m.id.name);
            }
        }
        out
    }

    fn keys(lang: Lang) -> BTreeSet<&'static str> {
        catalog(lang).keys().collect()
    }

    #[test]
    fn an_analysis_line_shows_its_depth() {
        let line = format_in(
            Lang::En,
            "analysis.line",
            &[("k", 1usize.into()), ("score", "+0.10".into()), ("depth", 7u32.into()), ("pv", "f2-e3A".into())],
        );
        assert_eq!(line, "1. +0.10 (depth 7)  f2-e3A");
    }

    #[test]
    fn the_shipped_files_read_without_errors() {
        for lang in Lang::ALL {
            assert!(catalog(lang).errors.is_empty(), "{lang:?}: {:?}", catalog(lang).errors);
            assert!(keys(lang).len() > 200, "{lang:?}: only {} texts", keys(lang).len());
        }
    }

    #[test]
    fn every_language_has_the_keys_of_english_once_and_no_empty_text() {
        let english = keys(Lang::En);
        for lang in Lang::ALL {
            // `variables` panics on a message defined twice.
            let seen: BTreeSet<String> = variables(lang).into_keys().collect();
            assert_eq!(seen.len(), keys(lang).len(), "{lang:?}: a message without a text");
            let seen: BTreeSet<&str> = keys(lang);
            for key in &seen {
                assert!(!key.contains('-'), "{lang:?}: {key}: the game's keys have dots, not dashes");
                assert!(!lookup(lang, key).trim().is_empty(), "{lang:?}: key {key} has an empty text");
            }
            let missing: Vec<_> = english.difference(&seen).collect();
            let extra: Vec<_> = seen.difference(&english).collect();
            assert!(missing.is_empty(), "{lang:?} lacks {missing:?}");
            assert!(extra.is_empty(), "{lang:?} has keys English lacks: {extra:?}");
        }
    }

    #[test]
    fn translations_keep_the_variables_of_english() {
        let english = variables(Lang::En);
        assert_eq!(english["hud-counts"], BTreeSet::from(["pieces".to_string(), "captured".to_string()]));
        for lang in Lang::ALL {
            for (id, vars) in variables(lang) {
                assert_eq!(Some(&vars), english.get(&id), "{lang:?}: variables of {id}");
            }
        }
    }

    /// The string literal starting at `s` (just after its opening quote), unescaped enough for keys.
    fn literal(s: &str) -> Option<&str> {
        s.find('"').map(|end| &s[..end])
    }

    /// Every key the sources look up: the literal first argument of `t` and `tf`, and the literal second argument of
    /// `lookup` and `format_in`.
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
        for call in ["lookup(", "format_in("] {
            for (at, _) in source.match_indices(call) {
                if source[..at].chars().next_back().is_some_and(|c| c.is_alphanumeric() || c == '_') {
                    continue;
                }
                let args = &source[at + call.len()..];
                // The first argument is the language, never a literal (a literal is this scan's own list of names).
                if args.starts_with('"') {
                    continue;
                }
                let args = &args[..args.find(')').unwrap_or(args.len())];
                if let Some(open) = args.find('"')
                    && let Some(key) = literal(&args[open + 1..])
                {
                    found.push(key.to_string());
                }
            }
        }
        found
    }

    /// The package's folder as `cargo test` gives it to the running test: a build shared by two checkouts
    /// (one target folder) keeps the compile-time path of whichever checkout built it, which may be gone.
    fn package_dir() -> std::path::PathBuf {
        std::env::var_os("CARGO_MANIFEST_DIR").map_or_else(|| env!("CARGO_MANIFEST_DIR").into(), Into::into)
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
        rust_files(&package_dir().join("src"), &mut files);
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
        assert!(unknown.is_empty(), "keys missing from the texts: {unknown:#?}");
    }

    #[test]
    fn the_scan_finds_each_kind_of_call() {
        // Built at run time, so that the scan of this very file does not find these made-up keys.
        let source = [
            "t(\"a.b\"); t",
            "f(\"c.d\", &[(\"n\", 1.into())]); look",
            "up(Lang::Fr, \"e.f\"); x.split(\"no\"); format",
            "_in(Lang::En, \"g.h\", &[]);",
        ]
        .concat();
        assert_eq!(used_keys(&source), ["a.b", "c.d", "e.f", "g.h"]);
    }

    #[test]
    fn review_summaries_agree_in_number() {
        fn args(n: u32) -> [(&'static str, FluentValue<'static>); 5] {
            [
                ("side", "White".into()),
                ("accuracy", "68".into()),
                ("inaccuracies", 0.into()),
                ("mistakes", n.into()),
                ("blunders", 2.into()),
            ]
        }
        assert_eq!(
            format_in(Lang::En, "review.summary", &args(1)),
            "White: accuracy 68 %, 0 inaccuracies, 1 mistake, 2 blunders"
        );
        assert!(format_in(Lang::En, "review.summary", &args(3)).contains("3 mistakes"));
        // French counts 0 and 1 as singular.
        assert!(format_in(Lang::Fr, "review.summary", &args(1)).contains("0 imprécision, 1 erreur, 2 gaffes"));
    }

    #[test]
    fn tf_fills_named_variables() {
        // Language-independent: other tests may run while one changes the language.
        let args = [("side", "Black".into()), ("level", "Master".into())];
        assert_eq!(format_in(Lang::En, "hud.cpu", &args), "Black (CPU, Master)");
        assert_eq!(format_in(Lang::Fr, "hud.cpu", &args), "Black (ordinateur, Master)");
        // No isolation marks around the values.
        assert!(!format_in(Lang::Mg, "hud.cpu", &args).contains(['\u{2068}', '\u{2069}']));
        // The order of the arguments does not matter; a missing one shows its name, an extra one is ignored.
        let reversed = [("level", "Master".into()), ("side", "Black".into()), ("extra", 1.into())];
        assert_eq!(format_in(Lang::En, "hud.cpu", &reversed), "Black (CPU, Master)");
        assert_eq!(format_in(Lang::En, "hud.cpu", &[("side", "Black".into())]), "Black (CPU, {$level})");
        assert_eq!(tf("menu.new_game", &[("n", 1.into())]), t("menu.new_game"));
    }

    #[test]
    fn counts_choose_the_plural_form_of_each_language() {
        let turns = |lang, n: usize| format_in(lang, "over.after_turns", &[("turns", n.into())]);
        assert_eq!(turns(Lang::En, 1), "after 1 turn");
        assert_eq!(turns(Lang::En, 2), "after 2 turns");
        assert_eq!(turns(Lang::En, 0), "after 0 turns");
        assert_eq!(turns(Lang::Fr, 1), "après 1 tour");
        assert_eq!(turns(Lang::Fr, 2), "après 2 tours");
        // French counts zero as singular.
        assert_eq!(turns(Lang::Fr, 0), "après 0 tour");
        // Malagasy nouns do not inflect.
        assert_eq!(turns(Lang::Mg, 1), "taorian'ny anjara 1");
        assert_eq!(turns(Lang::Mg, 2), "taorian'ny anjara 2");
        let relay = |lang, n: u32| format_in(lang, "stats.longest_relay", &[("captures", n.into())]);
        assert_eq!(relay(Lang::En, 1), "Longest relay: 1 capture in one turn");
        assert_eq!(relay(Lang::Fr, 5), "Plus longue rafle : 5 prises en un tour");
    }

    #[test]
    fn french_writes_a_decimal_comma() {
        let thinking =
            |lang| format_in(lang, "hud.thinking", &[("side", "X".into()), ("seconds", decimal_arg(1.5, 1))]);
        assert_eq!(thinking(Lang::En), "X is thinking… 1.5 s");
        assert_eq!(thinking(Lang::Fr), "X : réflexion… 1,5 s");
        assert!(thinking(Lang::Mg).contains("1,5 s"));
        // Exactly the asked decimals, whatever the binary value.
        let secs = |x: f32| {
            format_in(Lang::Fr, "hud.thinking", &[("side", "X".into()), ("seconds", decimal_arg(x.into(), 1))])
        };
        assert!(secs(0.0).ends_with(" 0,0 s"));
        assert!(secs(1.1).ends_with(" 1,1 s"));
        assert!(secs(2.96).ends_with(" 3,0 s"));
        // Scores are text from the engine: `decimal` swaps the separator.
        assert_eq!(lookup(Lang::Fr, "number.decimal_separator"), ",");
        assert_eq!(lookup(Lang::En, "number.decimal_separator"), ".");
    }

    #[test]
    fn a_damaged_file_or_a_missing_key_falls_back_to_english_never_panics() {
        let english = Catalog::parse(Lang::En, Lang::En.source());
        // A broken message (an unclosed placeable), a message without `=`, a stray brace, a good message after them.
        let damaged = Catalog::parse(
            Lang::Fr,
            "menu-new_game = Nouvelle { partie\nmenu-quit Quitter\n}}}\nmenu-back = Retour\nhud-cpu = { $side } ({ $level\n",
        );
        assert!(!damaged.errors.is_empty());
        assert_eq!(text_with_fallback(&damaged, &english, "menu.back"), "Retour");
        assert_eq!(text_with_fallback(&damaged, &english, "menu.new_game"), "New game");
        assert_eq!(text_with_fallback(&damaged, &english, "menu.quit"), "Quit");
        // Missing from both: the key.
        assert_eq!(text_with_fallback(&damaged, &english, "no.such.key"), "no.such.key");
        let args = [("side", "Black".into()), ("level", "Master".into())];
        assert_eq!(format_with_fallback(&damaged, &english, "hud.cpu", &args), "Black (CPU, Master)");
        assert_eq!(format_with_fallback(&damaged, &english, "no.such.key", &args), "no.such.key");
        // Not Fluent at all, or nothing: every text is English.
        for junk in ["\u{0}\u{feff}{{{[[*.", "", "= = =\n-term\n"] {
            let catalog = Catalog::parse(Lang::Mg, junk);
            assert_eq!(text_with_fallback(&catalog, &english, "menu.settings"), "Settings");
        }
        // A message that references an unknown message or variable still formats.
        let odd = Catalog::parse(Lang::Fr, "a-b = x { c-d } { $e } { NOSUCH() }\n");
        assert!(odd.format("a.b", &[]).is_some());
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
        // English says what the engine's own text says, with the sides' names capitalised as everywhere else
        // in the game ("Black wins: White resigned").
        for o in [won, Outcome::Resignation { winner: Side::Black }, Outcome::Draw(DrawReason::NoCapture)] {
            let english = capitalise(&o.to_string()).replace("white", "White").replace("black", "Black");
            if language() == Lang::En {
                assert_eq!(outcome_text(o), english);
            }
        }
        assert_eq!(lookup(Lang::Fr, "reason.black_no_pieces"), "les Noirs n'ont plus de pièces");
        assert_eq!(format_in(Lang::En, "score.win_in", &[("turns", 3.into())]), "win in 3");
        // Scores are read from the engine's `Score`, not parsed back from its text; English still matches it.
        use fanorona_engine::search::Score;
        for score in [Score::Win(3), Score::Loss(1), Score::Eval(125), Score::Eval(-7), Score::ZERO] {
            if language() == Lang::En {
                assert_eq!(score_text(score), score.to_string());
            }
        }
    }
}
