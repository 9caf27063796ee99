//! "Explain this step" (the contact inspector): the worked example of the selected pair
//! for the step the inspector shows ([`crate::app::explain`]). It starts from the state
//! before that step — taken from the history by going one step back and forward again,
//! which re-simulates exactly — and is written into `explain/` (`Capture::explain_dir`;
//! natively, then opened in the system's browser through egui's `open_url`) or downloaded
//! as one HTML page (in the browser).
//!
//! Limit: a mouse drag during the explained step is not part of the document's step (the
//! document steps the world as the headless command does).

use super::Testbed;
use crate::app::explain;
use crate::scene::LoadedScene;

/// Size of the document's figures (px).
const FIGURES: (u32, u32) = (960, 600);

impl Testbed {
    /// Writes the worked example of the selected pair at the current step (on the
    /// inspector's side) and says where in the status line. Returns the page's `file://`
    /// address for the caller to open (egui's `open_url`; natively only).
    pub fn explain_step(&mut self) -> Option<String> {
        match self.write_explanation() {
            Ok((msg, url)) => {
                self.tools.status = msg;
                url
            }
            Err(e) => {
                self.tools.status = format!("explain: {e}");
                None
            }
        }
    }

    fn write_explanation(&mut self) -> Result<(String, Option<String>), String> {
        let (a, b) = self.selected_pair().ok_or("select two bodies first")?;
        let k = self.selection.side.min(self.sides.len() - 1);
        let step = self.world().step_count;
        // The state the step started from: one step back through the history, then forward
        // again to where the user was.
        let start = if step == 0 {
            // Nothing stepped yet: the document explains the first step.
            self.sides.get(k).ok_or("no such side")?.world.snapshot()
        } else if step > self.session.history.first() {
            self.seek(step - 1);
            let w = self.sides.get(k).ok_or("no such side")?.world.snapshot();
            self.seek(step);
            w
        } else {
            return Err(format!(
                "the history no longer holds the state before step {step}: step forward and explain a later step"
            ));
        };
        let scene = &self.session.scene;
        let origin =
            self.session.scene_path.as_ref().map_or_else(|| scene.desc.name.clone(), |p| p.display().to_string());
        let loaded = LoadedScene { desc: scene.desc.clone(), world: start.snapshot(), colors: scene.colors.clone() };
        let n = start.step_count + 1;
        let doc = explain::explain_world(loaded, start, &origin, (a, b), Some(FIGURES)).map_err(|e| e.to_string())?;
        let names = |i: usize| self.world().bodies()[i].name.replace(|c: char| !c.is_alphanumeric(), "_");
        let stem = self
            .session
            .scene_path
            .as_ref()
            .and_then(|p| p.file_stem())
            .map_or("scene".into(), |s| s.to_string_lossy().into_owned());
        let folder = format!("{stem}_step{n}_{}_{}", names(a.min(b)), names(a.max(b)));
        #[cfg(target_arch = "wasm32")]
        {
            let msg = crate::app::output::save(std::path::Path::new(&format!("{folder}.html")), doc.html().as_bytes())?;
            Ok((msg, None))
        }
        #[cfg(not(target_arch = "wasm32"))]
        {
            let dir = self.tools.capture.explain_dir.join(folder);
            let written = explain::write(&doc, &dir).map_err(|e| e.to_string())?;
            let page = std::fs::canonicalize(&written.html).unwrap_or_else(|_| written.html.clone());
            let msg = format!(
                "wrote {} (and explain.md with {} figures); opening it in the browser",
                written.html.display(),
                written.figures.len()
            );
            Ok((msg, Some(format!("file://{}", page.display()))))
        }
    }
}
