// Screen-space thick lines and round points for overlays, outlines and the grid.
// Each instance is a segment (a, b) with a colour and a width in pixels; six vertices make a
// quad around it in screen space. Points are segments with a == b drawn as discs.
// Markers (vs_marker) are discs at a, shown whole or not at all by the depth at b.

struct Camera {
    view_proj: mat4x4<f32>,
    eye: vec4<f32>,
    // x, y: the view's size in logical pixels (widths); w: line depth bias.
    viewport: vec4<f32>,
    // The view's rectangle in the target, in physical pixels (x, y, width, height).
    rect: vec4<f32>,
};

@group(0) @binding(0) var<uniform> camera: Camera;

struct SegmentIn {
    @builtin(vertex_index) vid: u32,
    @location(0) a: vec4<f32>,      // xyz, w: width in pixels
    @location(1) b: vec4<f32>,      // xyz, w: 1 = round point
    @location(2) color: vec4<f32>,
};

struct VertexOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) color: vec4<f32>,
    @location(1) local: vec2<f32>,
    @location(2) round: f32,
};

@vertex
fn vs_main(s: SegmentIn) -> VertexOut {
    return segment_vertex(s.vid, s.a, s.b, s.color);
}

// The scene's depth (the pass before, which drew the bodies), for markers.
@group(1) @binding(0) var scene_depth: texture_depth_multisampled_2d;

// A marker: a disc at a, drawn whole (no depth test in its pass) when its test point b is
// not behind the depth the bodies left at b's pixel, and not at all otherwise. A disc tested
// pixel by pixel is cut into a crescent wherever a nearer face covers part of it.
@vertex
fn vs_marker(s: SegmentIn) -> VertexOut {
    var out = segment_vertex(s.vid, s.a, vec4<f32>(s.a.xyz, 1.0), s.color);
    let t = camera.view_proj * vec4<f32>(s.b.xyz, 1.0);
    let ndc = t.xyz / max(t.w, 1e-6);
    let px = camera.rect.xy + vec2<f32>(ndc.x * 0.5 + 0.5, 0.5 - ndc.y * 0.5) * camera.rect.zw;
    // The farthest depth of the 3 x 3 pixels about b: a face seen nearly edge-on changes
    // depth quickly from pixel to pixel, and the point may lie on it.
    let last = vec2<i32>(textureDimensions(scene_depth)) - vec2<i32>(1, 1);
    let centre = vec2<i32>(floor(px));
    var depth = 0.0;
    for (var dy = -1; dy <= 1; dy++) {
        for (var dx = -1; dx <= 1; dx++) {
            let q = clamp(centre + vec2<i32>(dx, dy), vec2<i32>(0, 0), last);
            depth = max(depth, textureLoad(scene_depth, q, 0));
        }
    }
    if (t.w <= 0.0 || ndc.z > depth) {
        // Outside the clip volume: the quad is not drawn.
        out.clip = vec4<f32>(2.0, 2.0, 2.0, 1.0);
    }
    return out;
}

fn segment_vertex(vid: u32, a: vec4<f32>, b: vec4<f32>, color: vec4<f32>) -> VertexOut {
    var ca = camera.view_proj * vec4<f32>(a.xyz, 1.0);
    var cb = camera.view_proj * vec4<f32>(b.xyz, 1.0);
    // Clip segments that cross the near plane so they do not flip through the camera.
    let near = 1e-4;
    if (ca.w < near && cb.w >= near) {
        let t = (near - ca.w) / (cb.w - ca.w);
        ca = mix(ca, cb, t);
    } else if (cb.w < near && ca.w >= near) {
        let t = (near - cb.w) / (ca.w - cb.w);
        cb = mix(cb, ca, t);
    }
    let size = camera.viewport.xy;
    let sa = ca.xy / ca.w * size * 0.5;
    let sb = cb.xy / cb.w * size * 0.5;
    var dir = sb - sa;
    let len = length(dir);
    if (len < 1e-4) {
        dir = vec2<f32>(1.0, 0.0);
    } else {
        dir = dir / len;
    }
    let perp = vec2<f32>(-dir.y, dir.x);
    let half_w = a.w * 0.5;
    // Corners: (along, across) in {-1, +1}; the quad extends half a width past each end.
    var corner = array<vec2<f32>, 6>(
        vec2<f32>(-1.0, -1.0), vec2<f32>(1.0, -1.0), vec2<f32>(1.0, 1.0),
        vec2<f32>(-1.0, -1.0), vec2<f32>(1.0, 1.0), vec2<f32>(-1.0, 1.0)
    );
    let c = corner[vid];
    let use_b = c.x > 0.0;
    var clip = ca;
    if (use_b) {
        clip = cb;
    }
    let offset = (perp * c.y + dir * c.x) * half_w;
    // viewport.w: a small depth bias so outlines win against the faces they lie on.
    clip = vec4<f32>(clip.xy + offset / (size * 0.5) * clip.w, clip.z - camera.viewport.w * clip.w, clip.w);
    var out: VertexOut;
    out.clip = clip;
    out.color = color;
    out.local = c;
    out.round = b.w;
    return out;
}

@fragment
fn fs_main(in: VertexOut) -> @location(0) vec4<f32> {
    if (in.round > 0.5) {
        let r = length(in.local);
        if (r > 1.0) {
            discard;
        }
        // A dark rim makes points readable on any background.
        let rim = smoothstep(0.72, 0.8, r);
        return vec4<f32>(mix(in.color.rgb, vec3<f32>(0.05, 0.05, 0.08), rim), in.color.a);
    }
    return in.color;
}

// Translucent filled triangles (clip polygons, Minkowski faces on top of the view).
struct FillIn {
    @location(0) position: vec3<f32>,
    @location(1) color: vec4<f32>,
};

struct FillOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) color: vec4<f32>,
};

@vertex
fn vs_fill(v: FillIn) -> FillOut {
    var out: FillOut;
    out.clip = camera.view_proj * vec4<f32>(v.position, 1.0);
    out.color = v.color;
    return out;
}

@fragment
fn fs_fill(in: FillOut) -> @location(0) vec4<f32> {
    return in.color;
}
