//! The page around the browser build's canvas (`wasm32` only): downloads, the hidden file
//! input behind "Open…", the canvas's style and focus, and error messages shown on the page.
//! It knows nothing of the testbed ([`super::web`] does), so the window's files can use it.

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// Offers `bytes` to the user as a download named `name`.
pub fn download(name: &str, bytes: &[u8]) -> Result<(), String> {
    let err = |e: JsValue| format!("the browser refused the download: {e:?}");
    let document = web_sys::window().and_then(|w| w.document()).ok_or("no document")?;
    let array = js_sys::Uint8Array::from(bytes);
    let parts = js_sys::Array::of1(&array);
    let blob = web_sys::Blob::new_with_u8_array_sequence(&parts).map_err(err)?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).map_err(err)?;
    let a: web_sys::HtmlAnchorElement = document.create_element("a").map_err(err)?.unchecked_into();
    a.set_href(&url);
    a.set_download(name);
    a.click();
    Ok(())
}

/// The page's hidden file input (`#contactlab-open`), made on first use: scripts (and the
/// browser test) can hand it files as a user would.
pub fn file_input() -> Option<web_sys::HtmlInputElement> {
    let document = web_sys::window()?.document()?;
    if let Some(e) = document.get_element_by_id("contactlab-open") {
        return Some(e.unchecked_into());
    }
    let input: web_sys::HtmlInputElement = document.create_element("input").ok()?.unchecked_into();
    input.set_id("contactlab-open");
    input.set_type("file");
    input.set_accept(".ron,.obj");
    input.set_multiple(true);
    let _ = input.style().set_property("display", "none");
    document.body()?.append_child(&input).ok()?;
    Some(input)
}

/// Styles the window's canvas to fill the page and gives it the keyboard.
pub fn show_canvas(window: &winit::window::Window) {
    use winit::platform::web::WindowExtWebSys;
    if let Some(canvas) = window.canvas() {
        let style = canvas.style();
        let _ = style.set_property("width", "100%");
        let _ = style.set_property("height", "100%");
        let _ = style.set_property("display", "block");
        let _ = style.set_property("outline", "none");
        let _ = canvas.focus();
    }
}

/// Shows `message` on the page (above the canvas) and on the console.
pub fn fail(message: &str) {
    web_sys::console::error_1(&message.into());
    let Some(document) = web_sys::window().and_then(|w| w.document()) else { return };
    let div = document.get_element_by_id("contactlab-error").or_else(|| {
        let d = document.create_element("div").ok()?;
        d.set_id("contactlab-error");
        document.body()?.prepend_with_node_1(&d).ok()?;
        Some(d)
    });
    if let Some(d) = div {
        d.set_text_content(Some(message));
    }
}
