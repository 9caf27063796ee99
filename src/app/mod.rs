//! The testbed application. It reads the physics module's state and debug records and never
//! reaches into its internals.
//!
//! State, in named parts composed by [`testbed::Testbed`]:
//! - [`session`]: the scene as loaded, the clock, the step, with [`history`] (stepping back)
//!   and [`replay`] (a recorded trace); [`drag`] is the mouse drag, the steps' input;
//! - [`sides`]: the running worlds, one per method compared;
//! - [`selection`]: bodies, joint, clip stage, inspector side, character;
//! - [`view_state`]: camera, overlays, look;
//! - [`tools`]: [`files`] (picker, dialog, hot reload), capture with [`record`] (GIF), the
//!   plots' samples, the status line.
//!
//! Input and drawing: [`input`] (the one table of keys, dispatched from egui's input),
//! [`viewport`] (the window's egui frame and the 3D view's mouse), [`picking`], [`panels`]
//! (the control panel's sections, the inspector, the help and plots windows), [`labels`]
//! (text over the 3D view, placed by [`label_layout`]), [`egui_pass`] (egui drawn with wgpu),
//! [`window`] (winit) with [`gfx`] (the wgpu surface and renderers), [`output`] (where
//! pictures and CSV files go) and `headless` (pictures without a window, native only) with [`vector`] (the same pictures as SVG).
//!
//! The same app runs in a browser (`web` and `page`, compiled for `wasm32` only: the page's
//! start, its links and scripts; downloads, the file picker and messages on the page); the
//! file watch of [`watch`] (hot reload) and `headless` are native only.
//!
//! Panels define no state: `tests/app_structure.rs` checks that nothing outside
//! [`panels`] imports from it but the viewport, so the app's files import no circle.

pub mod drag;
pub mod egui_pass;
pub mod explain;
pub mod files;
pub mod gfx;
#[cfg(not(target_arch = "wasm32"))]
pub mod headless;
pub mod history;
pub mod input;
pub mod label_layout;
pub mod labels;
pub mod output;
#[cfg(target_arch = "wasm32")]
pub mod page;
pub mod panels;
pub mod picking;
pub mod record;
pub mod replay;
pub mod selection;
pub mod session;
pub mod sides;
pub mod testbed;
pub mod tools;
pub mod vector;
pub mod view_state;
pub mod viewport;
pub mod watch;
#[cfg(target_arch = "wasm32")]
pub mod web;
pub mod window;

pub use testbed::Testbed;
