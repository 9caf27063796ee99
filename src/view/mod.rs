//! View state shared by the renderer, the panel and the headless screenshot: the camera,
//! which overlays are on, and the debug records of the selected pair. Nothing here touches
//! the GPU; the physics module is only read.

pub mod camera;
pub mod feature;
pub mod pair;

pub use camera::Camera;
pub use pair::PairDebug;

use crate::scene::format::Overlay;

/// Which overlays are drawn: a set of [`Overlay`]s (one bit each), plus the two settings of
/// overlays that have one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Overlays {
    /// Bit `o as u32` set: overlay `o` is drawn.
    on: u32,
    /// The mesh hierarchy level drawn by [`Overlay::Bvh`] (root 0).
    pub bvh_level: u32,
    /// Minkowski inset: show the hidden (back) edges through the faces. Off = opaque.
    pub minkowski_see_through: bool,
}

impl Overlays {
    /// Whether overlay `o` is drawn.
    pub fn has(&self, o: Overlay) -> bool {
        self.on & (1 << o as u32) != 0
    }

    /// Draws overlay `o` or stops drawing it.
    pub fn set(&mut self, o: Overlay, on: bool) {
        if on {
            self.on |= 1 << o as u32;
        } else {
            self.on &= !(1 << o as u32);
        }
    }

    /// Switches one overlay on.
    pub fn enable(&mut self, o: Overlay) {
        self.set(o, true);
    }

    /// Switches every overlay off (their settings stay).
    pub fn clear(&mut self) {
        self.on = 0;
    }

    /// The overlays drawn, in [`Overlays::ALL`]'s order.
    pub fn iter(&self) -> impl Iterator<Item = Overlay> + '_ {
        Self::ALL.into_iter().map(|(o, _)| o).filter(|&o| self.has(o))
    }

    /// All overlays with display names, for the panel.
    pub const ALL: [(Overlay, &'static str); 14] = [
        (Overlay::Contacts, "contact points (colour = depth)"),
        (Overlay::Normals, "contact normals"),
        (Overlay::Impulses, "impulses (normal, friction)"),
        (Overlay::Aabbs, "bounding boxes"),
        (Overlay::EnlargedAabbs, "enlarged boxes (broad phase)"),
        (Overlay::Clip, "clip polygons (selected pair)"),
        (Overlay::Gauss, "Gauss maps (selected pair)"),
        (Overlay::Minkowski, "Minkowski difference (selected pair)"),
        (Overlay::Wireframe, "wireframe"),
        (Overlay::Axes, "body axes"),
        (Overlay::Toi, "time of impact: ghosts at t0, impact, t1"),
        (Overlay::SweptBounds, "time of impact: swept bounds"),
        (Overlay::Bvh, "mesh bounding volume hierarchy (one level)"),
        (Overlay::Graph, "solver graph: contacts by colour, bodies by island"),
    ];
}

/// A figure drawn by itself at the whole view's size (`--view`; in the window, a
/// double-click on an inset).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Figure {
    /// The Gauss maps of the selected pair.
    Gauss,
    /// The Minkowski difference of the selected pair.
    Minkowski,
    /// The selected pair's clip, the camera framed on it.
    Clip,
}

/// The insets' state: each one's own rotation, and the figure enlarged to the whole view.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Insets {
    /// The figure drawn alone, if any.
    pub solo: Option<Figure>,
    /// Rotation of the Gauss-map inset.
    pub gauss: glam::Quat,
    /// Rotation of the Minkowski inset.
    pub minkowski: glam::Quat,
}

impl Default for Insets {
    fn default() -> Self {
        Insets { solo: None, gauss: glam::Quat::IDENTITY, minkowski: glam::Quat::IDENTITY }
    }
}

