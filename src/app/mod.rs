//! The testbed application: state ([`testbed`]), the egui panel ([`ui`]), the winit window
//! ([`window`]), picking, and headless rendering ([`headless`]). It reads the physics
//! module's state and debug records and never reaches into its internals.

pub mod headless;
pub mod labels;
pub mod picking;
pub mod testbed;
pub mod ui;
pub mod window;

pub use testbed::Testbed;
