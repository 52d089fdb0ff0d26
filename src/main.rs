//! Fanorona: the game binary. Sets up the window and adds the game's plugins.

use bevy::prelude::*;
use clap::Parser;
use fanorona::{GamePlugin, platform::cli::Args};

fn main() -> AppExit {
    let launched = bevy::platform::time::Instant::now();
    let args = match Args::try_parse_from(fanorona::platform::web::args()) {
        Ok(args) => args,
        // On the web a bad address option must not stop the game: play with the defaults.
        Err(e) if fanorona::platform::web::IN_BROWSER => {
            warn!("ignoring the page's options: {e}");
            Args::default()
        }
        Err(e) => e.exit(),
    };
    if let Some(dir) = &args.export_sounds {
        return export_sounds(dir);
    }
    // The strong levels play endgames from the tablebase: load the cached one now, or build the quick 4-piece table
    // and start the 5-piece one in the background (about 10 CPU-seconds, once; then cached), so that neither waits
    // when Master first needs it. The browser plays endgames by search.
    #[cfg(not(target_arch = "wasm32"))]
    std::thread::spawn(|| {
        use fanorona_engine::tablebase;
        tablebase::shared(fanorona_engine::Variant::Tsivy, tablebase::default_dir().as_deref())
    });
    App::new()
        .add_plugins(logging(DefaultPlugins.set(task_pools())).set(WindowPlugin {
            primary_window: Some(Window {
                title: "Fanorona".into(),
                resolution: fanorona::platform::web::initial_window_size((1280, 800)).into(),
                // On the web: the page's canvas, following its element so the board fits narrow screens, and
                // keeping touches and keys for the game (no page scrolling or zooming under a finger).
                canvas: Some("#bevy".into()),
                fit_canvas_to_parent: true,
                prevent_default_event_handling: true,
                ..default()
            }),
            ..default()
        }))
        .add_plugins(GamePlugin { args, launched })
        .run()
}

/// On the desktop, Bevy's log plugin. In the browser, its filter (tracing-subscriber's `EnvFilter`) brings a regex
/// engine and Unicode tables into the module that no page can configure: the page logs to the console through
/// `tracing-wasm` with fixed levels instead.
fn logging(plugins: bevy::app::PluginGroupBuilder) -> bevy::app::PluginGroupBuilder {
    #[cfg(target_arch = "wasm32")]
    {
        // wgpu and naga log through the `log` crate: only their warnings, as Bevy's own default filter does.
        let _ = tracing_log::LogTracer::init_with_filter(tracing_log::log::LevelFilter::Warn);
        tracing_wasm::set_as_global_default_with_config(
            tracing_wasm::WASMLayerConfigBuilder::new()
                .set_max_level(bevy::log::Level::INFO)
                .set_report_logs_in_timings(false)
                .build(),
        );
        plugins.disable::<bevy::log::LogPlugin>()
    }
    #[cfg(not(target_arch = "wasm32"))]
    plugins
}

/// Bevy's async compute pool also compiles render pipelines and saves screenshots; with its default single thread
/// on a 2-core machine a long CPU search (Master, a hint, a draw judgement) would hold those back and leave the
/// board undrawn. A few threads keep rendering work from queueing behind the engine.
fn task_pools() -> TaskPoolPlugin {
    let mut options = TaskPoolOptions::default();
    options.async_compute.min_threads = 3;
    options.async_compute.max_threads = options.async_compute.max_threads.max(3);
    TaskPoolPlugin { task_pool_options: options }
}

/// `--export-sounds DIR`: writes the synthesised sounds as WAV files and lists them, without starting Bevy.
fn export_sounds(dir: &std::path::Path) -> AppExit {
    match fanorona::audio::synth::export_all(dir) {
        Ok(paths) => {
            for path in paths {
                println!("{}", path.display());
            }
            AppExit::Success
        }
        Err(e) => {
            eprintln!("cannot write sounds to {}: {e}", dir.display());
            AppExit::error()
        }
    }
}
