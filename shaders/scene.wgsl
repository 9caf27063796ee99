// Lit solids for contactlab. Flat-shaded hull faces and smooth spheres/capsules share this
// shader: per-vertex normals decide. Lighting: a key light, a cool fill from the opposite
// side and a hemispheric ambient, so adjacent faces of a box read as different tones on a
// projector.

struct Camera {
    view_proj: mat4x4<f32>,
    eye: vec4<f32>,
    // x, y: viewport size in pixels; w: line depth bias.
    viewport: vec4<f32>,
};

@group(0) @binding(0) var<uniform> camera: Camera;

struct VertexIn {
    @location(0) position: vec3<f32>,
    @location(1) normal: vec3<f32>,
    // Instance: model matrix columns, colour (a < 1: dimmed/translucent).
    @location(2) m0: vec4<f32>,
    @location(3) m1: vec4<f32>,
    @location(4) m2: vec4<f32>,
    @location(5) m3: vec4<f32>,
    @location(6) color: vec4<f32>,
};

struct VertexOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) world: vec3<f32>,
    @location(1) normal: vec3<f32>,
    @location(2) color: vec4<f32>,
};

@vertex
fn vs_main(v: VertexIn) -> VertexOut {
    let model = mat4x4<f32>(v.m0, v.m1, v.m2, v.m3);
    let world = model * vec4<f32>(v.position, 1.0);
    // Normal matrix: the model matrices carry rotation and (for boxes and spheres) a
    // non-uniform scale; the inverse-transpose of the 3x3 part handles both.
    let m3 = mat3x3<f32>(model[0].xyz, model[1].xyz, model[2].xyz);
    let n = normalize(transpose(inverse3(m3)) * v.normal);
    var out: VertexOut;
    out.clip = camera.view_proj * world;
    out.world = world.xyz;
    out.normal = n;
    out.color = v.color;
    return out;
}

fn inverse3(m: mat3x3<f32>) -> mat3x3<f32> {
    let a = m[0];
    let b = m[1];
    let c = m[2];
    let r0 = cross(b, c);
    let r1 = cross(c, a);
    let r2 = cross(a, b);
    let det = dot(a, r0);
    return transpose(mat3x3<f32>(r0, r1, r2)) * (1.0 / det);
}

@fragment
fn fs_main(in: VertexOut) -> @location(0) vec4<f32> {
    var n = normalize(in.normal);
    let to_eye = normalize(camera.eye.xyz - in.world);
    if (dot(n, to_eye) < 0.0) {
        n = -n;
    }
    let key = normalize(vec3<f32>(0.45, 0.85, 0.35));
    let fill = normalize(vec3<f32>(-0.6, 0.3, -0.5));
    let diffuse = max(dot(n, key), 0.0) * 0.62 + max(dot(n, fill), 0.0) * 0.18;
    let ambient = mix(0.22, 0.34, n.y * 0.5 + 0.5);
    let h = normalize(key + to_eye);
    let spec = pow(max(dot(n, h), 0.0), 48.0) * 0.18;
    let rim = pow(1.0 - max(dot(n, to_eye), 0.0), 3.0) * 0.10;
    var rgb = in.color.rgb * (ambient + diffuse) + vec3<f32>(spec + rim);
    return vec4<f32>(rgb, in.color.a);
}
