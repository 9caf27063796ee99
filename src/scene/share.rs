//! Scenes in links: a scene's RON text deflated (miniz_oxide) and written in URL-safe
//! base64 without padding, so that a whole scene fits in the `#ron=` part of a link to the
//! browser build (the fragment is never sent to a server). A 2 KB scene makes a link of
//! about 1 KB.

use base64::Engine;

/// A scene description as RON text (what a link carries).
pub fn scene_text(desc: &super::SceneDesc) -> Result<String, String> {
    ron::ser::to_string_pretty(desc, ron::ser::PrettyConfig::default()).map_err(|e| e.to_string())
}

/// Most bytes a link's scene may inflate to (a scene file is kilobytes; this refuses a
/// link built to exhaust memory).
pub const MAX_SCENE_BYTES: usize = 4 << 20;

/// `text` as it is written after `#ron=`.
pub fn encode(text: &str) -> String {
    let packed = miniz_oxide::deflate::compress_to_vec(text.as_bytes(), 9);
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(packed)
}

/// The scene text a `#ron=` value carries, or why it carries none.
pub fn decode(link: &str) -> Result<String, String> {
    let packed = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(link.trim().trim_end_matches('='))
        .map_err(|e| format!("the link's scene is not URL-safe base64: {e}"))?;
    let bytes = miniz_oxide::inflate::decompress_to_vec_with_limit(&packed, MAX_SCENE_BYTES)
        .map_err(|e| format!("the link's scene does not inflate: {e:?} (was the link cut short?)"))?;
    String::from_utf8(bytes).map_err(|_| "the link's scene is not UTF-8 text".to_string())
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_shipped_scene_comes_back_from_its_link_byte_for_byte_and_shorter() {
        for (name, text) in super::super::bundle::SHIPPED.iter().filter(|(n, _)| n.ends_with(".ron")) {
            let link = super::encode(text);
            assert!(link.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'), "{name}");
            assert!(link.len() < text.len(), "{name}: {} chars for {} bytes", link.len(), text.len());
            assert_eq!(super::decode(&link).unwrap(), *text, "{name}");
        }
    }

    #[test]
    fn every_shipped_scene_written_back_as_text_parses_to_the_same_scene() {
        for (name, text) in super::super::bundle::SHIPPED.iter().filter(|(n, _)| n.ends_with(".ron")) {
            let desc = super::super::parse(text, name).unwrap();
            let again = super::scene_text(&desc).unwrap();
            assert_eq!(super::super::parse(&again, name).unwrap(), desc, "{name}");
        }
    }

    #[test]
    fn a_cut_or_foreign_link_says_what_is_wrong() {
        let link = super::encode("Scene(name: \"x\")");
        assert!(super::decode(&link[..link.len() / 2]).unwrap_err().contains("inflate"));
        assert!(super::decode("not base64!").unwrap_err().contains("base64"));
    }
}
