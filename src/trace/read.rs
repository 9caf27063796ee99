//! Reading a whole trace back (for `--replay`): the header and every recorded step.

use super::diff::{DiffError, Reader};
use super::{TraceHeader, TraceStep};
use std::path::Path;

/// The header and steps of the trace at `path`; errors name the file and line.
pub fn read_trace(path: &Path) -> Result<(TraceHeader, Vec<TraceStep>), DiffError> {
    let mut r = Reader::open(path)?;
    let header: TraceHeader = r.next()?.ok_or_else(|| DiffError::Format {
        path: path.to_path_buf(),
        line: 1,
        reason: "empty file".into(),
    })?;
    let mut steps = Vec::new();
    while let Some(s) = r.next::<TraceStep>()? {
        steps.push(s);
    }
    Ok((header, steps))
}