/// Colours used by the renderer (linear RGB). Tests look for them in rendered images.
pub mod colors {
    /// Background (linear; ≈ sRGB 236, 239, 244).
    pub const BACKGROUND: [f32; 3] = [0.83, 0.86, 0.905];
    /// A shallow contact point.
    pub const CONTACT_SHALLOW: [f32; 3] = [1.0, 0.78, 0.0];
    /// A deep contact point (≥ 2 cm).
    pub const CONTACT_DEEP: [f32; 3] = [0.85, 0.0, 0.05];
    /// A speculative point (still apart).
    pub const CONTACT_SPECULATIVE: [f32; 3] = [0.0, 0.75, 0.85];
    /// Contact normals.
    pub const NORMAL: [f32; 3] = [0.05, 0.25, 1.0];
    /// Normal impulses.
    pub const IMPULSE_NORMAL: [f32; 3] = [0.0, 0.65, 0.15];
    /// Friction impulses.
    pub const IMPULSE_FRICTION: [f32; 3] = [0.8, 0.1, 0.8];
    /// A body's x axis (the axes overlay).
    pub const BODY_X: [f32; 3] = [0.9, 0.1, 0.1];
    /// A body's y axis.
    pub const BODY_Y: [f32; 3] = [0.1, 0.7, 0.1];
    /// A body's z axis.
    pub const BODY_Z: [f32; 3] = [0.1, 0.2, 0.95];
    /// AABBs.
    pub const AABB: [f32; 3] = [0.25, 0.55, 0.3];
    /// The broad phase's enlarged AABBs.
    pub const ENLARGED_AABB: [f32; 3] = [0.45, 0.62, 0.85];
    /// Reference face outline.
    pub const REFERENCE: [f32; 3] = [1.0, 0.45, 0.0];
    /// Incident face outline.
    pub const INCIDENT: [f32; 3] = [0.0, 0.55, 0.9];
    /// Clipped polygon fill.
    pub const CLIPPED: [f32; 3] = [0.55, 0.1, 0.75];
    /// Gauss map of A, and faces of A in the Minkowski view.
    pub const MAP_A: [f32; 3] = [0.95, 0.3, 0.12];
    /// Gauss map of −B, and faces of −B in the Minkowski view.
    pub const MAP_B: [f32; 3] = [0.1, 0.35, 0.95];
    /// Crossing arcs (Minkowski faces) and edge–edge faces.
    pub const MINKOWSKI_EDGE: [f32; 3] = [1.0, 0.8, 0.0];
    /// The chosen separating axis.
    pub const AXIS: [f32; 3] = [0.05, 0.6, 0.2];
    /// The SAT's winner: the winning arcs or face point in the Gauss map, the nearest face
    /// of the Minkowski difference.
    pub const WINNER: [f32; 3] = [0.92, 0.08, 0.5];
    /// Selection highlight.
    pub const SELECTED: [f32; 3] = [1.0, 0.85, 0.2];
}

/// Colour theme of the view (and of screenshots): `--theme` and the panel.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Theme {
    /// Light grey-blue background, dark text (slides on white).
    #[default]
    Light,
    /// Near-black background, light text (slides on dark, projectors).
    Dark,
}

/// How the view looks: theme and background.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Look {
    /// Colour theme.
    pub theme: Theme,
    /// Transparent background in screenshots (no ground grid; PNG alpha 0 where nothing is
    /// drawn).
    pub transparent: bool,
    /// Teaching labels on the selected pair: the reference and incident faces, the clip
    /// planes, and the face numbers of the Gauss-map points (the layers in `layers`).
    pub labels: bool,
    /// Which layers of labels are drawn ([`Look::shows`]).
    pub layers: LabelLayers,
}

/// A layer of the labels over the view (`--labels faces,planes,…`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum LabelLayer {
    /// The reference and incident faces (teaching).
    Faces,
    /// The clip planes, numbered (teaching).
    Planes,
    /// Each contact point's index.
    Points,
    /// Each contact point's normal impulse.
    Impulses,
    /// The face numbers of the Gauss-map points (teaching).
    Gauss,
    /// Each contact point's features in words (teaching).
    Features,
}

