//! Every key of the window in one table ([`KEYS`]: action, keys, description), which
//! [`dispatch`] runs from and the F1 help lists, so the two cannot disagree; the mouse's
//! gestures ([`MOUSE`]) are handled by the view ([`super::viewport`]) and listed beside them.
//!
//! Keys are read from egui's input each frame, in the window and in the UI tests alike, and
//! only while no text field has the keyboard. egui's own Ctrl +/− zoom is switched off:
//! the table's interface-scale keys do it, with the panel's limits.
//!
//! The walking keys are held, not pressed: while a character is driven (the panel's
//! *Characters* section) W A S D walk it relative to the camera's heading and Space jumps
//! instead of pausing; the camera's target follows it.

use super::testbed::Testbed;
use egui::Key;
use glam::Vec3;

/// What a key does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Play or pause (jump while driving a character).
    PlayPause,
    /// Exactly one step forward.
    StepForward,
    /// One step back.
    StepBack,
    /// The earliest step of the history.
    First,
    /// The latest step.
    Last,
    /// Reset the scene.
    Reset,
    /// Frame the scene.
    Frame,
    /// Screenshot.
    Screenshot,
    /// Clear the selection.
    ClearSelection,
    /// The help overlay.
    Help,
    /// The plots window.
    Plots,
    /// Interface scale up.
    ZoomIn,
    /// Interface scale down.
    ZoomOut,
    /// Interface scale back to 100 %.
    ZoomReset,
    /// Walk the driven character (held keys).
    Walk,
}

/// A key, with Ctrl (Cmd on macOS) or without.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Chord {
    /// The key.
    pub key: Key,
    /// Ctrl held.
    pub ctrl: bool,
}

const fn key(key: Key) -> Chord {
    Chord { key, ctrl: false }
}

const fn ctrl(key: Key) -> Chord {
    Chord { key, ctrl: true }
}

/// One row of the table.
#[derive(Clone, Copy, Debug)]
pub struct Binding {
    /// What the keys do.
    pub action: Action,
    /// The keys (any of them).
    pub keys: &'static [Chord],
    /// How the help names the keys.
    pub label: &'static str,
    /// What they do, for the help.
    pub description: &'static str,
}

/// Every key of the window.
pub const KEYS: &[Binding] = &[
    Binding {
        action: Action::PlayPause,
        keys: &[key(Key::Space)],
        label: "Space",
        description: "play / pause (jump, while driving a character)",
    },
    Binding {
        action: Action::Walk,
        keys: &[key(Key::W), key(Key::A), key(Key::S), key(Key::D)],
        label: "W A S D",
        description: "walk the character picked and driven in the Characters section (the camera follows it)",
    },
    Binding {
        action: Action::StepForward,
        keys: &[key(Key::Period), key(Key::ArrowRight)],
        label: ". or Right arrow",
        description: "exactly one step (also while paused); at a past step, the recorded one",
    },
    Binding {
        action: Action::StepBack,
        keys: &[key(Key::Comma), key(Key::ArrowLeft)],
        label: ", or Left arrow",
        description: "one step back (the history keeps every step since the start)",
    },
    Binding {
        action: Action::First,
        keys: &[key(Key::Home)],
        label: "Home",
        description: "the earliest step of the history",
    },
    Binding {
        action: Action::Last,
        keys: &[key(Key::End)],
        label: "End",
        description: "the latest step of the history",
    },
    Binding {
        action: Action::Reset,
        keys: &[key(Key::R)],
        label: "R",
        description: "reset the scene (bodies and camera; every side of a comparison)",
    },
    Binding {
        action: Action::Frame,
        keys: &[key(Key::F)],
        label: "F",
        description: "frame the selected pair (with none selected: the scene)",
    },
    Binding {
        action: Action::Screenshot,
        keys: &[key(Key::F12)],
        label: "F12",
        description: "screenshot to screenshots/ (\"with panel\" in the panel includes it)",
    },
    Binding {
        action: Action::ClearSelection,
        keys: &[key(Key::Escape)],
        label: "Esc",
        description: "clear the selection",
    },
    Binding { action: Action::Help, keys: &[key(Key::F1)], label: "F1", description: "this help" },
    Binding {
        action: Action::Plots,
        keys: &[key(Key::P)],
        label: "P",
        description: "the plots: energy, momentum, penetration, contacts, stage timings, solver convergence",
    },
    Binding {
        action: Action::ZoomIn,
        keys: &[ctrl(Key::Plus), ctrl(Key::Equals)],
        label: "Ctrl +",
        description: "interface scale up (for a projector)",
    },
    Binding {
        action: Action::ZoomOut,
        keys: &[ctrl(Key::Minus)],
        label: "Ctrl −",
        description: "interface scale down",
    },
    Binding {
        action: Action::ZoomReset,
        keys: &[ctrl(Key::Num0)],
        label: "Ctrl 0",
        description: "interface scale back to 100 %",
    },
];

