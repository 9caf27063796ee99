//! The speed a bounce leaves with: restitution at the moment of impact inside the step,
//! measured with the integrator's own energy.
//!
//! **At the moment of impact.** A point that starts the step a gap `s > 0` apart and
//! approaching at `u` is not hit at `u`: the step's forces (gravity) act on it over the gap,
//! and it meets the surface at `uᵢ = √(u² + 2·a·s)`, with `a` the rate at which gravity
//! closes the pair (`a = −(g_B − g_A)·n`, each `g` counted only for a moving body; `a = g` for
//! a ball above a static floor, `0` for two bodies falling together). Newton's law bounces
//! `e·uᵢ`. Bouncing the step-start speed `e·u` instead loses, at 60 Hz, the speed of the last
//! few centimetres of the fall: a ball dropped from 1 m with `e = 1` peaked at 0.912, 0.843,
//! 0.777 m.
//!
//! **With the integrator's energy.** The world integrates with semi-implicit Euler
//! (velocity first, then position with the new velocity) over steps of `h`. In free flight
//! under a constant acceleration that scheme does not conserve `½v² + a·y` but, exactly,
//! `E = ½v² + a·y − ½·a·h·v` (y the separation along the normal, v its rate). A falling body
//! (`v = −u`) therefore arrives with less than its drop height's speed, and one rising from
//! the surface (`v = +w`) climbs `½·h·w` less than `w²/2a`: a bounce that is exact in
//! continuous time still lowers the next apex by about `h·|v|` (7 cm at 4.4 m/s and 60 Hz).
//! So the rebound is chosen so that the discrete energy after the bounce is `e²` times the
//! discrete energy before it: with `e = 1` the measured apex comes back to the drop height,
//! and apex `k` is `e^(2k)` times the drop height, as a class measures it. In continuous
//! terms the rebound is `e·uᵢ` up to a term of order `a·h`; without gravity (`a = 0`) it is
//! exactly Newton's `e·u`.
//!
//! The energy before is taken at the step's start, from the approach `u` before this step's
//! gravity and the gap `s` (a penetrating point counts as at the surface):
//! `E = ½u² + a·s + ½·a·h·u`. After, the methods differ in when they bounce:
//! - [`Impact::after_move`]: the soft step bounces after its substeps have moved the bodies;
//!   a speculative point has then landed (separation 0): `½w² − ½·a·h·w = e²·E`.
//! - [`Impact::before_move`]: a one-pass method bounces before the step's position update,
//!   which then carries the point from its gap `s` by `w·h`: `½w² + a·s + ½·a·h·w = e²·E`.
//!
//! Limits: `a` is gravity's part only (springs, motors and other contacts are not
//! foreseen). A bounce before the move turns the point around at the gap the step began
//! with, so a one-pass method cannot bounce lower than that gap: when `e²` times the drop
//! height is below it (small `e` and a fast fall; the gap is at most the approach times the
//! step, 7 cm at 4.4 m/s and 60 Hz) the apex is about the gap.

/// What a bouncing point brings to its impact.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Impact {
    /// Approach speed along the normal at the step's start, before its gravity (m/s).
    pub approach: f32,
    /// Gap at the step's start (m, ≥ 0).
    pub gap: f32,
    /// Closing acceleration from gravity along the normal (m/s²).
    pub closing: f32,
    /// Integration step (s).
    pub h: f32,
}

impl Impact {
    /// A point's impact; a negative gap (penetration) counts as 0.
    pub fn new(approach: f32, gap: f32, closing: f32, h: f32) -> Impact {
        Impact { approach, gap: gap.max(0.0), closing, h }
    }

    /// A point's impact from its normal velocity `vn` after this step's gravity (the one-pass
    /// methods add gravity before they resolve): the approach at the step's start is
    /// `−vn − a·h`.
    pub fn after_gravity(vn: f32, gap: f32, closing: f32, h: f32) -> Impact {
        Impact::new(-vn - closing * h, gap, closing, h)
    }

    /// The normal speed at the moment the gap closes, `√(u² + 2·a·s)` (the speed Newton's law
    /// bounces, and what the restitution threshold is compared with).
    pub fn speed(&self) -> f32 {
        (self.approach * self.approach + 2.0 * self.closing * self.gap).max(0.0).sqrt()
    }

