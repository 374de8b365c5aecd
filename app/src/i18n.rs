//! Translated strings. The tables come from `locales/*.json` through `build.rs`,
//! which fails the build when a key is missing from either language.

use catalog::share::Lang;

/// A key with a string in each language.
pub trait Text: Copy {
    fn text(self, lang: Lang) -> &'static str;
}

include!(concat!(env!("OUT_DIR"), "/i18n_keys.rs"));

/// Fills `{name}` placeholders of a template.
pub fn fill(template: &str, args: &[(&str, String)]) -> String {
    let mut out = template.to_string();
    for (name, value) in args {
        out = out.replace(&format!("{{{name}}}"), value);
    }
    out
}

pub fn tr(lang: Lang, key: impl Text) -> &'static str {
    key.text(lang)
}

/// Numbers with a precision that suits their size: 1234 → "1,234", 12.3 → "12.3", 0.123 → "0.12".
pub fn num(x: f64) -> String {
    if !x.is_finite() {
        return "–".into();
    }
    let abs = x.abs();
    if abs >= 1000.0 {
        let whole = x.round() as i64;
        let digits = whole.abs().to_string();
        let mut grouped = String::new();
        for (i, c) in digits.chars().enumerate() {
            if i > 0 && (digits.len() - i) % 3 == 0 {
                grouped.push(',');
            }
            grouped.push(c);
        }
        if whole < 0 {
            format!("-{grouped}")
        } else {
            grouped
        }
    } else if abs >= 100.0 {
        format!("{x:.0}")
    } else if abs >= 10.0 {
        format!("{x:.1}")
    } else {
        format!("{x:.2}")
    }
}

pub fn gb(bytes: f64) -> String {
    num(bytes / 1e9)
}

pub fn usd(x: f64) -> String {
    format!("${}", num(x))
}

/// A reactive translated text. Every call returns the same closure type, so all
/// translated text nodes share one instance of the rendering code.
pub fn t(key: Key) -> impl Fn() -> &'static str + Copy + Send + Sync + 'static {
    let ctx = crate::state::use_ctx();
    move || tr(ctx.lang(), key)
}