impl LabelLayer {
    /// Every layer.
    pub const ALL: [LabelLayer; 6] = [
        LabelLayer::Faces,
        LabelLayer::Planes,
        LabelLayer::Points,
        LabelLayer::Impulses,
        LabelLayer::Gauss,
        LabelLayer::Features,
    ];

    /// Shown only with the teaching labels on.
    pub fn teaching(self) -> bool {
        !matches!(self, LabelLayer::Points | LabelLayer::Impulses)
    }

    /// The name in the panel and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            LabelLayer::Faces => "faces",
            LabelLayer::Planes => "planes",
            LabelLayer::Points => "points",
            LabelLayer::Impulses => "impulses",
            LabelLayer::Gauss => "gauss",
            LabelLayer::Features => "features",
        }
    }
}

/// A set of label layers (one bit each).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LabelLayers(u8);

impl Default for LabelLayers {
    /// Every layer but the features (the teaching layers show only with the labels on).
    fn default() -> Self {
        let mut l = LabelLayers(0);
        for x in LabelLayer::ALL.into_iter().filter(|&x| x != LabelLayer::Features) {
            l.set(x, true);
        }
        l
    }
}

impl LabelLayers {
    /// Exactly `layers`.
    pub fn of(layers: &[LabelLayer]) -> LabelLayers {
        let mut l = LabelLayers(0);
        for &x in layers {
            l.set(x, true);
        }
        l
    }

    /// Whether layer `x` is in the set.
    pub fn has(&self, x: LabelLayer) -> bool {
        self.0 & (1 << x as u8) != 0
    }

    /// Puts layer `x` in or out.
    pub fn set(&mut self, x: LabelLayer, on: bool) {
        if on {
            self.0 |= 1 << x as u8;
        } else {
            self.0 &= !(1 << x as u8);
        }
    }
}

impl Look {
    /// Whether labels of layer `x` are drawn: a layer of the set, and for the teaching
    /// layers, with the teaching labels on.
    pub fn shows(&self, x: LabelLayer) -> bool {
        self.layers.has(x) && (self.labels || !x.teaching())
    }

    /// Clear colour of the main view (linear RGBA).
    pub fn clear(&self) -> [f32; 4] {
        let c = match self.theme {
            Theme::Light => colors::BACKGROUND,
            Theme::Dark => [0.016, 0.018, 0.024],
        };
        [c[0], c[1], c[2], if self.transparent { 0.0 } else { 1.0 }]
    }

    /// Ground grid colours (minor, major; linear), or None when the background is transparent.
    pub fn grid(&self) -> Option<([f32; 3], [f32; 3])> {
        if self.transparent {
            return None;
        }
        Some(match self.theme {
            Theme::Light => ([0.62, 0.65, 0.7], [0.45, 0.48, 0.54]),
            Theme::Dark => ([0.045, 0.05, 0.062], [0.1, 0.11, 0.135]),
        })
    }

    /// Background of the inset views (linear RGBA).
    pub fn inset(&self) -> [f32; 4] {
        match self.theme {
            Theme::Light => [0.97, 0.975, 0.985, 1.0],
            Theme::Dark => [0.03, 0.034, 0.044, 1.0],
        }
    }

    /// Text colour of the labels over the view (sRGB).
    pub fn text(&self) -> [u8; 3] {
        match self.theme {
            Theme::Light => [35, 38, 48],
            Theme::Dark => [228, 231, 238],
        }
    }
}

/// Contact-point colour for a depth (m): yellow when shallow, red at 2 cm, cyan if apart.
pub fn depth_color(depth: f32) -> [f32; 3] {
    if depth < 0.0 {
        return colors::CONTACT_SPECULATIVE;
    }
    let t = (depth / 0.02).clamp(0.0, 1.0);
    let (a, b) = (colors::CONTACT_SHALLOW, colors::CONTACT_DEEP);
    [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t]
}
