//! A worked example as plain data — titled sections of paragraphs, tables and figures —
//! and its two renderings: Markdown (figures as `.svg` files beside it) and one
//! self-contained HTML page (styles inline, figures as inline SVG).

use crate::render::svg::escape;
use std::fmt::Write as _;

/// One piece of a section.
#[derive(Clone, Debug, PartialEq)]
pub enum Block {
    /// A paragraph (plain text; `code` spans in backticks).
    Para(String),
    /// A table: a header row and rows of cells.
    Table {
        /// Column titles.
        head: Vec<String>,
        /// Rows, each as long as `head`.
        rows: Vec<Vec<String>>,
    },
    /// A figure: its file name (Markdown), caption and SVG document.
    Figure {
        /// File name beside explain.md, e.g. `gauss.svg`.
        file: String,
        /// One line under it.
        caption: String,
        /// The SVG document.
        svg: String,
    },
}

/// A titled section.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Section {
    /// Title (numbered by the writer).
    pub title: String,
    /// Its blocks in order.
    pub blocks: Vec<Block>,
}

impl Section {
    /// An empty section titled `title`.
    pub fn new(title: impl Into<String>) -> Section {
        Section { title: title.into(), blocks: Vec::new() }
    }

    /// Appends a paragraph.
    pub fn para(&mut self, text: impl Into<String>) {
        self.blocks.push(Block::Para(text.into()));
    }

    /// Appends a table.
    pub fn table(&mut self, head: &[&str], rows: Vec<Vec<String>>) {
        self.blocks.push(Block::Table { head: head.iter().map(|s| s.to_string()).collect(), rows });
    }

    /// Appends a figure.
    pub fn figure(&mut self, file: impl Into<String>, caption: impl Into<String>, svg: String) {
        self.blocks.push(Block::Figure { file: file.into(), caption: caption.into(), svg });
    }
}

/// A whole worked example.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Document {
    /// Title.
    pub title: String,
    /// The command that wrote it (shown at the top).
    pub command: String,
    /// Sections in order.
    pub sections: Vec<Section>,
}

impl Document {
    /// Every figure: (file name, SVG).
    pub fn figures(&self) -> impl Iterator<Item = (&str, &str)> {
        self.sections.iter().flat_map(|s| &s.blocks).filter_map(|b| match b {
            Block::Figure { file, svg, .. } => Some((file.as_str(), svg.as_str())),
            _ => None,
        })
    }

    /// The Markdown text (figures linked as files beside it).
    pub fn markdown(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "# {}\n", self.title);
        let _ = writeln!(out, "Written by:\n\n```sh\n{}\n```\n", self.command);
        for (k, s) in self.sections.iter().enumerate() {
            let _ = writeln!(out, "## {}. {}\n", k + 1, s.title);
            for b in &s.blocks {
                match b {
                    Block::Para(t) => {
                        let _ = writeln!(out, "{t}\n");
                    }
                    Block::Table { head, rows } => {
                        let cell = |c: &String| c.replace('|', "\\|");
                        let _ = writeln!(out, "| {} |", head.iter().map(cell).collect::<Vec<_>>().join(" | "));
                        let _ = writeln!(out, "|{}", "---|".repeat(head.len()));
                        for r in rows {
                            let _ = writeln!(out, "| {} |", r.iter().map(cell).collect::<Vec<_>>().join(" | "));
                        }
                        out.push('\n');
                    }
                    Block::Figure { file, caption, .. } => {
                        let _ = writeln!(out, "![{caption}]({file})\n\n*{caption}*\n");
                    }
                }
            }
        }
        out
    }

    /// One self-contained HTML page.
    pub fn html(&self) -> String {
        let mut out = String::new();
        let _ = write!(
            out,
            "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>{}</title>\n<style>{}</style></head><body>\n",
            escape(&self.title),
            STYLE
        );
        let _ = writeln!(out, "<h1>{}</h1>", escape(&self.title));
        let _ = writeln!(out, "<p class=\"command\">Written by: <code>{}</code></p>", escape(&self.command));
        let _ = writeln!(out, "<nav><ol>");
        for (k, s) in self.sections.iter().enumerate() {
            let _ = writeln!(out, "<li><a href=\"#s{}\">{}</a></li>", k + 1, escape(&s.title));
        }
        let _ = writeln!(out, "</ol></nav>");
        let mut figure = 0;
        for (k, s) in self.sections.iter().enumerate() {
            let _ = writeln!(out, "<section id=\"s{}\"><h2>{}. {}</h2>", k + 1, k + 1, escape(&s.title));
            for b in &s.blocks {
                match b {
                    Block::Para(t) => {
                        let _ = writeln!(out, "<p>{}</p>", inline_code(t));
                    }
                    Block::Table { head, rows } => {
                        out.push_str("<div class=\"table\"><table><thead><tr>");
                        for h in head {
                            let _ = write!(out, "<th>{}</th>", inline_code(h));
                        }
                        out.push_str("</tr></thead><tbody>\n");
                        for r in rows {
                            out.push_str("<tr>");
                            for c in r {
                                let _ = write!(out, "<td>{}</td>", inline_code(c));
                            }
                            out.push_str("</tr>\n");
                        }
                        out.push_str("</tbody></table></div>\n");
                    }
                    Block::Figure { caption, svg, .. } => {
                        // Scaled to the column; its clip and mask ids made unique in the page
                        // (each figure numbers its own from 1).
                        figure += 1;
                        let body = svg
                            .replace("id=\"clip", &format!("id=\"f{figure}-clip"))
                            .replace("url(#clip", &format!("url(#f{figure}-clip"))
                            .replace("id=\"mask", &format!("id=\"f{figure}-mask"))
                            .replace("url(#mask", &format!("url(#f{figure}-mask"));
                        let _ = writeln!(
                            out,
                            "<figure>{}<figcaption>{}</figcaption></figure>",
                            body.replacen("<svg ", "<svg class=\"figure\" ", 1),
                            escape(caption)
                        );
                    }
                }
            }
            out.push_str("</section>\n");
        }
        out.push_str("</body></html>\n");
        out
    }
}

/// `text` escaped for HTML, with `code` spans in backticks.
fn inline_code(text: &str) -> String {
    let mut out = String::new();
    for (k, part) in text.split('`').enumerate() {
        if k % 2 == 1 {
            let _ = write!(out, "<code>{}</code>", escape(part));
        } else {
            out.push_str(&escape(part));
        }
    }
    out
}

const STYLE: &str = "body{font-family:'DejaVu Sans','Helvetica Neue',Arial,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1d2230;line-height:1.45}\
h1{font-size:1.7rem;margin-bottom:.2rem}h2{font-size:1.25rem;border-bottom:1px solid #ccd;padding-bottom:.2rem;margin-top:2rem}\
.command code{font-size:.85rem;background:#f2f3f7;padding:.15rem .35rem;border-radius:3px}\
nav ol{columns:2;font-size:.95rem}\
.table{overflow-x:auto}table{border-collapse:collapse;font-size:.82rem;margin:.6rem 0 1rem}\
th,td{border:1px solid #c8ccd8;padding:.2rem .45rem;text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}\
th{background:#eef0f6}td:first-child,th:first-child{text-align:left}\
code{font-family:'DejaVu Sans Mono',Menlo,Consolas,monospace;font-size:.9em}\
figure{margin:1rem 0}svg.figure{width:100%;height:auto;border:1px solid #d5d8e2}figcaption{font-size:.9rem;color:#4a5063;margin-top:.3rem}\
@media print{nav{display:none}section{break-inside:avoid-page}}";
