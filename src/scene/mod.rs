//! Scenes: the RON file format ([`format`](mod@format)), loading with errors a user can act on, and
//! building a [`World`](crate::physics::World) from a description ([`build`](mod@build)).
//!
//! Errors carry the file, the line and column for syntax errors, and the body and field for
//! semantic ones ("body 'crate', field 'friction': must be ≥ 0, got -0.2"). Loading never
//! panics: a property test feeds it thousands of random and mutated texts.

pub mod build;
#[cfg(any(target_arch = "wasm32", test))]
pub mod bundle;
pub mod format;
pub mod generators;
pub mod mesh;
pub mod methods_table;
pub mod shapes;
pub mod share;
pub mod stock;

pub use build::{build, LoadedScene};
pub use format::SceneDesc;

use std::path::{Path, PathBuf};

/// Why a scene could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum SceneError {
    /// The file could not be read.
    #[error("cannot read scene file {path}: {source}")]
    Io {
        /// File.
        path: PathBuf,
        /// OS error.
        source: std::io::Error,
    },
    /// RON syntax, an unknown field or variant, or a wrong type.
    #[error("{path}:{line}:{column}: {message}")]
    Parse {
        /// File (or `<text>`).
        path: String,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What was wrong and what was expected.
        message: String,
    },
    /// A value that parses but makes no physical sense.
    #[error("{path}: {context}, field '{field}': {message}")]
    Invalid {
        /// File (or `<text>`).
        path: String,
        /// "scene", "solver" or "body 'name'".
        context: String,
        /// Field name.
        field: String,
        /// What is wrong and what is allowed.
        message: String,
    },
}

/// Parses scene text; `origin` names the source in messages.
pub fn parse(text: &str, origin: &str) -> Result<SceneDesc, SceneError> {
    let opts = ron::Options::default();
    opts.from_str::<SceneDesc>(text).map_err(|e| SceneError::Parse {
        path: origin.to_string(),
        line: e.position.line,
        column: e.position.col,
        message: e.code.to_string(),
    })
}

/// The text of the file at `path`: from the file system, or in the browser from the files
/// the build carries and those opened in the session (`bundle`, by file name).
pub fn read_text(path: &Path) -> std::io::Result<String> {
    #[cfg(target_arch = "wasm32")]
    {
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        bundle::text(&name).ok_or_else(|| {
            std::io::Error::new(
                std::io::ErrorKind::NotFound,
                "not a shipped scene file, nor one opened in this page (use Open…)",
            )
        })
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        std::fs::read_to_string(path)
    }
}

/// Reads and parses a scene file.
pub fn load_file(path: &Path) -> Result<SceneDesc, SceneError> {
    let text = read_text(path).map_err(|source| SceneError::Io { path: path.to_path_buf(), source })?;
    parse(&text, &path.display().to_string())
}

/// Parses, validates and builds a scene from text.
pub fn load_str(text: &str, origin: &str) -> Result<LoadedScene, SceneError> {
    let desc = parse(text, origin)?;
    build(&desc, origin)
}

/// Reads, validates and builds a scene file.
pub fn load(path: &Path) -> Result<LoadedScene, SceneError> {
    let desc = load_file(path)?;
    build(&desc, &path.display().to_string())
}

/// The folder of shipped scenes: `scenes/` in the working directory if present, else the
/// one next to the crate's sources (in the browser: `scenes/`, the files the build carries).
pub fn scenes_dir() -> PathBuf {
    let local = PathBuf::from("scenes");
    // In the browser the scenes are the build's own ([`bundle`]), under this name.
    if cfg!(target_arch = "wasm32") {
        return local;
    }
    if local.is_dir() {
        local
    } else {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes")
    }
}

/// File name of the scene opened when no scene is given.
pub const DEFAULT_SCENE: &str = "welcome.ron";

/// The shipped scene files, sorted by name.
pub fn shipped_scenes() -> Vec<PathBuf> {
    #[cfg(target_arch = "wasm32")]
    let mut v: Vec<PathBuf> = bundle::scene_names().map(|n| scenes_dir().join(n)).collect();
    #[cfg(not(target_arch = "wasm32"))]
    let mut v: Vec<PathBuf> = std::fs::read_dir(scenes_dir())
        .map(|d| {
            d.filter_map(|e| e.ok()).map(|e| e.path()).filter(|p| p.extension().is_some_and(|x| x == "ron")).collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}
