//! The browser build's entry point: the page loads this module, and its start function opens
//! the testbed on a canvas (`contactlab::app::web` has the rest). Built by `web/build.sh`;
//! on other targets this crate is empty.

#[cfg(target_arch = "wasm32")]
#[wasm_bindgen::prelude::wasm_bindgen(start)]
pub fn start() {
    let testbed = contactlab::app::web::first_testbed();
    if let Err(e) = contactlab::app::window::start_web(testbed) {
        contactlab::app::page::fail(&e);
    }
}
