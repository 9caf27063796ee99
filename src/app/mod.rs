//! The testbed application: state ([`testbed`]), the A/B comparison ([`compare`]), the egui panel ([`ui`], [`body_panel`], [`ccd_panel`], [`character_panel`]), the
//! window's egui frame with the 3D view's mouse input ([`viewport`]), the winit window
//! ([`window`]), picking, and headless rendering ([`headless`]). It reads the physics
//! module's state and debug records and never reaches into its internals.

pub mod body_panel;
pub mod ccd_panel;
pub mod character_panel;
pub mod compare;
pub mod files;
pub mod headless;
pub mod help;
pub mod history;
pub mod joint_panel;
pub mod labels;
pub mod picking;
pub mod plots;
pub mod record;
pub mod replay;
pub mod testbed;
pub mod ui;
pub mod viewport;
pub mod window;

pub use testbed::Testbed;
