//! Translated strings. The tables come from `locales/*.json` through `build.rs`,
//! which fails the build when a key is missing from either language. English is
//! compiled in; the page's Chinese strings are fetched from `zh.json` the first time the
//! page is shown in Chinese, so an English visit does not download them.

use catalog::decimal::fixed;
use std::sync::OnceLock;

use catalog::share::Lang;
use wasm_bindgen::JsValue;

/// A key with a string in each language.
pub trait Text: Copy {
    fn text(self, lang: Lang) -> &'static str;
}

include!(concat!(env!("OUT_DIR"), "/i18n_keys.rs"));

/// The page's Chinese strings in `Key` order, once fetched.
static ZH: OnceLock<Vec<&'static str>> = OnceLock::new();

fn zh_text(index: usize) -> Option<&'static str> {
    ZH.get().and_then(|table| table.get(index).copied())
}

/// Whether the Chinese strings are here (until then the page stays in English).
pub fn zh_ready() -> bool {
    ZH.get().is_some()
}

/// The window property through which the page's modules share the fetched `zh.json`, so
/// the second module switches language in the same moment as the first.
const SHARED: &str = "__gpuAdvisorZhStrings";

/// Fetches `zh.json` (published beside the page), or takes the copy another module of the
/// page already fetched, and keeps its strings in `Key` order.
pub async fn load_zh() -> Result<(), String> {
    if zh_from_page() {
        return Ok(());
    }
    let url = concat!("zh.json?v=", env!("ZH_STRINGS_VERSION"));
    let text = crate::load::fetch_text(url)
        .await
        .map_err(|e| e.to_string())?;
    install_zh(&text)?;
    if let Some(window) = web_sys::window() {
        let _ = js_sys::Reflect::set(&window, &SHARED.into(), &text.into());
    }
    Ok(())
}

/// Whether the Chinese strings are here, taking them from another module of the page if
/// it has fetched them: no waiting, so a language switch reaches every view at once.
pub fn zh_from_page() -> bool {
    if zh_ready() {
        return true;
    }
    let text = web_sys::window()
        .and_then(|w| js_sys::Reflect::get(&w, &SHARED.into()).ok())
        .and_then(|v| v.as_string());
    text.is_some_and(|t| install_zh(&t).is_ok())
}

/// Keeps `zh.json`'s strings in `Key` order: the keys sorted, the order `build.rs` gives
/// the enum (the file holds the page's strings only; the other modules' are in
/// `locales/views/` and `locales/measure/`).
fn install_zh(text: &str) -> Result<(), String> {
    let object = js_sys::JSON::parse(text).map_err(|_| "zh.json is not valid JSON".to_string())?;
    let keys = js_sys::Object::keys(&js_sys::Object::from(object.clone())).sort();
    let strings: Vec<&'static str> = keys
        .iter()
        .map(|k| {
            let value = js_sys::Reflect::get(&object, &k).unwrap_or(JsValue::UNDEFINED);
            &*String::leak(value.as_string().unwrap_or_default())
        })
        .collect();
    if strings.len() != KEY_COUNT {
        return Err(format!(
            "zh.json has {} strings, the page {KEY_COUNT}",
            strings.len()
        ));
    }
    let _ = ZH.set(strings);
    Ok(())
}

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
        fixed(x, 0)
    } else if abs >= 10.0 {
        fixed(x, 1)
    } else {
        fixed(x, 2)
    }
}

/// A count or other whole number, grouped by thousands: 7 → "7", 19995 → "19,995".
pub fn whole(x: f64) -> String {
    if x.abs() < 1000.0 {
        format!("{}", x.round() as i64)
    } else {
        num(x)
    }
}

/// Memory in GiB, the unit vendors' "GB" of GPU memory are in (`catalog::gpu::GIB`).
pub fn gb(bytes: f64) -> String {
    num(bytes / catalog::gpu::GIB)
}

/// Dollars; a cost above zero that would print as $0.00 (a small job's electricity or
/// rental) reads "<$0.01".
pub fn usd(x: f64) -> String {
    if x > 0.0 && x < 0.005 {
        return "<$0.01".into();
    }
    format!("${}", num(x))
}

/// A range of dollars, "$0.94–1.40"; a range wholly under a cent reads "<$0.01" as `usd`
/// does, not "$0.00–0.00".
pub fn usd_range(low: f64, high: f64) -> String {
    if high > 0.0 && high < 0.005 {
        return usd(high);
    }
    // Ends that print alike (a cent per hour of audio at both) read as one figure.
    let (low, high) = (num(low), num(high));
    if low == high {
        return format!("${high}");
    }
    format!("${low}–{high}")
}

#[cfg(test)]
mod tests {
    use super::{usd, usd_range};

    #[test]
    fn whole_numbers_are_grouped_by_thousands() {
        assert_eq!(super::whole(7.0), "7");
        assert_eq!(super::whole(999.0), "999");
        assert_eq!(super::whole(4096.0), "4,096");
        assert_eq!(super::whole(19995.0), "19,995");
        assert_eq!(super::whole(1e9), "1,000,000,000");
    }

    #[test]
    fn a_cost_under_a_cent_does_not_read_as_free() {
        assert_eq!(usd(0.004), "<$0.01");
        assert_eq!(usd(0.0), "$0.00");
        assert_eq!(usd(2.734), "$2.73");
        // Electricity per hour of audio on a 250 W card, about a quarter of a cent.
        assert_eq!(usd_range(0.0021, 0.0029), "<$0.01");
        assert_eq!(usd_range(0.94, 1.4), "$0.94–1.40");
        assert_eq!(usd_range(0.0, 0.0), "$0.00");
        assert_eq!(usd_range(0.0071, 0.0149), "$0.01");
    }
}