/// Every mouse gesture on the 3D view (handled by [`super::viewport`]): (input, what it does).
pub const MOUSE: &[(&str, &str)] = &[
    ("left click on a body", "select it; a second body makes a pair for the contact inspector"),
    ("left click on empty space", "clear the selection"),
    ("left click near a joint's anchor", "select the joint for the joint inspector"),
    ("left drag on a body", "pull it with a mouse joint, its force shown in newtons (while paused: move it directly)"),
    ("Ctrl + left drag on a body", "turn it about the view's up and right axes"),
    ("left drag on empty space", "orbit the camera"),
    ("right or middle drag", "pan"),
    ("mouse wheel", "zoom towards the cursor"),
    (
        "left drag inside an inset",
        "turn that inset's view (the Gauss map and the Minkowski difference turn on their own)",
    ),
    ("double-click an inset", "enlarge it to the whole view; double-click again to put it back"),
];

/// Smallest and largest interface scale, and the step of Ctrl +/− and the panel's buttons.
pub const UI_SCALE: (f32, f32, f32) = (0.5, 3.0, 0.1);

/// Walking speed when driven (m/s).
pub const DRIVE_SPEED: f32 = 3.0;
/// Take-off speed of a jump (m/s): about 0.46 m high under 9.81 m/s².
pub const JUMP_SPEED: f32 = 3.0;

/// The actions whose keys were pressed this frame (none while a text field has the
/// keyboard), in the table's order. [`Action::Walk`] is held, not pressed: never here.
pub fn pressed(ctx: &egui::Context) -> Vec<Action> {
    if ctx.egui_wants_keyboard_input() {
        return Vec::new();
    }
    ctx.input(|i| {
        KEYS.iter()
            .filter(|b| b.action != Action::Walk)
            .filter(|b| b.keys.iter().any(|c| i.key_pressed(c.key) && i.modifiers.command == c.ctrl))
            .map(|b| b.action)
            .collect()
    })
}

/// Runs this frame's keys on the testbed: the pressed actions, and the held walking keys of
/// a driven character.
pub fn dispatch(ctx: &egui::Context, t: &mut Testbed) {
    if ctx.options(|o| o.zoom_with_keyboard) {
        ctx.options_mut(|o| o.zoom_with_keyboard = false);
    }
    for a in pressed(ctx) {
        run(ctx, t, a);
    }
    drive(t, DriveKeys::read(ctx));
}

/// Does `action`.
pub fn run(ctx: &egui::Context, t: &mut Testbed, action: Action) {
    let driving = t.selection.characters.driving && t.selection.characters.selected.is_some();
    match action {
        // Space jumps while a character is driven ([`drive`]).
        Action::PlayPause if driving => {}
        Action::PlayPause => t.session.playing = !t.session.playing,
        Action::StepForward => t.step_forward(),
        Action::StepBack => t.step_back(),
        Action::First => t.seek(t.timeline().0),
        Action::Last => t.seek(t.timeline().1),
        Action::Reset => t.reset(),
        Action::Frame => t.frame_scene(),
        Action::Screenshot => t.tools.capture.request_screenshot(),
        Action::ClearSelection => {
            t.click_body(None);
            t.selection.joint = None;
        }
        Action::Help => t.view.show_help = !t.view.show_help,
        Action::Plots => t.tools.plots.open = !t.tools.plots.open,
        Action::ZoomIn | Action::ZoomOut | Action::ZoomReset => {
            let (lo, hi, step) = UI_SCALE;
            let z = ctx.zoom_factor();
            let z = match action {
                Action::ZoomIn => (z + step).min(hi),
                Action::ZoomOut => (z - step).max(lo),
                _ => 1.0,
            };
            ctx.set_zoom_factor((z * 10.0).round() / 10.0);
        }
        Action::Walk => {}
    }
}

/// Keys held this frame, for [`drive`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DriveKeys {
    /// W.
    pub forward: bool,
    /// S.
    pub back: bool,
    /// A.
    pub left: bool,
    /// D.
    pub right: bool,
    /// Space pressed this frame.
    pub jump: bool,
}

impl DriveKeys {
    /// The keys from egui's input (nothing while a text field has the keyboard).
    pub fn read(ctx: &egui::Context) -> DriveKeys {
        if ctx.egui_wants_keyboard_input() {
            return DriveKeys::default();
        }
        ctx.input(|i| DriveKeys {
            forward: i.key_down(Key::W),
            back: i.key_down(Key::S),
            left: i.key_down(Key::A),
            right: i.key_down(Key::D),
            jump: i.key_pressed(Key::Space),
        })
    }
}

/// Applies the keys to the driven character (walk velocity relative to the camera's
/// heading; a jump when on the ground) and points the camera at it. Driving replaces the
/// character's scripted path (Reset restores it).
pub fn drive(t: &mut Testbed, keys: DriveKeys) {
    let chars = t.selection.characters;
    let (Some(i), true) = (chars.selected, chars.driving) else { return };
    let cam = &mut t.view.camera;
    let yaw_forward = {
        let d = cam.target - cam.eye();
        Vec3::new(d.x, 0.0, d.z).normalize_or(Vec3::NEG_Z)
    };
    let right = yaw_forward.cross(Vec3::Y);
    let axis = |a: bool, b: bool| (a as i32 - b as i32) as f32;
    let dir = yaw_forward * axis(keys.forward, keys.back) + right * axis(keys.right, keys.left);
    let Some(c) = t.sides.main_mut().world.character_mut(i) else { return };
    c.path.clear();
    c.walk = dir.normalize_or_zero() * DRIVE_SPEED;
    if keys.jump && c.body.on_ground {
        c.fall = Vec3::Y * JUMP_SPEED;
    }
    cam.target = c.body.position;
}
