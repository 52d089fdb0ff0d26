//! egui passes for headless tests: the screens' systems draw into a real egui context (laid out, not painted), so
//! that a test can see which windows and buttons a frame shows and where.

use bevy::prelude::*;
use bevy_egui::{EguiContext, EguiPrimaryContextPass, EguiUserTextures, PrimaryEguiContext, egui};
use fanorona::screens::widgets::forget_reported_buttons;

/// Gives `app` the primary egui context the screens draw into, with the game's fonts.
pub fn attach(app: &mut App) {
    app.init_resource::<EguiUserTextures>();
    let mut context = EguiContext::default();
    context.get_mut().set_fonts(fanorona::screens::fonts::definitions());
    app.world_mut().spawn((context, PrimaryEguiContext));
}

/// The egui pass of the frame after `app`'s last update, on a 1280 × 800 window: what that frame would show.
pub fn draw(app: &mut App) -> egui::Context {
    let world = app.world_mut();
    let ctx = world.query::<&mut EguiContext>().single_mut(world).expect("the context").get_mut().clone();
    forget_reported_buttons(&ctx);
    let input = egui::RawInput {
        screen_rect: Some(egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(1280.0, 800.0))),
        ..Default::default()
    };
    let mut output = ctx.run_ui(input, |_| world.run_schedule(EguiPrimaryContextPass));
    // Nothing is painted: the font atlas's updates go nowhere.
    output.textures_delta.clear();
    ctx
}
