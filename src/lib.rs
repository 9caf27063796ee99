//! contactlab: a rigid-body contact testbed. The physics lives in [`physics`] (pure Rust +
//! glam); scenes, the command line and the window are consumers of its plain data.
#![warn(missing_docs)]

pub mod app;
#[cfg(not(target_arch = "wasm32"))]
pub mod cli;
pub mod physics;
pub mod render;
pub mod scene;
pub mod trace;
pub mod view;
