//! Time series of a run, one [`Sample`] per step: what the window's plots draw and what
//! `--plots FILE.csv` (and the plots window's "Export CSV") writes.
//!
//! Per step: kinetic, potential and total energy of the dynamic bodies (potential from
//! gravity, zero at the origin); the magnitudes of the total linear momentum and of the total
//! angular momentum about the origin; the deepest penetration and the number of contact
//! points; each stage's time; the solver's change of the normal impulses in its first and
//! last solve pass (`World::convergence`, when recorded); and for one followed body its
//! height, speed and spin.
//!
//! Samples are kept by step: a step already sampled is replaced (re-simulating a step gives
//! the same numbers; a different followed body changes only those columns), and
//! [`Series::truncate`] drops the steps after a branch of the history. Limits: at most
//! [`MAX_SAMPLES`] are kept (about 4.8 hours at 60 Hz; the oldest half goes when full).

use crate::physics::{Stage, World};
use std::io::Write;

/// Most samples kept (each is about 100 bytes: 100 MB at most).
pub const MAX_SAMPLES: usize = 1 << 20;

/// The followed body's numbers.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BodySample {
    /// Body index.
    pub index: u32,
    /// Height: y of its centre of mass (m).
    pub height: f32,
    /// |v| (m/s).
    pub speed: f32,
    /// |ω| (rad/s).
    pub spin: f32,
}

/// One step's numbers (module docs).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    /// Step count after the step.
    pub step: u64,
    /// Simulated time (s).
    pub time: f64,
    /// Kinetic energy (J).
    pub kinetic: f32,
    /// Gravitational potential energy (J).
    pub potential: f32,
    /// |Σ m·v| (kg·m/s).
    pub momentum: f32,
    /// |Σ (x × m·v + I·ω)| about the origin (kg·m²/s).
    pub angular_momentum: f32,
    /// Deepest penetration (m).
    pub max_penetration: f32,
    /// Contact points.
    pub contact_points: u32,
    /// Time per stage (ms), indexed like [`Stage::ALL`].
    pub stage_ms: [f32; Stage::ALL.len()],
    /// Σ|Δλₙ| of the first and of the last solve pass (N·s), when recorded.
    pub residual: Option<(f32, f32)>,
    /// The followed body.
    pub body: Option<BodySample>,
}

impl Sample {
    /// The numbers of `world` now, following body `follow`.
    pub fn of(world: &World, follow: Option<usize>) -> Sample {
        let (mut kinetic, mut potential) = (0.0, 0.0);
        let (mut p, mut l) = (glam::Vec3::ZERO, glam::Vec3::ZERO);
        for b in world.bodies().iter().filter(|b| b.is_dynamic()) {
            kinetic += b.kinetic_energy();
            potential -= b.mass() * world.gravity.dot(b.pose.pos);
            let mv = b.velocity * b.mass();
            p += mv;
            l += b.pose.pos.cross(mv) + b.angular_momentum();
        }
        let stats = world.stats();
        let c = world.convergence();
        Sample {
            step: world.step_count,
            time: world.time,
            kinetic,
            potential,
            momentum: p.length(),
            angular_momentum: l.length(),
            max_penetration: stats.max_penetration,
            contact_points: stats.points as u32,
            stage_ms: world.profile.stage_ms,
            residual: (!c.is_empty()).then(|| (c[0], c[c.len() - 1])),
            body: follow.and_then(|i| {
                let b = world.bodies().get(i)?;
                Some(BodySample {
                    index: i as u32,
                    height: b.pose.pos.y,
                    speed: b.velocity.length(),
                    spin: b.angular_velocity.length(),
                })
            }),
        }
    }

    /// Kinetic plus potential energy (J).
    pub fn total(&self) -> f32 {
        self.kinetic + self.potential
    }
}

/// Samples by step (module docs).
#[derive(Clone, Debug, Default)]
pub struct Series {
    samples: Vec<Sample>,
}

impl Series {
    /// The samples, by step.
    pub fn samples(&self) -> &[Sample] {
        &self.samples
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.samples.clear();
    }

    /// Adds (or replaces) the sample of `world`'s current step.
    pub fn record(&mut self, world: &World, follow: Option<usize>) {
        let s = Sample::of(world, follow);
        match self.samples.binary_search_by_key(&s.step, |x| x.step) {
            Ok(i) => self.samples[i] = s,
            Err(i) => self.samples.insert(i, s),
        }
        if self.samples.len() > MAX_SAMPLES {
            self.samples.drain(..MAX_SAMPLES / 2);
        }
    }

    /// Drops the samples after `step`.
    pub fn truncate(&mut self, step: u64) {
        let keep = self.samples.partition_point(|s| s.step <= step);
        self.samples.truncate(keep);
    }

    /// Writes the samples as CSV: a header row naming each column with its unit, then one
    /// row per step; empty cells where a value was not recorded.
    pub fn write_csv(&self, out: &mut impl Write) -> std::io::Result<()> {
        write!(
            out,
            "step,time_s,kinetic_J,potential_J,total_J,momentum_kg_m_per_s,angular_momentum_kg_m2_per_s,\
             max_penetration_m,contact_points"
        )?;
        for s in Stage::ALL {
            write!(out, ",{}_ms", s.name().replace(' ', "_"))?;
        }
        writeln!(out, ",residual_first_Ns,residual_last_Ns,body,body_height_m,body_speed_m_per_s,body_spin_rad_per_s")?;
        for s in &self.samples {
            write!(
                out,
                "{},{},{},{},{},{},{},{},{}",
                s.step,
                s.time,
                s.kinetic,
                s.potential,
                s.total(),
                s.momentum,
                s.angular_momentum,
                s.max_penetration,
                s.contact_points
            )?;
            for ms in s.stage_ms {
                write!(out, ",{ms}")?;
            }
            match s.residual {
                Some((a, b)) => write!(out, ",{a},{b}")?,
                None => write!(out, ",,")?,
            }
            match s.body {
                Some(b) => writeln!(out, ",{},{},{},{}", b.index, b.height, b.speed, b.spin)?,
                None => writeln!(out, ",,,,")?,
            }
        }
        Ok(())
    }
}