    /// Whether the point bounces: it approaches, and its speed at the moment of impact is
    /// over the restitution `threshold`.
    pub fn over(&self, threshold: f32) -> bool {
        self.approach > 0.0 && self.speed() > threshold
    }

    /// The integrator's energy per unit effective mass before the impact (module docs).
    fn energy(&self) -> f32 {
        let (u, a) = (self.approach, self.closing);
        (0.5 * u * u + a * self.gap + 0.5 * a * self.h * u).max(0.0)
    }

    /// The rebound (separating normal speed, ≥ 0) for restitution `e` when the bounce comes
    /// after the step's position update (the soft step: the point has landed).
    pub fn after_move(&self, e: f32) -> f32 {
        let ah = 0.5 * self.closing * self.h;
        (ah + (ah * ah + 2.0 * e * e * self.energy()).max(0.0).sqrt()).max(0.0)
    }

    /// The rebound for restitution `e` when the bounce comes before the step's position
    /// update (the one-pass methods), which then moves the point on from its gap.
    pub fn before_move(&self, e: f32) -> f32 {
        let ah = 0.5 * self.closing * self.h;
        let rhs = 2.0 * (e * e * self.energy() - self.closing * self.gap);
        (-ah + (ah * ah + rhs).max(0.0).sqrt()).max(0.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Semi-implicit Euler along the normal from (y, v) until the body turns: the apex.
    fn apex(mut y: f32, mut v: f32, a: f32, h: f32) -> f32 {
        let mut top = y;
        while v > 0.0 {
            v -= a * h;
            y += v * h;
            top = top.max(y);
        }
        top
    }

    /// Drops from `h0` with semi-implicit Euler; returns the state at the start of the step
    /// in which the gap closes (gap ≥ 0, approach speed).
    fn fall(h0: f32, a: f32, h: f32) -> (f32, f32) {
        let (mut y, mut v) = (h0, 0.0f32);
        loop {
            let (v1, y1) = (v - a * h, y + (v - a * h) * h);
            if y1 <= 0.0 {
                return (y, -v);
            }
            (y, v) = (y1, v1);
        }
    }

    #[test]
    fn a_bounce_after_the_move_returns_e_squared_of_the_drop_height_to_the_apex() {
        let (a, h0) = (9.81, 1.0);
        for h in [1.0 / 60.0, 1.0 / 240.0] {
            let (gap, u) = fall(h0, a, h);
            for e in [0.2f32, 0.5, 0.8, 1.0] {
                let top = apex(0.0, Impact::new(u, gap, a, h).after_move(e), a, h);
                assert!((top - e * e * h0).abs() < 2e-3 * h0, "h {h} e {e}: apex {top}");
            }
        }
    }

    #[test]
    fn a_bounce_before_the_move_returns_e_squared_of_the_drop_height_to_the_apex() {
        let (a, h0, h) = (9.81, 1.0, 1.0 / 60.0);
        let (gap, u) = fall(h0, a, h);
        for e in [0.2f32, 0.5, 0.8, 1.0] {
            let w = Impact::new(u, gap, a, h).before_move(e);
            let top = apex(gap + w * h, w, a, h).max(gap + w * h);
            let want = (e * e * h0).max(gap);
            assert!((top - want).abs() < 2e-3 * h0, "e {e}: apex {top}, want {want}");
        }
    }

    #[test]
    fn without_gravity_the_rebound_is_newtons_e_times_the_approach() {
        for e in [0.0f32, 0.3, 1.0] {
            let i = Impact::new(4.79, 0.03, 0.0, 1.0 / 60.0);
            assert!((i.after_move(e) - e * 4.79).abs() < 1e-5);
            assert!((i.before_move(e) - e * 4.79).abs() < 1e-5);
            assert_eq!(i.speed(), 4.79);
        }
    }

    #[test]
    fn the_impact_speed_includes_what_gravity_adds_over_the_gap() {
        let i = Impact::new(4.25, 0.07, 9.81, 1.0 / 60.0);
        assert!((i.speed() - (4.25f32 * 4.25 + 2.0 * 9.81 * 0.07).sqrt()).abs() < 1e-5);
        assert!(i.speed() > 4.40);
    }
}
