//! The one escaper for HTML and SVG text: the page's writer, the comparison chart and the
//! measurement view all write through it, so nothing read from a link or the catalog is
//! ever taken as markup, in element text or in an attribute quoted either way.

/// Writes `text` with `&`, `<`, `>`, `"` and `'` escaped.
pub fn escape_into(out: &mut String, text: &str) {
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
}

/// `text` escaped as `escape_into` writes it.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    escape_into(&mut out, text);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_markup_character_is_escaped_and_nothing_else() {
        assert_eq!(
            escape(r#"<a href="x" title='y'>&amp;</a>"#),
            "&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;"
        );
        assert_eq!(escape("RTX 4090 · 24 GB · 显存"), "RTX 4090 · 24 GB · 显存");
        // What comes out holds no character that could open markup or close a quote.
        let out = escape("\"'<>&");
        assert!(!out.contains(['<', '>', '"', '\'']));
    }
}
