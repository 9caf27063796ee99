//! The app's shape (issue 32): its modules import no circle, and the panels define no state.
//!
//! Each file of `src/app` is a node named after its top-level module (`testbed/drag.rs`
//! belongs to `testbed`, `panels/inspector/pair.rs` to `panels`); every path a file names
//! outside comments (`super::x`, `crate::app::x`, grouped or not) is an edge. The graph must
//! be acyclic, and the panels, which draw the parts, must not define a `struct` or `enum`:
//! state lives with the part that owns it, and nothing imports a state type from a panel.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The code of `text` without its comments (line comments and doc comments).
fn code(text: &str) -> String {
    text.lines().map(|l| l.split("//").next().unwrap_or("")).collect::<Vec<_>>().join("\n")
}

/// The first path segments named after `prefix` in `code`: `prefix::x` gives `x`, and
/// `prefix::{a, b::c}` gives `a` and `b`.
fn names_after(code: &str, prefix: &str) -> Vec<String> {
    let mut out = Vec::new();
    let ident = |s: &str| s.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect::<String>();
    for (i, _) in code.match_indices(prefix) {
        let rest = &code[i + prefix.len()..];
        if let Some(group) = rest.strip_prefix('{') {
            // Top-level items of the group.
            let mut depth = 0;
            let mut item = String::new();
            for c in group.chars() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        out.push(ident(item.trim()));
                        item.clear();
                        continue;
                    }
                    _ => {}
                }
                if depth == 0 {
                    item.push(c);
                }
            }
            out.push(ident(item.trim()));
        } else {
            out.push(ident(rest));
        }
    }
    out.retain(|n| !n.is_empty());
    out
}

#[test]
fn the_apps_modules_import_no_circle_and_the_panels_define_no_state() {
    let app = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/app");
    let mut files = Vec::new();
    rust_files(&app, &mut files);
    let node_of = |p: &Path| -> Option<String> {
        let rel = p.strip_prefix(&app).unwrap();
        let first = rel.components().next()?.as_os_str().to_string_lossy().into_owned();
        let name = first.trim_end_matches(".rs").to_string();
        (name != "mod").then_some(name)
    };
    let nodes: BTreeSet<String> = files.iter().filter_map(|p| node_of(p)).collect();
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut panel_types = Vec::new();
    for f in &files {
        let Some(node) = node_of(f) else { continue };
        let text = code(&std::fs::read_to_string(f).unwrap());
        let nested = f.parent() != Some(app.as_path());
        let mut targets = names_after(&text, "crate::app::");
        // In a file of a folder module, `super::` is the folder itself; `super::super::` the app.
        if nested {
            targets.extend(names_after(&text, "super::super::"));
        } else {
            targets.extend(names_after(&text, "super::"));
        }
        for t in targets {
            if nodes.contains(&t) && t != node {
                edges.entry(node.clone()).or_default().insert(t);
            }
        }
        if node == "panels" {
            for line in text.lines() {
                let l = line.trim_start();
                let l = l.strip_prefix("pub ").unwrap_or(l);
                if l.starts_with("struct ") || l.starts_with("enum ") {
                    panel_types.push(format!("{}: {}", f.display(), line.trim()));
                }
            }
        }
    }
    assert!(panel_types.is_empty(), "panel files define state types: {panel_types:#?}");
    // Depth-first search for a cycle.
    fn visit(
        n: &str,
        edges: &BTreeMap<String, BTreeSet<String>>,
        state: &mut BTreeMap<String, u8>,
        path: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        match state.get(n) {
            Some(2) => return None,
            Some(1) => {
                let start = path.iter().position(|x| x == n).unwrap();
                let mut cycle = path[start..].to_vec();
                cycle.push(n.to_string());
                return Some(cycle);
            }
            _ => {}
        }
        state.insert(n.to_string(), 1);
        path.push(n.to_string());
        for m in edges.get(n).into_iter().flatten() {
            if let Some(c) = visit(m, edges, state, path) {
                return Some(c);
            }
        }
        path.pop();
        state.insert(n.to_string(), 2);
        None
    }
    let mut state = BTreeMap::new();
    for n in &nodes {
        if let Some(cycle) = visit(n, &edges, &mut state, &mut Vec::new()) {
            panic!("the app's modules import a circle: {}", cycle.join(" → "));
        }
    }
    // The graph is not empty: the check reads the files it should.
    assert!(edges.get("testbed").is_some_and(|e| e.contains("session") && e.contains("sides")), "{edges:#?}");
    assert!(edges.get("viewport").is_some_and(|e| e.contains("panels")), "{edges:#?}");
}
