//! `contactlab diff A.jsonl B.jsonl`: where two traces part (Jolt's determinism tooling, for
//! comparing builds, settings or methods).
//!
//! The traces are read step by step; the first recorded step at which some body's position,
//! rotation, velocity, angular velocity or sleep state differs by more than the tolerance
//! (default 0: bit-identical) is reported with the body, the quantity and the size of the
//! difference. The headers must name the same bodies; steps must be recorded at the same
//! indices. Identical traces (within the tolerance) report nothing.
//!
//! Limits: bodies only — contacts and watched pairs are not compared (two runs whose bodies
//! agree bit for bit made the same contacts).

use super::{TraceBody, TraceHeader, TraceStep};
use std::io::BufRead;
use std::path::{Path, PathBuf};

/// Why two traces could not be compared.
#[derive(Debug, thiserror::Error)]
pub enum DiffError {
    /// A file could not be read.
    #[error("cannot read trace {path}: {source}")]
    Read {
        /// File.
        path: PathBuf,
        /// OS error.
        source: std::io::Error,
    },
    /// A line is not what the trace format says (docs/trace.md).
    #[error("{path}:{line}: not a contactlab trace line ({reason})")]
    Format {
        /// File.
        path: PathBuf,
        /// 1-based line number.
        line: usize,
        /// What the parser said.
        reason: String,
    },
}

/// Where two traces first differ.
#[derive(Clone, Debug, PartialEq)]
pub enum Difference {
    /// The headers list different bodies.
    Bodies {
        /// Bodies of A.
        a: Vec<String>,
        /// Bodies of B.
        b: Vec<String>,
    },
    /// The traces record different steps at the same line (different `--trace-every`).
    Steps {
        /// Step index in A.
        a: u64,
        /// Step index in B.
        b: u64,
    },
    /// One trace ends before the other.
    Length {
        /// Last step both have.
        common: u64,
        /// Which trace goes on ('A' or 'B').
        longer: char,
    },
    /// A body's state differs.
    State {
        /// Step index.
        step: u64,
        /// Body name.
        body: String,
        /// `position`, `rotation`, `velocity`, `angular_velocity` or `asleep`.
        quantity: &'static str,
        /// Largest component difference (units of the quantity; 1 for `asleep`).
        by: f64,
        /// A's value.
        a: Vec<f32>,
        /// B's value.
        b: Vec<f32>,
    },
}

impl std::fmt::Display for Difference {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Difference::Bodies { a, b } => write!(f, "the traces have different bodies: {a:?} and {b:?}"),
            Difference::Steps { a, b } => {
                write!(f, "the traces record different steps ({a} and {b}): use the same --trace-every")
            }
            Difference::Length { common, longer } => {
                write!(f, "identical up to step {common}, where trace {longer} goes on and the other ends")
            }
            Difference::State { step, body, quantity, by, a, b } => write!(
                f,
                "first difference at step {step}, body '{body}': {quantity} differs by {by:.3e} ({a:?} in A, {b:?} in B)"
            ),
        }
    }
}

/// One trace being read.
pub(crate) struct Reader {
    path: PathBuf,
    lines: std::io::Lines<std::io::BufReader<std::fs::File>>,
    line: usize,
}

impl Reader {
    pub(crate) fn open(path: &Path) -> Result<Reader, DiffError> {
        let file = std::fs::File::open(path).map_err(|source| DiffError::Read { path: path.into(), source })?;
        Ok(Reader { path: path.into(), lines: std::io::BufReader::new(file).lines(), line: 0 })
    }

    /// The next line parsed as `T`, or None at the end.
    pub(crate) fn next<T: serde::de::DeserializeOwned>(&mut self) -> Result<Option<T>, DiffError> {
        let Some(line) = self.lines.next() else { return Ok(None) };
        self.line += 1;
        let line = line.map_err(|source| DiffError::Read { path: self.path.clone(), source })?;
        serde_json::from_str(&line).map(Some).map_err(|e| DiffError::Format {
            path: self.path.clone(),
            line: self.line,
            reason: e.to_string(),
        })
    }
}

/// The first difference between traces `a` and `b` beyond `tolerance`, or None.
pub fn diff_files(a: &Path, b: &Path, tolerance: f64) -> Result<Option<Difference>, DiffError> {
    let (mut ra, mut rb) = (Reader::open(a)?, Reader::open(b)?);
    let missing = |r: &Reader| DiffError::Format { path: r.path.clone(), line: 1, reason: "empty file".into() };
    let ha: TraceHeader = ra.next()?.ok_or_else(|| missing(&ra))?;
    let hb: TraceHeader = rb.next()?.ok_or_else(|| missing(&rb))?;
    if ha.bodies != hb.bodies {
        return Ok(Some(Difference::Bodies { a: ha.bodies, b: hb.bodies }));
    }
    let mut common = 0;
    loop {
        let (sa, sb): (Option<TraceStep>, Option<TraceStep>) = (ra.next()?, rb.next()?);
        let (sa, sb) = match (sa, sb) {
            (None, None) => return Ok(None),
            (Some(_), None) => return Ok(Some(Difference::Length { common, longer: 'A' })),
            (None, Some(_)) => return Ok(Some(Difference::Length { common, longer: 'B' })),
            (Some(x), Some(y)) => (x, y),
        };
        if sa.step != sb.step {
            return Ok(Some(Difference::Steps { a: sa.step, b: sb.step }));
        }
        for (x, y) in sa.bodies.iter().zip(&sb.bodies) {
            if let Some(d) = body_difference(sa.step, x, y, tolerance) {
                return Ok(Some(d));
            }
        }
        common = sa.step;
    }
}

/// The first quantity of body `x` (A) and `y` (B) that differs by more than `tolerance`.
fn body_difference(step: u64, x: &TraceBody, y: &TraceBody, tolerance: f64) -> Option<Difference> {
    let quantities: [(&'static str, Vec<f32>, Vec<f32>); 5] = [
        ("position", x.position.to_vec(), y.position.to_vec()),
        ("rotation", x.rotation.to_vec(), y.rotation.to_vec()),
        ("velocity", x.velocity.to_vec(), y.velocity.to_vec()),
        ("angular_velocity", x.angular_velocity.to_vec(), y.angular_velocity.to_vec()),
        ("asleep", vec![x.asleep as u8 as f32], vec![y.asleep as u8 as f32]),
    ];
    for (quantity, a, b) in quantities {
        let by = a.iter().zip(&b).map(|(p, q)| (*p as f64 - *q as f64).abs()).fold(0.0, f64::max);
        // Non-finite numbers cannot reach here: the trace writes them as null, which does not
        // read back as a number (a format error).
        if by > tolerance {
            return Some(Difference::State { step, body: x.name.clone(), quantity, by, a, b });
        }
    }
    None
}
