//! Where the window's files go — screenshots, GIFs, the plots' CSV: written to the path
//! asked for natively (its folder made if needed); in the browser, which has no files, handed
//! to the user as a download named after the path's file name.

use image::RgbaImage;
use std::path::Path;

/// `img` saved to `path` in the format its extension names
/// ([`crate::render::screenshot::image_bytes`], then [`save`]).
pub fn save_image(img: &RgbaImage, path: &Path) -> Result<String, String> {
    let bytes = crate::render::screenshot::image_bytes(img, path).map_err(|e| e.to_string())?;
    save(path, &bytes)
}

/// Writes `bytes` to `path` (natively) or offers them as a download (browser); returns what
/// the status line should say ("saved PATH" or "downloaded NAME").
pub fn save(path: &Path, bytes: &[u8]) -> Result<String, String> {
    #[cfg(target_arch = "wasm32")]
    {
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "contactlab".into());
        super::page::download(&name, bytes)?;
        Ok(format!("downloaded {name}"))
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        }
        std::fs::write(path, bytes).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        Ok(format!("saved {}", path.display()))
    }
}
