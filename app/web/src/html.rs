//! A small HTML writer: elements, attributes and text into one string, every value
//! escaped, so nothing read from a link or the catalog is ever taken as markup. The
//! page's module draws with it, and the build writes the default view with the same
//! functions (`shell::prerender`). Values are escaped by `catalog::html`, the one escaper.

use catalog::html::escape_into;

/// HTML being written.
#[derive(Default)]
pub struct Html(String);

impl Html {
    pub fn new() -> Self {
        Html::default()
    }

    /// `<tag name="value" …>`; an empty name leaves the attribute out, so an optional
    /// attribute can sit in the list as `(if wanted { "hidden" } else { "" }, "")`.
    pub fn open(&mut self, tag: &str, attrs: &[(&str, &str)]) -> &mut Self {
        self.0.push('<');
        self.0.push_str(tag);
        for (name, value) in attrs {
            if name.is_empty() {
                continue;
            }
            self.0.push(' ');
            self.0.push_str(name);
            self.0.push_str("=\"");
            escape_into(&mut self.0, value);
            self.0.push('"');
        }
        self.0.push('>');
        self
    }

    pub fn close(&mut self, tag: &str) -> &mut Self {
        self.0.push_str("</");
        self.0.push_str(tag);
        self.0.push('>');
        self
    }

    pub fn text(&mut self, text: &str) -> &mut Self {
        escape_into(&mut self.0, text);
        self
    }

    /// An element holding only text.
    pub fn el(&mut self, tag: &str, attrs: &[(&str, &str)], text: &str) -> &mut Self {
        self.open(tag, attrs).text(text).close(tag)
    }

    /// HTML written by another `Html`.
    pub fn html(&mut self, html: &str) -> &mut Self {
        self.0.push_str(html);
        self
    }

    pub fn finish(self) -> String {
        self.0
    }
}

/// Makes `el` the element `html` describes, keeping the nodes that stay (the page's
/// `__gpuAdvisorMorph` in `index.html`): the browser then restyles and lays out only
/// what changed, and a control keeps its focus and a field its typed text. Where the
/// page lacks that function (a host page without `index.html`'s script), `el` is
/// replaced.
pub fn morph(el: &web_sys::Element, html: &str) {
    use wasm_bindgen::JsCast;
    let morph = web_sys::window()
        .and_then(|w| js_sys::Reflect::get(&w, &"__gpuAdvisorMorph".into()).ok())
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok());
    match morph {
        Some(f)
            if f.call2(&wasm_bindgen::JsValue::NULL, el, &html.into())
                .is_ok() => {}
        _ => el.set_outer_html(html),
    }
}

/// The attribute present (`name=""`) when `on`, left out otherwise.
pub fn flag(name: &'static str, on: bool) -> (&'static str, &'static str) {
    (if on { name } else { "" }, "")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_from_links_are_text_never_markup() {
        let mut h = Html::new();
        h.open(
            "a",
            &[
                ("href", "?ids=\"><script>"),
                flag("hidden", false),
                flag("open", true),
            ],
        )
        .text("<img src=x onerror=alert(1)> & co")
        .close("a");
        assert_eq!(
            h.finish(),
            "<a href=\"?ids=&quot;&gt;&lt;script&gt;\" open=\"\">&lt;img src=x onerror=alert(1)&gt; &amp; co</a>"
        );
    }
}
